package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Datasets are data: prompts that look like code for every layer that could run code (JShell, a notebook
 * magic, a shell, a template or lookup engine, Jackson's polymorphic type hints) are read as text, kept
 * byte for byte, and nothing in them runs: the marker file each one would create never appears.
 */
class DatasetIsDataTest {
    @TempDir
    Path dir;

    @Test
    void promptsThatLookLikeCodeStayText() throws Exception {
        Path marker = dir.resolve("executed");
        String m = marker.toString();
        List<String> prompts = List.of(
                "java.nio.file.Files.createFile(java.nio.file.Path.of(\"" + m + "\"));",
                "%%time\njava.nio.file.Files.createFile(java.nio.file.Path.of(\"" + m + "\"));",
                "%jars " + m,
                "$(touch " + m + ") `touch " + m + "`",
                "${jndi:ldap://127.0.0.1/" + m + "} {{ touch('" + m + "') }} #{T(java.lang.Runtime)}");
        StringBuilder jsonl = new StringBuilder();
        com.fasterxml.jackson.databind.ObjectMapper mapper = new com.fasterxml.jackson.databind.ObjectMapper();
        for (String p : prompts) {
            jsonl.append(mapper.writeValueAsString(java.util.Map.of("prompt", p))).append('\n');
        }
        // a polymorphic type hint, as an attacker would write it for a mapper with default typing on
        jsonl.append("{\"prompt\":\"typed\",\"@class\":\"java.lang.ProcessBuilder\",")
                .append("\"extra\":[\"java.lang.ProcessBuilder\",{\"command\":[\"touch\",")
                .append(mapper.writeValueAsString(m)).append("]}]}\n");
        Path f = Files.writeString(dir.resolve("code.jsonl"), jsonl.toString());

        try (DatasetWorkload w = Workloads.dataset(f).outputTokens(Lengths.fixed(4)).build()) {
            assertThat(w.size()).isEqualTo(prompts.size() + 1);
            for (int i = 0; i < prompts.size(); i++) {
                assertThat(w.next(i).prompt()).as("prompt %d kept byte for byte", i).isEqualTo(prompts.get(i));
            }
            assertThat(w.next(prompts.size()).prompt()).isEqualTo("typed");
        }
        assertThat(marker).as("nothing in the dataset ran").doesNotExist();
    }
}
