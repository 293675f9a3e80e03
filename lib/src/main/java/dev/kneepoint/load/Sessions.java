package dev.kneepoint.load;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.SessionWorkload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The chat sessions of one step of a {@link SessionWorkload}: builds each turn from the real answers, and (open
 * loop) keeps the sessions waiting for their next turn, ordered by the time they became ready. Thread-safe.
 */
final class Sessions {
    private final SessionWorkload workload;
    private final RunContext run;
    private final long thinkNanos;
    private final PriorityQueue<Session> ready = new PriorityQueue<>(
            Comparator.comparingLong((Session s) -> s.readyNanos).thenComparingLong(s -> s.id));

    /** One session in progress: its id, the next turn to send and the answers so far. */
    static final class Session {
        final long id;
        final List<SessionWorkload.Answer> answers = new ArrayList<>();
        long readyNanos;

        Session(long id) {
            this.id = id;
        }

        int turn() {
            return answers.size();
        }
    }

    Sessions(SessionWorkload workload, RunContext run) {
        this.workload = workload;
        this.run = run;
        this.thinkNanos = workload.thinkTime() == null ? 0 : Math.max(0, workload.thinkTime().toNanos());
    }

    /** The session's think time between an answer and its next turn, nanoseconds. */
    long thinkNanos() {
        return thinkNanos;
    }

    /** The runner's sessions when the run's workload is a {@link SessionWorkload}; else null. */
    static Sessions of(RunContext run) {
        return run.workload instanceof SessionWorkload w ? new Sessions(w, run) : null;
    }

    /** A new session (closed loop: each user starts one, and another when it ends). */
    Session fresh() {
        return new Session(run.nextSessionId());
    }

    /**
     * Open loop: the session ready longest whose previous turn ended at or before {@code intendedNanos}, else a
     * new session.
     */
    Session take(long intendedNanos) {
        synchronized (ready) {
            Session head = ready.peek();
            if (head != null && head.readyNanos <= intendedNanos) {
                return ready.poll();
            }
        }
        return fresh();
    }

    /**
     * The spec of the session's next turn, asking the client to keep the answer when another turn follows; null
     * (failure kept for the run) if the workload threw.
     */
    RequestSpec spec(Session s) {
        try {
            RequestSpec spec = java.util.Objects.requireNonNull(
                    workload.turn(s.id, s.turn(), List.copyOf(s.answers)), "SessionWorkload.turn returned null");
            return spec.withKeepResponseText(s.turn() + 1 < workload.turns());
        } catch (RuntimeException e) {
            run.fail("SessionWorkload.turn", e);
            return null;
        }
    }

    /**
     * Takes the answer out of a finished turn's record: returns true when the session goes on (the turn succeeded
     * and another follows); the answer is then part of the session. The record to hand on is
     * {@code record.withoutKeptAnswer()}.
     */
    boolean advance(Session s, RequestRecord record) {
        if (!record.isOk() || s.turn() + 1 >= workload.turns() || record.response().responseText() == null) {
            return false;
        }
        s.answers.add(new SessionWorkload.Answer(record.response().responseText(), record.tokens().outputTokens(),
                record.response().toolCalls()));
        return true;
    }

    /** Open loop: the session waits for a planned arrival at or after {@code answerEndNanos} plus the think time. */
    void park(Session s, long answerEndNanos) {
        s.readyNanos = answerEndNanos + thinkNanos;
        synchronized (ready) {
            ready.add(s);
        }
    }

    /** Sessions waiting for their next turn (open loop). */
    int waiting() {
        synchronized (ready) {
            return ready.size();
        }
    }
}
