package dev.kneepoint.io;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TestRecords;
import dev.kneepoint.metrics.TokenSource;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seals the {@code requests.jsonl} line format, both ways. Writing: the records below, written by {@link RequestLog}
 * (the run's own writer, one generator for the whole file), give {@code requests-golden.jsonl} byte for byte.
 * Reading: lines as older or other writers may have left them (fields missing, null, reordered, spaced, duplicated,
 * unknown, escaped, truncated; see {@link #cases}) read, by each of the three readers (the canonical fast path, the
 * general streaming parser and the tree reader {@link RequestJson#read}), to what {@code requests-read-golden.txt}
 * says: the record written back in canonical form, "null" (the fast path declines the line), or the error.
 * Both files were written by commit 401084a, before the field table was shared by the writer and the readers.
 * {@code -Dkneepoint.golden.update=true} rewrites them: only after a deliberate, reviewed change of the format.
 */
class RequestLineGoldenTest {
    private static final Path RESOURCES = Path.of("src/test/resources/dev/kneepoint/io");

    @TempDir
    Path tmp;

    @Test
    void theWriterGivesTheGoldenBytes() throws Exception {
        Path file = tmp.resolve("requests.jsonl");
        try (RequestLog log = new RequestLog(file, 50)) {
            records().forEach(log::append);
        }
        byte[] now = Files.readAllBytes(file);
        if (Boolean.getBoolean("kneepoint.golden.update")) {
            Files.write(RESOURCES.resolve("requests-golden.jsonl"), now);
            return;
        }
        assertThat(new String(now, StandardCharsets.UTF_8)).isEqualTo(resource("requests-golden.jsonl"));
    }

    @Test
    void everyReaderReadsEveryCaseAsBefore() throws Exception {
        StringBuilder out = new StringBuilder();
        RequestParser parser = new RequestParser();
        CanonicalRequestParser canonical = new CanonicalRequestParser();
        for (Map.Entry<String, String> c : cases().entrySet()) {
            byte[] line = c.getValue().getBytes(StandardCharsets.UTF_8);
            String fast = outcome(() -> canonical.parse(line, 0, line.length));
            String parsed = outcome(() -> parser.parse(line, 0, line.length));
            String general = outcome(() -> parser.parseGeneral(line, 0, line.length));
            String tree = outcome(() -> RequestJson.read(Json.MAPPER.readTree(line)));
            out.append("== ").append(c.getKey()).append('\n');
            out.append("parse   ").append(parsed).append('\n');
            out.append("fast    ").append(fast.equals(parsed) ? "same" : fast).append('\n');
            out.append("general ").append(general.equals(parsed) ? "same" : general).append('\n');
            out.append("tree    ").append(tree.equals(parsed) ? "same" : tree).append('\n');
        }
        String now = out.toString();
        if (Boolean.getBoolean("kneepoint.golden.update")) {
            Files.writeString(RESOURCES.resolve("requests-read-golden.txt"), now);
            return;
        }
        assertThat(now).contains("fast    same").contains("fast    null").contains("missing required field");
        assertThat(now).isEqualTo(resource("requests-read-golden.txt"));
    }

    /** Records of every outcome kind and every field's unusual values. */
    static List<RequestRecord> records() {
        List<RequestRecord> all = new ArrayList<>();
        RequestRecord.Builder b = TestRecords.ok(0, "c=1", 0, 0.25, new double[] {20, 31.5, 40}, new int[] {1, 2, 1});
        all.add(b.build());
        b = TestRecords.ok(1, "c=4 ü", 10, 11, new double[] {30, 45}, new int[] {3, 1});
        b.tag = "résumé/\"q\"";
        b.warmup = true;
        b.finishReason = null;
        b.requestedPromptTokens = 512;
        b.requestedOutputTokens = 64;
        b.clientCountedTokens = 5;
        all.add(b.build());
        b = TestRecords.ok(2, "c=1", 5, 7, new double[] {90, 95, 99}, new int[] {4, 1, 1});
        b.reasoningTokens = 4;
        b.firstAnswerNanos = TestRecords.nanos(95);
        all.add(b.build());
        b = TestRecords.ok(3, "c=1", 5, 7, new double[] {9}, new int[] {1});
        b.retried = true;
        b.serverTimings = Map.of("queue_ms", 1.5, "prompt_ms", 12.0, "nan_ms", Double.NaN);
        all.add(b.build());
        b = TestRecords.ok(4, "rate=2.5", 100, 90, new double[] {120, 121}, new int[] {1, 0}); // dispatched early
        b.streamed = false;
        b.tokenSource = TokenSource.TOKENIZER;
        b.promptTokens = -1;
        all.add(b.build());
        b = TestRecords.ok(5, "c=1", 0, 0, new double[] {}, new int[] {});
        b.tokenSource = TokenSource.SERVER_CONTINUOUS;
        b.finishReason = "length";
        all.add(b.build());
        b = TestRecords.ok(1_234_567_890_123_456_789L, "c=1", 0, 0, new double[] {1e9}, new int[] {7});
        b.chunkNanos = new long[] {999_999_999_999_999L};
        b.endNanos = 1_234_567_890_123L;
        all.add(b.build());
        b = TestRecords.ok(7, "c=1", 0, 1, new double[] {10, 20}, new int[] {1, 1});
        b.outcome = new Outcome.Timeout(Outcome.TimeoutKind.IDLE);
        b.finishReason = null;
        all.add(b.build());
        all.add(TestRecords.failed(8, "c=2", 5, 9, new Outcome.HttpError(503, "queue \"full\"\nretry\t\u00e9 \u2603")));
        all.add(TestRecords.failed(9, "c=2", 5, 9, new Outcome.HttpError(429, "")));
        all.add(TestRecords.failed(10, "c=2", 5, 9, new Outcome.ConnectionError("Connection refused")));
        all.add(TestRecords.failed(11, "c=2", 5, 9, new Outcome.StreamError("{\"error\": \"boom\"}")));
        all.add(TestRecords.failed(12, "c=2", 5, 9, new Outcome.Timeout(Outcome.TimeoutKind.CONNECT)));
        all.add(TestRecords.failed(13, "c=2", 5, 9, new Outcome.Timeout(Outcome.TimeoutKind.FIRST_TOKEN)));
        all.add(TestRecords.failed(14, "c=2", 5, 9, new Outcome.Timeout(Outcome.TimeoutKind.TOTAL)));
        all.add(TestRecords.failed(15, "c=2", 5, 9, Outcome.EMPTY));
        all.add(TestRecords.failed(16, "c=2", 5, 9, Outcome.TRUNCATED));
        all.add(TestRecords.failed(17, "c=2", 5, 9, Outcome.CANCELLED));
        all.add(TestRecords.failed(18, "c=2", 5, 9, Outcome.DROPPED));
        b = TestRecords.ok(19, "c=1", 5, 7, new double[] {90, 95, 99}, new int[] {4, 1, 1}); // an answer with a tool call
        b.reasoningTokens = 4;
        b.firstAnswerNanos = TestRecords.nanos(95);
        b.firstToolCallNanos = TestRecords.nanos(95);
        b.finishReason = "tool_calls";
        b.cachedPromptTokens = 64;
        all.add(b.build());
        b = TestRecords.ok(20, "c=1", 5, 7, new double[] {40, 50}, new int[] {1, 1}); // on a new TLS connection
        b.newConnection = true;
        b.dnsNanos = 1_250_000;
        b.connectNanos = 850_000;
        b.tlsNanos = 4_100_000;
        b.firstByteNanos = TestRecords.nanos(20);
        b.outputInvalid = true; // and a structured answer that did not parse
        all.add(b.build());
        b = TestRecords.ok(21, "b=8", 5, 7, new double[0], new int[0]); // a pooling answer: 8 vectors, read whole
        b.streamed = false;
        b.firstTokenNanos = TestRecords.nanos(30);
        b.lastTokenNanos = TestRecords.nanos(30);
        b.endNanos = TestRecords.nanos(30);
        b.promptTokens = 640;
        b.tokenSource = dev.kneepoint.metrics.TokenSource.SERVER_USAGE;
        b.clientCountedTokens = 0;
        b.items = 8;
        b.model = "adapter-a"; // and sent to a model of a mix
        b.finishReason = null;
        all.add(b.build());
        return all;
    }

    /** Named lines to read: every record's own line, then variations of three of them. */
    static Map<String, String> cases() throws Exception {
        Map<String, String> cases = new LinkedHashMap<>();
        List<RequestRecord> records = records();
        for (RequestRecord r : records) {
            cases.put("written " + r.id(), line(r));
        }
        cases.put("written 0 after a root separator", " " + line(records.get(0)));
        cases.put("written 0 with trailing blanks", line(records.get(0)) + " \t\r");
        for (int pick : new int[] {0, 2, 8}) {
            String base = line(records.get(pick));
            Map<String, Object> fields = Json.MAPPER.readValue(base, new TypeReference<LinkedHashMap<String, Object>>() {});
            for (String name : fields.keySet()) {
                Map<String, Object> m = new LinkedHashMap<>(fields);
                m.remove(name);
                cases.put(pick + " without " + name, Json.MAPPER.writeValueAsString(m));
                m = new LinkedHashMap<>(fields);
                m.put(name, null);
                cases.put(pick + " with " + name + " null", Json.MAPPER.writeValueAsString(m));
            }
            List<String> names = new ArrayList<>(fields.keySet());
            Map<String, Object> reversed = new LinkedHashMap<>();
            for (int i = names.size() - 1; i >= 0; i--) {
                reversed.put(names.get(i), fields.get(names.get(i)));
            }
            cases.put(pick + " reversed", Json.MAPPER.writeValueAsString(reversed));
            cases.put(pick + " pretty", Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(fields)
                    .replace('\n', ' '));
            cases.put(pick + " sorted", Json.MAPPER.writeValueAsString(new TreeMap<>(fields)));
            for (int cut : new int[] {1, 10, base.length() / 2, base.length() - 1}) {
                cases.put(pick + " cut at " + cut, base.substring(0, cut));
            }
        }
        String base = line(records.get(0));
        cases.put("unknown field first", base.replace("{\"id\"", "{\"extra\":{\"a\":[1,2]},\"id\""));
        cases.put("unknown field in the tail", base.replace(",\"ttft_ms\"", ",\"later\":[1],\"ttft_ms\""));
        cases.put("unknown numeric field in the tail", base.replace(",\"ttft_ms\"", ",\"later\":-1.5e3,\"ttft_ms\""));
        cases.put("duplicate step", base.replace(",\"tag\"", ",\"step\":\"again\",\"tag\""));
        cases.put("duplicate first answer", base.replace(",\"ttft_ms\"",
                ",\"t_first_answer_ns\":5,\"t_first_answer_ns\":6,\"ttft_ms\""));
        cases.put("first answer as a fraction", base.replace(",\"ttft_ms\"", ",\"t_first_answer_ns\":5.5,\"ttft_ms\""));
        cases.put("retried false", base.replace(",\"ttft_ms\"", ",\"retried\":false,\"ttft_ms\""));
        cases.put("escaped step", base.replace("\"step\":\"c=1\"", "\"step\":\"c\\u003d1\""));
        cases.put("leading zero", base.replace("\"id\":0", "\"id\":00"));
        cases.put("negative id", base.replace("\"id\":0", "\"id\":-42"));
        cases.put("id as text", base.replace("\"id\":0", "\"id\":\"12\""));
        cases.put("id as a fraction", base.replace("\"id\":0", "\"id\":3.7"));
        cases.put("id of 19 digits", base.replace("\"id\":0", "\"id\":9223372036854775807"));
        cases.put("id over a long", base.replace("\"id\":0", "\"id\":9223372036854775808"));
        cases.put("prompt tokens over an int", base.replace("\"prompt_tokens\":100", "\"prompt_tokens\":2147483648"));
        cases.put("chunk of 19 digits", base.replace("\"chunk_ns\":[", "\"chunk_ns\":[1234567890123456789,"));
        cases.put("chunk arrays differ", base.replace("\"chunk_ns\":[", "\"chunk_ns\":[1,"));
        cases.put("chunks as text", base.replace("\"chunk_tokens\":[1,2,1]", "\"chunk_tokens\":[\"1\",\"2\",\"1\"]"));
        cases.put("timings with a value", base.replace("\"server_timings\":{}", "\"server_timings\":{\"b\":2,\"a\":null}"));
        cases.put("warmup as text", base.replace("\"warmup\":false", "\"warmup\":\"true\""));
        cases.put("warmup as a number", base.replace("\"warmup\":false", "\"warmup\":1"));
        cases.put("unknown outcome", base.replace("\"outcome\":\"OK\"", "\"outcome\":\"NOT_AN_OUTCOME\""));
        cases.put("unknown token source", base.replace("\"token_source\":\"server_usage\"", "\"token_source\":\"guess\""));
        cases.put("unknown token source and no outcome", base.replace("\"token_source\":\"server_usage\"",
                "\"token_source\":\"guess\"").replace("\"outcome\":\"OK\",", ""));
        cases.put("http error with detail", base.replace("\"outcome\":\"OK\",\"outcome_detail\":\"\"",
                "\"outcome\":\"HTTP_ERROR(500)\",\"outcome_detail\":\"x\""));
        cases.put("detail on OK", base.replace("\"outcome_detail\":\"\"", "\"outcome_detail\":\"ignored\""));
        cases.put("minimal old line", "{\"id\": 1, \"step\": \"s\", \"token_source\": \"events\", \"outcome\": \"OK\"}");
        cases.put("not json", "not json at all");
        cases.put("array", "[1,2]");
        cases.put("empty object", "{}");
        return cases;
    }

    static String line(RequestRecord r) throws Exception {
        StringWriter w = new StringWriter();
        try (var g = Json.MAPPER.getFactory().createGenerator(w)) {
            RequestJson.write(g, r);
        }
        return w.toString();
    }

    @FunctionalInterface
    interface Read {
        RequestRecord read() throws Exception;
    }

    /** The record read, written back; "null"; or the error's class and first line. */
    private static String outcome(Read read) {
        try {
            RequestRecord r = read.read();
            return r == null ? "null" : line(r);
        } catch (Exception e) {
            return "! " + e.getClass().getSimpleName() + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
        }
    }

    private static String resource(String name) throws Exception {
        try (InputStream in = RequestLineGoldenTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
