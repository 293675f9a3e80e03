package dev.kneepoint.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The workload a run measured, in one line for a report's header, from its manifest's {@code config}: the API and
 * model, the prompt and answer lengths (and whether prompt lengths are words of a synthetic vocabulary or calibrated
 * tokens), the tools offered, and for a closed loop how its users started. A number without its workload is not comparable to another.
 */
final class WorkloadLine {
    private WorkloadLine() {}

    /** Batch sizes as {@code 8} or {@code 1, 4, 16} (a batch-size ladder). */
    private static String sizes(JsonNode batch) {
        List<String> out = new ArrayList<>();
        batch.forEach(b -> out.add(b.asText()));
        return String.join(", ", out);
    }

    /** {@code "Workload: ..."}, or empty when the manifest has no config (a run written by an older version). */
    static String of(JsonNode manifest) {
        return line("Workload", manifest, WorkloadLine::workloadParts);
    }

    /** The parts of the Workload line, read off the manifest's {@code config}. */
    private static List<String> workloadParts(JsonNode c) {
        List<String> parts = new ArrayList<>();
        JsonNode t = c.path("target");
        if (t.isObject()) {
            JsonNode mix = c.path("models");
            List<String> shares = new ArrayList<>();
            mix.fields().forEachRemaining(e -> shares.add(e.getKey() + " " + Math.round(100 * e.getValue().asDouble())
                    + " %"));
            parts.add(t.path("api").asText("?") + " API" + (t.path("stream").asBoolean(true) ? ", streamed" : ", not streamed")
                    + (shares.isEmpty() ? ", model " + t.path("model").asText("?")
                    : ", each request to one model: " + String.join(", ", shares)));
        }
        JsonNode w = c.path("workload");
        JsonNode batch = c.path("batch"); // a pooling API's inputs per request
        String scored = c.path("batch_query").asBoolean(false) ? ", each scored against one more as the query" : "";
        String calibration = c.path("prompt_calibration").asText("");
        boolean estimate = calibration.startsWith("estimate");
        boolean words = calibration.isEmpty() || calibration.startsWith("off") || estimate;
        if (batch.isArray() && "synthetic".equals(w.path("kind").asText())) {
            parts.add("batches of " + sizes(batch) + " synthetic inputs of " + length(w.path("input_tokens"))
                    + (words ? " words" : " tokens") + scored);
        } else if ("synthetic".equals(w.path("kind").asText()) || "shared_prefix".equals(w.path("kind").asText())) {
            parts.add("synthetic prompts of " + length(w.path("input_tokens")) + (words ? " words" : " tokens")
                    + (estimate ? " (token counts estimated: the server has no tokenizer endpoint)" : "")
                    + sharedPrefix(w, words ? " words" : " tokens")
                    + " and answers of " + length(w.path("output_tokens")) + " tokens"
                    + (w.path("ignore_eos").asBoolean(false) ? " (ignore_eos)" : ""));
        } else if ("multi_turn".equals(w.path("kind").asText())) {
            parts.add("chat sessions of " + w.path("turns").asInt() + " turns, each turn a new user message of "
                    + length(w.has("input_tokens") ? w.path("input_tokens") : w.path("user_tokens"))
                    + " tokens on the session's history, answers of " + length(w.path("output_tokens")) + " tokens");
        } else if ("mix".equals(w.path("kind").asText()) && w.has("classes")) {
            double total = 0;
            for (JsonNode k : w.path("classes")) {
                total += k.path("weight").asDouble();
            }
            List<String> classes = new ArrayList<>();
            for (JsonNode k : w.path("classes")) {
                classes.add(k.path("tag").asText("?") + " " + Math.round(100 * k.path("weight").asDouble() / total)
                        + " % (" + k.path("input_tokens").asInt() + " in, " + k.path("output_tokens").asInt() + " out)");
            }
            parts.add("a mix of synthetic prompts: " + String.join(", ", classes) + " tokens"
                    + (w.path("ignore_eos").asBoolean(false) ? " (ignore_eos)" : ""));
        } else if ("dataset".equals(w.path("kind").asText())) {
            parts.add("requests from the dataset " + w.path("file").asText("?") + " (" + w.path("records").asInt()
                    + " records" + (w.has("repeats_salted")
                            ? w.path("repeats_salted").asBoolean() ? ", repeats salted" : ", repeats unsalted" : "")
                    + ")");
        } else if (w.isObject()) {
            parts.add(w.path("kind").asText("workload") + " workload");
        }
        if (batch.isArray() && !"synthetic".equals(w.path("kind").asText())) {
            parts.add("in batches of " + sizes(batch) + " inputs per request" + scored);
        }
        JsonNode tools = c.path("tools");
        if (tools.isObject()) {
            int n = tools.path("functions").size();
            parts.add("offering " + n + (n == 1 ? " tool" : " tools") + " (" + tools.path("source").asText("?")
                    + ", tool_choice " + tools.path("tool_choice").asText("auto")
                    + "; their definitions are part of every prompt)");
        }
        JsonNode media = c.path("media");
        if (media.isObject()) {
            List<String> kinds = new ArrayList<>();
            int images = media.path("images").asInt();
            int clips = media.path("audio_clips").asInt();
            if (images > 0) {
                kinds.add(images + (images == 1 ? " image of " : " images of ") + media.path("image_size").asText("?"));
            }
            if (clips > 0) {
                kinds.add(clips + (clips == 1 ? " audio clip of " : " audio clips of ")
                        + media.path("audio_seconds").asDouble() + " s");
            }
            parts.add("with " + String.join(" and ", kinds) + " per request (their tokens the server's count)");
        }
        JsonNode structured = c.path("structured_output");
        if (structured.isObject()) {
            parts.add("answers asked as JSON (" + structured.path("type").asText("?")
                    + (structured.path("type").asText().equals("json_schema") ? ", schema "
                    + structured.path("schema").asText("?") : "") + "; each checked)");
        }
        if ("closed".equals(c.path("mode").asText())) {
            double ramp = c.path("ramp_up_s").asDouble(Double.NaN);
            parts.add(Double.isNaN(ramp) ? "closed loop"
                    : ramp == 0 ? "closed loop, users started in lock-step (--ramp-up 0s: equal requests sent together "
                            + "batch together, as real users' would not)"
                            : String.format(Locale.ROOT, "closed loop, users started over %.2f s", ramp));
        } else if (c.has("mode")) {
            parts.add(c.path("mode").asText() + " loop");
        }
        return parts;
    }

    /** {@code ", each sharing a prefix of P tokens with its group (G groups)"}, or "" without a shared prefix. */
    private static String sharedPrefix(JsonNode w, String unit) {
        int tokens = w.path("prefix_tokens").asInt(0);
        int groups = w.path("prefix_groups").asInt(1);
        return tokens <= 0 ? "" : ", each sharing a prefix of " + tokens + unit + " with its group (" + groups
                + (groups == 1 ? " group)" : " groups)");
    }

    /**
     * {@code "Server: ..."}: the engine and what it said about itself ({@code config.server}), then the user's labels
     * ({@code config.labels}); empty when the manifest has neither.
     */
    static String server(JsonNode manifest) {
        return line("Server", manifest, WorkloadLine::serverParts);
    }

    /** The parts of the Server line, read off the manifest's {@code config}. */
    private static List<String> serverParts(JsonNode c) {
        List<String> parts = new ArrayList<>();
        JsonNode s = c.path("server");
        if (s.isObject()) {
            String engine = s.path("engine").asText("unknown");
            parts.add(engine + (s.hasNonNull("version") ? " " + s.path("version").asText() : "")
                    + (engine.equals("unknown") ? " engine (it answered none of the identity endpoints)" : ""));
            if (s.hasNonNull("model")) {
                parts.add("model " + s.path("model").asText());
            }
            if (s.hasNonNull("quantization")) {
                parts.add(s.path("quantization").asText());
            }
            if (s.hasNonNull("context_length")) {
                parts.add("context " + s.path("context_length").asText() + " tokens");
            }
            s.path("parallel").fields().forEachRemaining(e -> parts.add(e.getKey() + " " + e.getValue().asText()));
        }
        List<String> labels = new ArrayList<>();
        c.path("labels").fields().forEachRemaining(e -> labels.add(e.getKey() + "=" + e.getValue().asText()));
        if (!labels.isEmpty()) {
            parts.add("labels " + String.join(", ", labels));
        }
        return parts;
    }

    /**
     * {@code "<label>: part; part."}, the parts read off the manifest's {@code config}; empty when the manifest has no
     * config or the config gives no part.
     */
    private static String line(String label, JsonNode manifest, Function<JsonNode, List<String>> parts) {
        JsonNode c = manifest == null ? null : manifest.path("config");
        List<String> p = c == null || !c.isObject() ? List.of() : parts.apply(c);
        return p.isEmpty() ? "" : label + ": " + String.join("; ", p) + ".";
    }

    /** A length as the manifest writes it: a number, or a distribution's description ({@code fixed(128)} reads 128). */
    private static String length(JsonNode n) {
        String t = n.asText("?");
        return t.startsWith("fixed(") && t.endsWith(")") ? t.substring(6, t.length() - 1) : t;
    }
}
