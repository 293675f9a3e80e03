package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A planted API key never shows: not in what {@code bin/kneepoint run} prints (stdout and stderr, its
 * "log"), not in any file of the run directory, not in the error of a bad configuration, not in
 * {@code TargetConfig}'s or the client's {@code toString}. (Outcome details of a server that echoes the key:
 * {@code FaultMatrixTest}; notebook outputs and the kernel's log: {@code kernel/src/test/python/test_secrets.py}.)
 */
class SecretsTest {
    private static final String KEY = "sk-kneepoint-planted-" + Long.toHexString(System.nanoTime());

    @TempDir
    Path tmp;

    @Test
    void theCliNeverPrintsNorWritesTheKey() throws Exception {
        Path keyFile = Files.writeString(tmp.resolve("key.txt"), KEY + "\n");
        Path out = tmp.resolve("runs");
        String printed;
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            printed = capture(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--api-key-file", keyFile.toString(), "--header", "X-Api-Key=" + KEY, "--concurrency", "1",
                    "--input-tokens", "8", "--output-tokens", "4", "--duration", "300ms", "--warmup", "0s",
                    "--out", out.toString(), "--name", "keyed"));
        }
        assertThat(printed).contains("c=1").doesNotContain(KEY);
        int files = 0;
        try (Stream<Path> all = Files.walk(out)) {
            for (Path f : all.filter(Files::isRegularFile).toList()) {
                files++;
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1))
                        .as("planted key in " + f.getFileName()).doesNotContain(KEY);
            }
        }
        assertThat(files).isGreaterThanOrEqualTo(5);
        // a bad option next to the key: the error names the problem, not the key
        String failed = capture(() -> Main.execute("run", "--url", "not a url", "--model", "m",
                "--api-key-file", keyFile.toString(), "--header", "Authorization=Bearer " + KEY,
                "--concurrency", "1", "--out", out.toString()));
        assertThat(failed).contains("not a url").doesNotContain(KEY);
    }

    @Test
    void configurationErrorsAndToStringNeverShowTheKey() throws Exception {
        Path keyFile = Files.writeString(tmp.resolve("key.txt"), KEY + "\n");
        assertThatThrownBy(() -> Kneepoint.targetBuilder().baseUrl("nope nope").model(" ").apiKeyFromFile(keyFile)
                .header("Authorization", "Bearer " + KEY).maxEventBytes(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 problems")
                .message().doesNotContain(KEY);
        TargetConfig t = Kneepoint.targetBuilder().baseUrl("http://127.0.0.1:9").model("m").apiKeyFromFile(keyFile)
                .header("Authorization", "Bearer " + KEY).build();
        assertThat(t.toString()).doesNotContain(KEY).contains("<redacted>").contains("file:");
        assertThat(t.describe().toString()).doesNotContain(KEY);
        try (StreamingClient c = new StreamingClient(t)) {
            assertThat(c.toString()).doesNotContain(KEY);
        }
        // a sweep's validation error (bad load settings) with the keyed target
        assertThatThrownBy(() -> Kneepoint.ladder(t, 0).run()).message().doesNotContain(KEY);
    }

    private interface Action {
        int run() throws Exception;
    }

    /** stdout and stderr together. */
    private static String capture(Action action) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        try {
            PrintStream p = new PrintStream(buf, true, StandardCharsets.UTF_8);
            System.setOut(p);
            System.setErr(p);
            action.run();
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }
}
