package dev.kneepoint.workload;

import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.SessionWorkload;
import dev.kneepoint.request.Workload;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A workload whose every request is changed the same way (fields added by {@link ToolUse}, {@link StructuredOutput}):
 * a session workload stays one, each turn changed; a described workload keeps its description, with one entry added.
 */
final class EveryRequest {
    private EveryRequest() {
    }

    /** {@code workload} with {@code change} applied to every request and {@code key: description} in its description. */
    static Workload apply(Workload workload, UnaryOperator<RequestSpec> change, String key, Object description) {
        return apply(workload, (index, spec) -> change.apply(spec), key, description);
    }

    /** A change that depends on the request: its index (a session's turn: the session's and the turn's, mixed). */
    interface Indexed {
        RequestSpec apply(long index, RequestSpec spec);
    }

    /** As {@link #apply(Workload, UnaryOperator, String, Object)}, the change told each request's index. */
    static Workload apply(Workload workload, Indexed change, String key, Object description) {
        return apply(workload, change, key, description, false);
    }

    /**
     * As {@link #apply(Workload, Indexed, String, Object)}, but every turn of a chat session is told the session's
     * index: a change drawn from it holds for the whole session (a conversation stays on its model).
     */
    static Workload applyPerSession(Workload workload, Indexed change, String key, Object description) {
        return apply(workload, change, key, description, true);
    }

    private static Workload apply(Workload workload, Indexed change, String key, Object description,
                                  boolean perSession) {
        Objects.requireNonNull(workload, "workload");
        if (workload instanceof SessionWorkload s) {
            return new SessionWorkload() {
                @Override public int turns() { return s.turns(); }
                @Override public java.time.Duration thinkTime() { return s.thinkTime(); }
                @Override public RequestSpec turn(long session, int turn, List<Answer> answers) {
                    return change.apply(perSession ? session : LengthDistribution.mix(session, turn),
                            s.turn(session, turn, answers));
                }
                @Override public RequestSpec next(long index) { return change.apply(index, s.next(index)); }
            };
        }
        return new DescribedWorkload() {
            @Override public RequestSpec next(long index) { return change.apply(index, workload.next(index)); }
            @Override public Map<String, Object> describe() {
                Map<String, Object> d = new LinkedHashMap<>(workload instanceof DescribedWorkload w ? w.describe()
                        : Map.of("kind", workload.getClass().getName()));
                d.put(key, description);
                return d;
            }
        };
    }
}
