package dev.kneepoint.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code bench} option combinations that are refused before anything runs (exit code 2, the fix named). */
class BenchAllCommandLineTest {

    private static String refused(String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
        int rc;
        try {
            rc = Main.execute(args);
        } finally {
            System.setErr(err);
        }
        assertThat(rc).isEqualTo(2);
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void allOnlyOptionsNeedAll() {
        assertThat(refused("bench", "--quick", "--keep")).contains("--quick, --keep only go with --all");
    }

    @Test
    void clientSizesDoNotGoWithAll() {
        assertThat(refused("bench", "--all", "--only", "streams", "--seconds", "3"))
                .contains("drop --only, --seconds").contains("without --all");
    }

    @Test
    void unknownPartsAreNamed() {
        assertThat(refused("bench", "--all", "--parts", "client,gpu")).contains("'gpu'").contains("client, sim, kernel, analysis");
    }
}
