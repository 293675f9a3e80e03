package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a Mooncake / AIPerf-style trace: the good shapes, every bad line reported at once, compact storage. */
class TraceTest {
    @TempDir
    Path dir;

    private Path write(String... lines) throws Exception {
        Path f = dir.resolve("trace-" + System.nanoTime() + ".jsonl");
        Files.write(f, List.of(lines), StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void readsTimestampsLengthsHashIdsAndTexts() throws Exception {
        Path f = write(
                "{\"timestamp\": 1700000000000, \"input_length\": 1536, \"output_length\": 64, \"hash_ids\": [0, 1, 2]}",
                "",
                "{\"timestamp\": 1700000000012.5, \"input_length\": 700, \"output_length\": 32, \"hash_ids\": [0, 7],"
                        + " \"session\": \"ignored\", \"extra\": {\"nested\": true}}",
                "{\"timestamp\": 1700000000040, \"text\": \"hello there\", \"output_length\": 16}",
                "{\"timestamp\": 1700000000040, \"prompt\": \"second text\", \"input_length\": 9, \"output_length\": 5}",
                "{\"timestamp\": 1700000001000, \"text_input\": \"caf\\u00e9 \\u2615\", \"output_length\": 1}",
                "{\"timestamp\": 1700000001000, \"input_text\": \"aiperf\"}");
        Trace t = Trace.read(f);

        assertThat(t.size()).isEqualTo(6);
        // Absolute epoch milliseconds become offsets from the first line; 12.5 ms is exactly 12,500,000 ns.
        assertThat(t.offsetsNanos()).containsExactly(0, 12_500_000, 40_000_000, 40_000_000, 1_000_000_000,
                1_000_000_000);
        assertThat(t.spanNanos()).isEqualTo(1_000_000_000);
        assertThat(t.inputTokens(0)).isEqualTo(1536);
        assertThat(t.outputTokens(1)).isEqualTo(32);
        assertThat(t.hashIds(0)).containsExactly(0, 1, 2);
        assertThat(t.hashIds(1)).containsExactly(0, 7);
        assertThat(t.hashIds(2)).isEmpty();
        assertThat(t.hashIdCount()).isEqualTo(5);
        assertThat(t.hasText(0)).isFalse();
        assertThat(t.withText()).isEqualTo(4);
        assertThat(t.text(2)).isEqualTo("hello there");
        assertThat(t.inputTokens(2)).isZero();
        assertThat(t.text(3)).isEqualTo("second text");
        assertThat(t.inputTokens(3)).isEqualTo(9);
        assertThat(t.text(4)).isEqualTo("café ☕");
        assertThat(t.text(5)).isEqualTo("aiperf");
        assertThat(t.outputTokens(5)).isZero(); // optional, as in AIPerf's schedules
        assertThatThrownBy(() -> t.text(0)).hasMessageContaining("has no text");
    }

    @Test
    void everyBadLineIsReportedWithItsNumberAndTheFix() throws Exception {
        Path f = write(
                "{\"timestamp\": 100, \"input_length\": 10, \"output_length\": 5}",  // 1: good
                "{\"timestamp\": 50, \"input_length\": 10, \"output_length\": 5}",   // 2: out of order
                "not json",                                                       // 3
                "[1, 2]",                                                         // 4: not an object
                "{\"input_length\": 10, \"output_length\": 5}",                       // 5: no timestamp
                "{\"timestamp\": -1, \"input_length\": 10, \"output_length\": 5}",   // 6: negative
                "{\"timestamp\": 200, \"output_length\": 5}",                       // 7: no input_length
                "{\"timestamp\": 200, \"input_length\": 0, \"output_length\": 5}",   // 8: zero
                "{\"timestamp\": 200, \"input_length\": 10, \"output_length\": -3}", // 9: negative
                "{\"timestamp\": 200, \"input_length\": 10, \"output_length\": 2.5}", // 10: fraction
                "{\"timestamp\": 200, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1, 2, 3]}", // 11: 3 > 2
                "{\"timestamp\": 200, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": \"0,1\"}", // 12
                "{\"timestamp\": 200, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [1e20]}", // 13
                "{\"timestamp\": 200, \"text\": \"hi\", \"output_length\": 5, \"hash_ids\": [1]}", // 14: both
                "{\"timestamp\": 200, \"text\": \"\", \"output_length\": 5}",        // 15: empty text
                "{\"timestamp\": \"soon\", \"input_length\": 10, \"output_length\": 5}"); // 16
        assertThatThrownBy(() -> Trace.read(f, 512))
                .isInstanceOfSatisfying(DatasetException.class, e -> {
                    assertThat(e.problems()).extracting(DatasetException.Problem::line)
                            .containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L);
                    assertThat(e.getMessage()).contains("15 malformed lines");
                })
                .hasMessageContaining("line 2: timestamp 50 ms is before the previous request's 100 ms (line 1)")
                .hasMessageContaining("sort it by timestamp")
                .hasMessageContaining("line 3: not valid JSON")
                .hasMessageContaining("line 4: not a JSON object")
                .hasMessageContaining("line 5: timestamp is missing")
                .hasMessageContaining("line 6: timestamp must be a number of milliseconds >= 0, got -1")
                .hasMessageContaining("line 7: input_length is missing")
                .hasMessageContaining("line 8: input_length must be a whole number of tokens > 0, got 0")
                .hasMessageContaining("line 9: output_length must be a whole number of tokens > 0, got -3")
                .hasMessageContaining("line 10: output_length must be a whole number of tokens > 0, got 2.5")
                .hasMessageContaining("line 11: 3 hash_ids of 512 tokens need input_length > 1024, got 600")
                .hasMessageContaining("at most ceil(input_length / block size) = 2 blocks fit")
                .hasMessageContaining("line 12: hash_ids must be a list of integers")
                .hasMessageContaining("line 13: hash_ids[0] must be an integer in the 32-bit range")
                .hasMessageContaining("line 14: has both a text and hash_ids")
                .hasMessageContaining("line 15: text must be a non-empty string")
                .hasMessageContaining("line 16: timestamp must be a number");
    }

    @Test
    void theBlockSizeDecidesHowManyHashIdsFit() throws Exception {
        Path f = write("{\"timestamp\": 0, \"input_length\": 600, \"output_length\": 5, \"hash_ids\": [1, 2, 3]}");
        // 600 tokens in blocks of 200: exactly 3 blocks; in blocks of 512: 2 (the second partial).
        assertThat(Trace.read(f, 200).hashIds(0)).containsExactly(1, 2, 3);
        assertThatThrownBy(() -> Trace.read(f)).hasMessageContaining("3 hash_ids of 512 tokens");
        assertThatThrownBy(() -> Trace.read(f, 0)).hasMessageContaining("block size must be >= 1");
    }

    @Test
    void anEmptyTraceOrAMissingFileIsRefused() throws Exception {
        Path empty = write("", "   ");
        assertThatThrownBy(() -> Trace.read(empty)).isInstanceOf(DatasetException.class)
                .hasMessageContaining("no records in the trace");
        assertThatThrownBy(() -> Trace.read(dir.resolve("absent.jsonl"))).isInstanceOf(DatasetException.class)
                .hasMessageContaining("cannot be read");
    }

    @Test
    void theSampleTraceIsAFewMinutesOfBurstySharedPrefixTraffic() {
        Trace t = Trace.read(Path.of("..", "datasets", "trace_sample.jsonl"));
        // generate.py: 180 s of Poisson 2 req/s plus 5 s bursts at 10 req/s every 30 s: about 360 + 6 x 40.
        assertThat(t.size()).isBetween(450, 700);
        assertThat(t.spanNanos()).isBetween(170_000_000_000L, 180_000_000_000L);
        int sharing = 0;
        for (int i = 0; i < t.size(); i++) {
            assertThat(t.inputTokens(i)).isBetween(1, 2048);
            assertThat(t.outputTokens(i)).isBetween(16, 256);
            int[] ids = t.hashIds(i);
            if (ids.length > 0 && ids[0] < 1000) {
                sharing++;
            }
        }
        // 90% of the requests open with one of the three system prompts (shares 0.45 + 0.30 + 0.15).
        assertThat((double) sharing / t.size()).isBetween(0.8, 0.97);
    }

    /**
     * 200,000 lines of 3 hash ids each: the trace keeps a long, two ints, an int of index and 3 ints of hash ids
     * per record, 32 bytes, 6.4 MB. Retained heap is measured after GC; the bound of 20 MB (60 B per record, a
     * million-line trace in 60 MB) leaves room for GC noise and array slack, and fails if records were kept as
     * objects (a JsonNode per line is over 500 B).
     */
    @Test
    void aLargeTraceIsStoredCompactly() throws Exception {
        Path f = dir.resolve("big.jsonl");
        try (BufferedWriter w = Files.newBufferedWriter(f)) {
            for (int i = 0; i < 200_000; i++) {
                w.write("{\"timestamp\": " + i * 5 + ", \"input_length\": 1200, \"output_length\": 100, \"hash_ids\": ["
                        + (i % 7) + ", " + (i % 7 + 100) + ", " + (1000 + i) + "]}\n");
            }
        }
        var memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        long before = memory.getHeapMemoryUsage().getUsed();
        Trace t = Trace.read(f);
        System.gc();
        long retained = memory.getHeapMemoryUsage().getUsed() - before;
        assertThat(t.size()).isEqualTo(200_000);
        assertThat(t.offsetNanos(199_999)).isEqualTo(999_995_000_000L);
        assertThat(t.hashIds(199_999)).containsExactly(199_999 % 7, 199_999 % 7 + 100, 200_999);
        assertThat(retained).as("bytes retained by a 200k-line trace").isLessThan(20_000_000L);
    }
}
