package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kneepoint run --cancel-rate SHARE --cancel-after DURATION}: users who give up, and the errors. */
class AbandonOptionsTest {
    @TempDir
    Path out;

    @Test
    void runGivesUpEveryRequestAndSaysSoWithoutCallingItAFailure() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            // exit 4 (some step had no successful request) would mean the abandoned ones counted against it: they
            // are neither OK nor failed, and a step of only those measured nothing, which the code says
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "2", "--max-requests", "4", "--warmup", "0s", "--output-tokens", "200",
                    "--cancel-rate", "1", "--cancel-after", "30ms", "--no-telemetry", "--no-client-warmup",
                    "--out", out.toString(), "--name", "giveup"), System.out, 4);
            assertThat(printed).contains("4 requests in c=2 were abandoned by the workload mid-request");
            assertThat(printed).doesNotContain("failures in c=2");
        }
    }

    @Test
    void oneWithoutTheOtherIsRefused() throws Exception {
        String err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--cancel-rate", "0.1", "--out", out.toString()), System.err, 2);
        assertThat(err).contains("--cancel-rate needs one of --cancel-after DURATION or --cancel-after-tokens N");
    }
}
