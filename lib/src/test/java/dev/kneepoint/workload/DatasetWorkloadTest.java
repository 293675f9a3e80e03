package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.request.RequestSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetWorkloadTest {
    @TempDir
    Path dir;

    private Path write(String... lines) throws Exception {
        Path f = dir.resolve("d.jsonl");
        Files.writeString(f, String.join("\n", lines) + "\n");
        return f;
    }

    @Test
    void readsAllThreeShapesWithTheirOptionalFields() throws Exception {
        Path f = write(
                "{\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":\"hi\"},"
                        + "{\"role\":\"assistant\",\"content\":\"dropped\"}],\"output_tokens\":7,\"tag\":\"t1\"}",
                "",
                "{\"conversations\":[{\"from\":\"human\",\"value\":\"q1\"},{\"from\":\"gpt\",\"value\":\"a1\"},"
                        + "{\"from\":\"human\",\"value\":\"q2\"}]}",
                "{\"prompt\":\"plain é\",\"prompt_tokens\":12,\"max_tokens\":3}");
        try (DatasetWorkload w = Workloads.dataset(f).outputTokens(Lengths.fixed(99)).build()) {
            assertThat(w.size()).isEqualTo(3);
            RequestSpec a = w.next(0);
            assertThat(a.messages()).extracting(RequestSpec.ChatMessage::role).containsExactly("system", "user");
            assertThat(a.maxTokens()).isEqualTo(7);
            assertThat(a.extraBody()).containsEntry("ignore_eos", true).containsEntry("min_tokens", 7);
            assertThat(a.tag()).isEqualTo("t1");
            RequestSpec b = w.next(1);
            assertThat(b.messages()).extracting(RequestSpec.ChatMessage::content).containsExactly("q1", "a1", "q2");
            assertThat(b.prompt()).isEqualTo("q2");
            assertThat(b.maxTokens()).isEqualTo(99);
            assertThat(b.tag()).isEqualTo("dataset");
            RequestSpec c = w.next(2);
            assertThat(c.prompt()).isEqualTo("plain é");
            assertThat(c.messages()).isEmpty();
            assertThat(c.requestedPromptTokens()).isEqualTo(12);
            assertThat(w.next(3).maxTokens()).isEqualTo(7); // cycles (salted: see below)
            assertThat(w.outputLengths().describe()).contains("n=2");
        }
        try (DatasetWorkload w = Workloads.dataset(f).outputTokens(Lengths.fixed(99)).noSalt().build()) {
            assertThat(w.next(3)).isEqualTo(w.next(0)); // unsalted repeats are the records as they are
            assertThat(w.describe()).containsEntry("repeats_salted", false).doesNotContainKey("salt");
        }
    }

    @Test
    void repeatsAreSaltedAfterTheSystemPromptAndTheFirstPassIsTheFileAsItIs() throws Exception {
        Path f = write(
                "{\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},{\"role\":\"user\",\"content\":\"hi\"}]}",
                "{\"prompt\":\"plain\"}");
        try (DatasetWorkload w = Workloads.dataset(f).salt(7).build();
             DatasetWorkload again = Workloads.dataset(f).salt(7).build();
             DatasetWorkload other = Workloads.dataset(f).build()) {
            assertThat(w.next(0).messages()).extracting(RequestSpec.ChatMessage::content).containsExactly("be brief", "hi");
            assertThat(w.next(1).prompt()).isEqualTo("plain");
            RequestSpec second = w.next(2); // record 0 again
            assertThat(second.messages().get(0).content()).isEqualTo("be brief"); // a shared system prompt stays shared
            assertThat(second.messages().get(1).content()).endsWith(" hi").isNotEqualTo("hi");
            RequestSpec third = w.next(4);
            assertThat(third.messages().get(1).content()).endsWith(" hi")
                    .isNotEqualTo(second.messages().get(1).content()); // each repeat its own salt
            assertThat(w.next(3).prompt()).endsWith(" plain").isNotEqualTo("plain");
            assertThat(again.next(2)).isEqualTo(second); // the same salt: the same requests
            assertThat(other.next(2)).isNotEqualTo(second); // a fresh salt per build
            assertThat(w.describe()).containsEntry("repeats_salted", true).containsEntry("salt", "7");
        }
    }

    @Test
    void aRequiredFormatRefusesLinesOfAnotherShapeWithTheirNumbers() throws Exception {
        Path f = write("{\"prompt\":\"a\"}", "{\"messages\":[{\"role\":\"user\",\"content\":\"b\"}]}");
        assertThatThrownBy(() -> Workloads.dataset(f).format(DatasetWorkload.Format.OPENAI).build())
                .hasMessageContaining("line 1").hasMessageContaining("no 'messages' field, which the openai format needs");
        try (DatasetWorkload w = Workloads.dataset(f).format(DatasetWorkload.Format.parse("any")).build()) {
            assertThat(w.size()).isEqualTo(2);
        }
        assertThatThrownBy(() -> DatasetWorkload.Format.parse("csv")).hasMessageContaining("openai, sharegpt or prompts");
    }

    @Test
    void malformedLinesAreAllReportedWithLineNumbers() throws Exception {
        Path f = write(
                "{\"prompt\":\"ok\"}",
                "{\"prompt\":",
                "{\"messages\":[]}",
                "{\"prompt\":\"x\",\"output_tokens\":-4}",
                "[1,2]",
                "{\"conversations\":[{\"from\":\"robot\",\"value\":\"x\"}]}",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"q\"},{\"role\":\"system\",\"content\":\"s\"}]}");
        assertThatThrownBy(() -> Workloads.dataset(f).build())
                .isInstanceOf(DatasetException.class)
                .hasMessageStartingWith(f + ": 6 malformed lines")
                .hasMessageContaining("line 2: not valid JSON")
                .hasMessageContaining("line 3: 'messages' must be a non-empty list")
                .hasMessageContaining("line 4: 'output_tokens' must be a positive integer")
                .hasMessageContaining("line 5: expected a JSON object")
                .hasMessageContaining("line 6: conversations[0].from 'robot'")
                .hasMessageContaining("line 7: no user message")
                .satisfies(e -> assertThat(((DatasetException) e).problems()).extracting(DatasetException.Problem::line)
                        .containsExactly(2L, 3L, 4L, 5L, 6L, 7L));
        try (DatasetWorkload w = Workloads.dataset(f).lenient().build()) {
            assertThat(w.size()).isEqualTo(1);
            assertThat(w.skipped()).hasSize(6);
            assertThat(w.describe().get("skipped_lines")).isEqualTo(List.of(2L, 3L, 4L, 5L, 6L, 7L));
        }
    }

    @Test
    void shuffleIsAPermutationWithinEachWindowAndDiffersByCycle() throws Exception {
        String[] lines = new String[103];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = "{\"prompt\":\"p" + i + "\"}";
        }
        try (DatasetWorkload w = Workloads.dataset(write(lines)).shuffle(10).seed(5).build()) {
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < 103; i++) {
                int r = w.recordOf(i);
                assertThat(r / 10).as("record %d stays in its window", i).isEqualTo(i / 10);
                seen.add(r);
            }
            assertThat(seen).hasSize(103);
            boolean moved = false;
            boolean cycleDiffers = false;
            for (int i = 0; i < 103; i++) {
                moved |= w.recordOf(i) != i;
                cycleDiffers |= w.recordOf(i) != w.recordOf(i + 103);
            }
            assertThat(moved).isTrue();
            assertThat(cycleDiffers).isTrue();
            assertThat(w.next(40).prompt()).isEqualTo("p" + w.recordOf(40));
        }
    }

    @Test
    void missingFileAndBadSettingsAreReportedTogether() {
        assertThatThrownBy(() -> Workloads.dataset(dir.resolve("nope.jsonl")).shuffle(0).tag("").build())
                .hasMessageContaining("3 problems").hasMessageContaining("does not exist")
                .hasMessageContaining("shuffle window").hasMessageContaining("tag");
    }

    @Test
    void shippedDatasetsParseWithTheirDocumentedCounts() {
        Path root = Path.of("..", "datasets");
        for (var e : java.util.Map.of("chat.jsonl", 200, "long_doc_qa.jsonl", 50, "code_context.jsonl", 50,
                "multi_turn.jsonl", 50).entrySet()) {
            try (DatasetWorkload w = Workloads.dataset(root.resolve(e.getKey())).build()) {
                assertThat(w.size()).as(e.getKey()).isEqualTo(e.getValue());
                assertThat(w.next(0).maxTokens()).isPositive();
            }
        }
        try (DatasetWorkload mt = Workloads.dataset(root.resolve("multi_turn.jsonl")).build()) {
            assertThat(mt.next(0).messages().size()).isGreaterThanOrEqualTo(3);
            assertThat(mt.next(0).tag()).isEqualTo("multi-turn");
        }
    }
}
