package dev.kneepoint.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.SessionWorkload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/** Chat sessions in the load runners: real answers carried, turns in order, a failed turn ends its session. */
class SessionRunTest {

    /** Sessions of 3 turns: turn k's prompt lists the session id, then every earlier answer. */
    private static final SessionWorkload SESSIONS = sessions(Duration.ZERO);

    private static SessionWorkload sessions(Duration think) {
        return new SessionWorkload() {
        @Override
        public int turns() {
            return 3;
        }

        @Override
        public Duration thinkTime() {
            return think;
        }

        @Override
        public RequestSpec turn(long session, int turn, List<Answer> answers) {
            List<RequestSpec.ChatMessage> msgs = new ArrayList<>();
            for (int k = 0; k <= turn; k++) {
                msgs.add(new RequestSpec.ChatMessage("user", "session " + session + " turn " + k));
                if (k < turn) {
                    msgs.add(new RequestSpec.ChatMessage("assistant", answers.get(k).text()));
                }
            }
            return new RequestSpec("", msgs, 4, 10 * (turn + 1), Map.of(), "chat");
        }

        @Override
        public RequestSpec next(long index) {
            return RequestSpec.of("independent " + index, 4);
        }
        };
    }

    /** What the scripted server saw: the spec, the dispatch and end times of each request, by id. */
    private record Sent(long id, RequestSpec spec, RequestRecord record) {
        long session() {
            String first = spec.chatMessages().get(0).content();
            return Long.parseLong(first.split(" ")[1]);
        }

        int turn() {
            return (spec.chatMessages().size() - 1) / 2;
        }
    }

    /**
     * Answers "answer-ID" after {@code latencyNanos}, with the text only when asked; fails the request ids in
     * {@code failing} with an HTTP 500.
     */
    private static final class ScriptedSender implements RequestSender {
        final Map<Long, Sent> sent = new ConcurrentHashMap<>();
        final long latencyNanos;
        final java.util.Set<Long> failing;

        ScriptedSender(long latencyNanos, java.util.Set<Long> failing) {
            this.latencyNanos = latencyNanos;
            this.failing = failing;
        }

        @Override
        public RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation) {
            RequestRecord.Builder b = context.recordBuilder(spec);
            b.dispatchNanos = context.clock().now();
            LockSupport.parkNanos(latencyNanos);
            long t = context.clock().now();
            b.endNanos = t;
            if (failing.contains(context.id())) {
                b.outcome = new Outcome.HttpError(500, "scripted");
            } else {
                b.firstByteNanos = t;
                b.firstTokenNanos = t;
                b.lastTokenNanos = t;
                b.chunkNanos = new long[] {t};
                b.chunkTokens = new int[] {1};
                b.outputTokens = 1;
                b.responseText = spec.keepResponseText() ? "answer-" + context.id() : null;
            }
            RequestRecord r = b.build();
            sent.put(context.id(), new Sent(context.id(), spec, r));
            return r;
        }

        List<Sent> inOrder() {
            return sent.values().stream().sorted(Comparator.comparingLong(Sent::id)).toList();
        }
    }

    private static LoadResult run(RequestSender sender, RecordingListener listener, Step step) {
        return run(SESSIONS, sender, listener, step);
    }

    private static LoadResult run(SessionWorkload w, RequestSender sender, RecordingListener listener, Step step) {
        return LoadRun.builder().sender(sender).workload(w).listener(listener).clock(RunClock.system())
                .step(step).build().run();
    }

    @Test
    void theSessionThinkTimeSeparatesTurnsButNotSessions() {
        long think = FakeSender.ms(200);
        ScriptedSender sender = new ScriptedSender(FakeSender.ms(1), java.util.Set.of());
        run(sessions(Duration.ofNanos(think)), sender, new RecordingListener(),
                ClosedLoopStep.builder().concurrency(1).maxRequests(4).build());
        List<Sent> sent = sender.inOrder();
        assertThat(sent).extracting(Sent::turn).containsExactly(0, 1, 2, 0);
        for (int i = 1; i < 3; i++) {
            // Within a session: intended and dispatched at least the think time after the previous answer.
            assertThat(sent.get(i).record().timing().intendedNanos() - sent.get(i - 1).record().timing().endNanos())
                    .isGreaterThanOrEqualTo(think);
            assertThat(sent.get(i).record().timing().dispatchNanos() - sent.get(i - 1).record().timing().endNanos())
                    .isGreaterThanOrEqualTo(think);
        }
        // A new session starts without the session's think time (the step's is zero): 150 ms of slack for a loaded
        // machine still tells "no wait" from the 200 ms think time.
        assertThat(sent.get(3).record().timing().dispatchNanos() - sent.get(2).record().timing().endNanos())
                .isLessThan(FakeSender.ms(150));
    }

    @Test
    void openLoopFollowUpsWaitForTheThinkTime() {
        long think = FakeSender.ms(30);
        ScriptedSender sender = new ScriptedSender(FakeSender.ms(5), java.util.Set.of());
        run(sessions(Duration.ofNanos(think)), sender, new RecordingListener(),
                OpenLoopStep.builder().arrival(ArrivalPlan.constant(100)).duration(Duration.ofMillis(600)).build());
        Map<Long, List<Sent>> bySession = new java.util.TreeMap<>();
        sender.inOrder().forEach(s -> bySession.computeIfAbsent(s.session(), k -> new ArrayList<>()).add(s));
        int followUps = 0;
        for (List<Sent> turns : bySession.values()) {
            turns.sort(Comparator.comparingInt(Sent::turn));
            for (int k = 1; k < turns.size(); k++) {
                followUps++;
                assertThat(turns.get(k).record().timing().intendedNanos()
                        - turns.get(k - 1).record().timing().endNanos()).isGreaterThanOrEqualTo(think);
            }
        }
        // 60 planned arrivals 10 ms apart, sessions ready every ~35-45 ms: most sessions go on (about 2/3 of the
        // requests are follow-ups); a quarter is a loose floor.
        assertThat(followUps).isGreaterThanOrEqualTo(15);
    }

    @Test
    void closedLoopUserRunsEachSessionTurnAfterTurnWithTheRealAnswers() {
        ScriptedSender sender = new ScriptedSender(FakeSender.ms(2), java.util.Set.of());
        RecordingListener listener = new RecordingListener();
        run(sender, listener, ClosedLoopStep.builder().concurrency(1).maxRequests(7).build());

        List<Sent> sent = sender.inOrder();
        assertThat(sent).hasSize(7);
        // One user: sessions 0, 0, 0, 1, 1, 1, 2 with turns 0, 1, 2, 0, 1, 2, 0.
        assertThat(sent).extracting(Sent::session).containsExactly(0L, 0L, 0L, 1L, 1L, 1L, 2L);
        assertThat(sent).extracting(Sent::turn).containsExactly(0, 1, 2, 0, 1, 2, 0);
        // Turn 2 of session 1 (request 5) carries the answers to requests 3 and 4, the server's own text.
        assertThat(sent.get(5).spec().chatMessages()).extracting(RequestSpec.ChatMessage::content)
                .containsExactly("session 1 turn 0", "answer-3", "session 1 turn 1", "answer-4", "session 1 turn 2");
        // The answer is kept only for turns that have a successor, and never reaches the listener.
        assertThat(sent).extracting(s -> s.spec().keepResponseText())
                .containsExactly(true, true, false, true, true, false, true);
        assertThat(listener.records).allSatisfy(r -> assertThat(r.response().responseText()).isNull());
        for (int i = 1; i < sent.size(); i++) {
            assertThat(sent.get(i).record().timing().dispatchNanos())
                    .isGreaterThanOrEqualTo(sent.get(i - 1).record().timing().endNanos());
        }
    }

    @Test
    void aFailedTurnEndsItsSession() {
        // Request 1 (session 0, turn 1) fails: request 2 must be turn 0 of a new session, not turn 2 of session 0.
        ScriptedSender sender = new ScriptedSender(FakeSender.ms(1), java.util.Set.of(1L));
        run(sender, new RecordingListener(), ClosedLoopStep.builder().concurrency(1).maxRequests(5).build());

        List<Sent> sent = sender.inOrder();
        assertThat(sent).extracting(Sent::session).containsExactly(0L, 0L, 1L, 1L, 1L);
        assertThat(sent).extracting(Sent::turn).containsExactly(0, 1, 0, 1, 2);
        assertThat(sent.get(1).record().isOk()).isFalse();
    }

    @Test
    void openLoopKeepsThePlannedRateAndSendsEachTurnOnlyAfterThePreviousAnswer() {
        // 100 req/s constant for 1 s against 35 ms answers: a session is ready again 35 ms after each turn is sent,
        // so about 3-4 sessions run side by side and every planned arrival is sent (none waits for an answer).
        ScriptedSender sender = new ScriptedSender(FakeSender.ms(35), java.util.Set.of());
        RecordingListener listener = new RecordingListener();
        run(sender, listener, OpenLoopStep.builder().arrival(ArrivalPlan.constant(100))
                .duration(Duration.ofSeconds(1)).build());

        List<Sent> sent = sender.inOrder();
        // The plan's count exactly: a constant 100 req/s over 1 s (offsets 0, 10, ... 990 ms).
        assertThat(sent).hasSize(100);
        // Intended times are the planned ones, 10 ms apart: the sessions did not shift the schedule.
        List<Long> intended = sent.stream().map(s -> s.record().timing().intendedNanos()).sorted().toList();
        for (int i = 1; i < intended.size(); i++) {
            assertThat(intended.get(i) - intended.get(i - 1)).isEqualTo(FakeSender.ms(10));
        }
        Map<Long, List<Sent>> bySession = new java.util.TreeMap<>();
        sent.forEach(s -> bySession.computeIfAbsent(s.session(), k -> new ArrayList<>()).add(s));
        int followUps = 0;
        for (List<Sent> turns : bySession.values()) {
            turns.sort(Comparator.comparingInt(Sent::turn));
            for (int k = 0; k < turns.size(); k++) {
                assertThat(turns.get(k).turn()).isEqualTo(k);
                if (k > 0) {
                    followUps++;
                    RequestRecord prev = turns.get(k - 1).record();
                    RequestRecord cur = turns.get(k).record();
                    // Turn k was planned at or after turn k-1 ended, and carries its real answer.
                    assertThat(cur.timing().intendedNanos()).isGreaterThanOrEqualTo(prev.timing().endNanos());
                    assertThat(cur.timing().dispatchNanos()).isGreaterThanOrEqualTo(prev.timing().endNanos());
                    assertThat(turns.get(k).spec().chatMessages().get(2 * k - 1).content())
                            .isEqualTo("answer-" + turns.get(k - 1).id());
                }
            }
        }
        // Sessions do go on: with 35 ms answers and 10 ms spacing nearly every session completes its 3 turns
        // (about 2/3 of the requests are follow-ups); at least half is a loose floor for a loaded machine.
        assertThat(followUps).isGreaterThanOrEqualTo(50);
        assertThat(listener.records).allSatisfy(r -> assertThat(r.response().responseText()).isNull());
    }
}
