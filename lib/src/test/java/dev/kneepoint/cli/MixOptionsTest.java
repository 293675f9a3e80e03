package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kneepoint run --mix TAG=WEIGHT:IN/OUT,...}: mixed traffic, and the errors. */
class MixOptionsTest {
    @TempDir
    Path out;

    @Test
    void runSendsEachClassWithItsTagAndLengthsAndSaysSo() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "2", "--max-requests", "24", "--warmup", "0s", "--mix", "chat=2:24/3,rag=1:96/2",
                    "--no-telemetry", "--no-client-warmup", "--out", out.toString(), "--name", "mixed"), System.out, 0);
            assertThat(printed).contains("a mix of synthetic prompts: chat 67 % (24 in, 3 out), rag 33 % (96 in, 2 out)");
            Path dir;
            try (Stream<Path> l = Files.list(out)) {
                dir = l.filter(Files::isDirectory).findFirst().orElseThrow();
            }
            assertThat(RunLoader.load(dir).records()).hasSize(24).allSatisfy(r -> {
                assertThat(r.isOk()).isTrue();
                assertThat(r.tag()).isIn("chat", "rag");
                assertThat(r.tokens().promptTokens()).isEqualTo(r.tag().equals("rag") ? 96 : 24);
            }).extracting(RequestRecord::tag).contains("chat", "rag");
        }
    }

    @Test
    void badClassesAndConflictsAreRefusedNamingTheForm() throws Exception {
        String bad = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--mix", "chat=0.7:128", "--out", out.toString()), System.err, 2);
        assertThat(bad).contains("--mix takes TAG=WEIGHT:IN/OUT[,...], e.g. --mix chat=0.7:128/256,rag=0.3:2048/64; "
                + "got 'chat=0.7:128'");
        String conflict = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--mix", "chat=1:128/16", "--input-tokens", "64", "--out", out.toString()),
                System.err, 2);
        assertThat(conflict).contains("--mix gives each class its own prompts and lengths: it does not combine with "
                + "--input-tokens");
        String weight = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--mix", "chat=x:128/16", "--out", out.toString()), System.err, 2);
        assertThat(weight).contains("WEIGHT a number");
    }
}
