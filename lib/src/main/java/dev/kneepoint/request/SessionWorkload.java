package dev.kneepoint.request;

import dev.kneepoint.metrics.ToolCall;
import java.util.List;
import java.util.Objects;

/**
 * A workload of chat sessions whose turns carry the server's real answers: turn {@code k} of a session is built
 * from the answers to turns {@code 0..k-1} and is sent only after turn {@code k-1} ended.
 *
 * <p>How the load steps run it (the runners recognise this interface; {@link #next} is what other code sees):
 * <ul>
 *   <li><b>Closed loop.</b> Each user runs one session at a time, turn after turn: a turn is sent when the
 *       previous one ended plus the step's think time (the usual closed-loop rule), so {@code t_intended} of turn
 *       {@code k > 0} is the previous turn's end plus the step's and the session's ({@link #thinkTime()}) think
 *       time.</li>
 *   <li><b>Open loop.</b> The arrival plan schedules requests, not sessions. Each planned arrival carries the next
 *       turn of the session that has been ready longest (its previous turn ended, plus {@link #thinkTime()}, at or before the planned time),
 *       else the first turn of a new session. So a session's next turn goes out at the first planned arrival at or
 *       after its previous answer ended, never earlier; the step's request rate stays the plan's, the scheduler
 *       never waits for an answer and {@code t_intended} is the planned time: the dependence between a session's
 *       turns adds no coordinated omission to the schedule.</li>
 *   <li><b>A failed turn ends its session</b> (the history would have a hole); the next request starts a new
 *       session. A session cut by the end of a step is not continued in the next step.</li>
 *   <li>Background streams and code that only knows {@link Workload} use {@link #next}, which gives turns with a
 *       synthetic history (independent requests).</li>
 * </ul>
 * The runners ask the client to keep each answer's text only for turns that have a successor
 * ({@link RequestSpec#keepResponseText()}) and drop the text from the record before handing it to the listener.
 */
public interface SessionWorkload extends Workload {

    /** Turns per session, at least 1. */
    int turns();

    /**
     * The time a user takes between an answer and the session's next turn (default zero): turn {@code k > 0} is not
     * intended before turn {@code k-1}'s end plus this time. In closed loop it adds to the step's think time (which
     * also separates one session from the next); in open loop the turn waits for the first planned arrival after it.
     */
    default java.time.Duration thinkTime() {
        return java.time.Duration.ZERO;
    }

    /**
     * Turn {@code turn} of session {@code session}, built on the real answers of its earlier turns.
     *
     * @param session a session id, unique within the run
     * @param turn    0-based turn index, below {@link #turns()}
     * @param answers the answers of turns {@code 0..turn-1}, in order ({@code answers.size() == turn})
     */
    RequestSpec turn(long session, int turn, List<Answer> answers);

    /**
     * One answer of a session: its text and its output-token count as the server (or the client) counted it.
     *
     * @param text      the answer's content, concatenated from the stream's deltas
     * @param tokens    output tokens of the answer (the record's {@code outputTokens})
     * @param toolCalls the tools the answer called, whole, in order (empty: none)
     */
    record Answer(String text, int tokens, List<ToolCall> toolCalls) {
        public Answer {
            Objects.requireNonNull(text, "text");
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }

        /** An answer of text only. */
        public Answer(String text, int tokens) {
            this(text, tokens, List.of());
        }
    }
}
