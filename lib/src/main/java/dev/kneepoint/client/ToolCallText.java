package dev.kneepoint.client;

import dev.kneepoint.metrics.ToolCall;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins a stream's tool-call fragments ({@link StreamPayload.ToolCallDelta}) into whole calls: fragments of one
 * {@code index} are one call, whose id and name are the first ones given and whose arguments are every piece in
 * order. Calls come out in the order their first fragment arrived. Kept only for an answer whose text is kept.
 */
final class ToolCallText {
    private final List<Integer> indexes = new ArrayList<>(1);
    private final List<String> ids = new ArrayList<>(1);
    private final List<String> names = new ArrayList<>(1);
    private final List<StringBuilder> arguments = new ArrayList<>(1);

    /** Adds the fragments of one chunk. */
    void add(List<StreamPayload.ToolCallDelta> deltas) {
        for (StreamPayload.ToolCallDelta d : deltas) {
            int k = indexes.indexOf(d.index());
            if (k < 0) {
                k = indexes.size();
                indexes.add(d.index());
                ids.add(null);
                names.add(null);
                arguments.add(new StringBuilder());
            }
            if (ids.get(k) == null && d.id() != null && !d.id().isEmpty()) {
                ids.set(k, d.id());
            }
            if (names.get(k) == null && d.name() != null && !d.name().isEmpty()) {
                names.set(k, d.name());
            }
            arguments.get(k).append(d.arguments());
        }
    }

    /** The whole calls so far. */
    List<ToolCall> calls() {
        List<ToolCall> out = new ArrayList<>(indexes.size());
        for (int k = 0; k < indexes.size(); k++) {
            out.add(new ToolCall(ids.get(k), names.get(k), arguments.get(k).toString()));
        }
        return out;
    }
}
