package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Prompts built from a trace: exact lengths, shared hash ids give byte-identical blocks, others differ. */
class TraceWorkloadTest {
    /** The simulator's chat template around one user message: 4 tokens per message + 3 (ChatTemplate). */
    private static final int CHAT_OVERHEAD = 7;

    @TempDir
    Path dir;

    private Path write(String... lines) throws Exception {
        Path f = dir.resolve("trace.jsonl");
        Files.write(f, List.of(lines), StandardCharsets.UTF_8);
        return f;
    }

    @Test
    void sharedHashIdsShareTheirBlocksByteForByteAndOthersDiffer() throws Exception {
        // Block size 64: request 0 and 1 share ids 5, 6 (128 content tokens); request 2 starts with 5 then differs;
        // request 3 has different ids; request 4 has none.
        Path f = write(
                "{\"timestamp\": 0, \"input_length\": 307, \"output_length\": 8, \"hash_ids\": [5, 6, 10, 11, 12]}",
                "{\"timestamp\": 1, \"input_length\": 200, \"output_length\": 8, \"hash_ids\": [5, 6, 20, 21]}",
                "{\"timestamp\": 2, \"input_length\": 200, \"output_length\": 8, \"hash_ids\": [5, 30, 31]}",
                "{\"timestamp\": 3, \"input_length\": 200, \"output_length\": 8, \"hash_ids\": [40, 41, 42]}",
                "{\"timestamp\": 4, \"input_length\": 200, \"output_length\": 8}");
        TraceWorkload w = Workloads.trace(f).blockSize(64).seed(3).build();
        List<String> p = List.of(w.next(0).prompt(), w.next(1).prompt(), w.next(2).prompt(), w.next(3).prompt(),
                w.next(4).prompt());

        // Every word is one token on the simulator's tokenizer; a request's content is input_length - 7 tokens.
        for (int i = 0; i < 5; i++) {
            assertThat(Tokenizer.count(p.get(i)) + CHAT_OVERHEAD).as("prompt tokens of request " + i)
                    .isEqualTo(w.trace().inputTokens(i));
        }
        String shared0 = firstTokens(p.get(0), 128);
        assertThat(firstTokens(p.get(1), 128)).isEqualTo(shared0);
        // The next block differs (ids 10 vs 20): the shared part ends exactly at the block boundary. Eight words
        // past it, not one: one word of two independent blocks matches by chance once in |vocabulary| salts.
        assertThat(firstTokens(p.get(1), 128 + 8)).isNotEqualTo(firstTokens(p.get(0), 128 + 8));
        assertThat(firstTokens(p.get(2), 64)).isEqualTo(firstTokens(p.get(0), 64));
        assertThat(firstTokens(p.get(2), 64 + 8)).isNotEqualTo(firstTokens(p.get(0), 64 + 8));
        assertThat(firstTokens(p.get(3), 8)).isNotEqualTo(firstTokens(p.get(0), 8));
        assertThat(firstTokens(p.get(4), 8)).isNotEqualTo(firstTokens(p.get(0), 8));
        // Deterministic: the same index gives the same text; the builder's salt keeps reruns apart.
        assertThat(w.next(1).prompt()).isEqualTo(p.get(1));
        TraceWorkload rerun = Workloads.trace(f).blockSize(64).seed(3).build();
        assertThat(firstTokens(rerun.next(0).prompt(), 8)).isNotEqualTo(firstTokens(p.get(0), 8));
        TraceWorkload warm1 = Workloads.trace(f).blockSize(64).seed(3).warmCache().build();
        TraceWorkload warm2 = Workloads.trace(f).blockSize(64).seed(3).warmCache().build();
        assertThat(warm1.next(2).prompt()).isEqualTo(warm2.next(2).prompt());
    }

    @Test
    void outputLengthsTextsAndRequestedLengthsComeFromTheTrace() throws Exception {
        Path f = write(
                "{\"timestamp\": 0, \"input_length\": 50, \"output_length\": 12}",
                "{\"timestamp\": 5, \"text\": \"Summarise: the quick brown fox.\", \"output_length\": 3}",
                "{\"timestamp\": 9, \"text\": \"counted\", \"input_length\": 4, \"output_length\": 2}",
                "{\"timestamp\": 9, \"input_length\": 20}");
        TraceWorkload w = Workloads.trace(f).tag("prod").build();
        RequestSpec s0 = w.next(0);
        assertThat(s0.maxTokens()).isEqualTo(12);
        assertThat(s0.extraBody()).containsEntry("ignore_eos", true).containsEntry("min_tokens", 12);
        assertThat(s0.requestedPromptTokens()).isEqualTo(50);
        assertThat(s0.tag()).isEqualTo("prod");
        RequestSpec s1 = w.next(1);
        assertThat(s1.prompt()).isEqualTo("Summarise: the quick brown fox.");
        assertThat(s1.requestedPromptTokens()).isEqualTo(-1);
        assertThat(s1.requestedOutputTokens()).isEqualTo(3);
        assertThat(w.next(2).requestedPromptTokens()).isEqualTo(4);
        // No output_length: no bound by default, the builder's default when set.
        assertThat(w.next(3).requestedOutputTokens()).isEqualTo(-1);
        assertThat(w.next(3).extraBody()).isEmpty();
        assertThat(Workloads.trace(f).defaultOutputTokens(64).build().next(3).requestedOutputTokens()).isEqualTo(64);
        // Past the end the trace cycles: request 4 is record 0 again (its own padding text).
        assertThat(w.next(4).maxTokens()).isEqualTo(12);
        assertThat(Tokenizer.count(w.next(4).prompt()) + CHAT_OVERHEAD).isEqualTo(50);
        assertThat(w.describe()).containsEntry("kind", "trace").containsEntry("records", 4)
                .containsEntry("block_size", 512).containsEntry("records_with_text", 2);
    }

    @Test
    void completionsPromptsCountNoChatTemplate() throws Exception {
        Path f = write("{\"timestamp\": 0, \"input_length\": 700, \"output_length\": 4, \"hash_ids\": [1, 2]}");
        TraceWorkload w = Workloads.trace(f).api(ApiKind.COMPLETIONS).build();
        // The assumed calibration has no BOS: the whole prompt is the text, 700 words = 700 simulator tokens.
        assertThat(Tokenizer.count(w.next(0).prompt())).isEqualTo(700);
        assertThat(w.verify(1).samples().get(0).achieved()).isEqualTo(700);
    }

    @Test
    void badSettingsAreReportedTogether() throws Exception {
        Path f = write("{\"timestamp\": 0, \"input_length\": 7, \"output_length\": 4}");
        assertThatThrownBy(() -> Workloads.trace(dir.resolve("none.jsonl")).blockSize(0).tag(" ").build())
                .hasMessageContaining("3 problems").hasMessageContaining("does not exist")
                .hasMessageContaining("block size must be >= 1").hasMessageContaining("tag must not be blank");
        Trace t = Trace.read(f, 64);
        assertThatThrownBy(() -> Workloads.trace(t).blockSize(128).build())
                .hasMessageContaining("block size 128 differs from the trace's 64");
    }

    /** The first {@code n} simulator tokens of {@code text}, as text. */
    private static String firstTokens(String text, int n) {
        return String.join("", Tokenizer.split(text).subList(0, n));
    }
}
