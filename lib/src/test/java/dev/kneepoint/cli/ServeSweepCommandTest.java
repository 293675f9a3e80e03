package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kneepoint serve-sweep} from the command line: the bad inputs refused before any server starts, servers that
 * die or never get ready (shell one-liners), and one end-to-end sweep over two simulators, each a child JVM.
 */
class ServeSweepCommandTest {
    @TempDir
    Path out;

    private static List<String> args(String... a) {
        return new ArrayList<>(List.of(a));
    }

    private String err(int code, List<String> a) throws Exception {
        return Captured.run(() -> Main.execute(a.toArray(String[]::new)), System.err, code);
    }

    private String outOf(int code, List<String> a) throws Exception {
        return Captured.run(() -> Main.execute(a.toArray(String[]::new)), System.out, code);
    }

    private List<String> sweep(String serve, String... params) {
        List<String> a = args("serve-sweep", "--serve", serve, "--out", out.toString(), "--name", "t");
        for (String p : params) {
            a.addAll(List.of("--param", p));
        }
        return a;
    }

    @Test
    void badInputsAreRefusedBeforeAnyServerStarts() throws Exception {
        assertThat(err(2, sweep("srv --port {port} -np {parallel}", "parallel="))).contains(
                "--param parallel has no values: list them after '=', e.g. --param parallel=1,2,4");
        assertThat(err(2, sweep("srv --port {port} -c {ctx}", "parallel=1,2"))).contains(
                "--serve uses {ctx}, but no --param gives its values").contains("--param parallel is not used");
        List<String> withUrl = sweep("srv --port {port} -np {parallel}", "parallel=1");
        withUrl.addAll(List.of("--", "--model", "m", "--url", "http://h", "--concurrency", "1"));
        assertThat(err(2, withUrl)).contains("after --, leave out --url");
        List<String> badRun = sweep("srv --port {port} -np {parallel}", "parallel=1");
        badRun.addAll(List.of("--", "--model", "m", "--concurrency", "0"));
        assertThat(err(2, badRun)).contains("concurrency must be >= 1");
        List<String> unknown = sweep("srv --port {port} -np {parallel}", "parallel=1");
        unknown.addAll(List.of("--", "--model", "m", "--concurency", "1"));
        assertThat(err(2, unknown)).contains("the run options after --").contains("--concurency");
        List<String> twice = sweep("srv --port {port} -np {parallel}", "parallel=1");
        twice.addAll(List.of("--repeat", "2", "--", "--model", "m", "--repeat", "3", "--label", "parallel=9"));
        assertThat(err(2, twice)).contains("--repeat is given both before and after --")
                .contains("--label parallel=9 clashes with --param parallel");
        assertThat(out.resolve("t-serve-sweep")).doesNotExist();
    }

    @Test
    @Timeout(60)
    void aServerThatDiesOrNeverGetsReadyFailsItsConfigAndTheSweepGoesOn() throws Exception {
        List<String> a = sweep("sh -c 'echo boom {x}; exit {x}' {port}", "x=5,6");
        a.addAll(List.of("--", "--model", "m", "--concurrency", "1"));
        String printed = outOf(3, a);
        assertThat(printed).contains("x-5: FAILED: the server exited (code 5)").contains("boom 5")
                .contains("x-6: FAILED: the server exited (code 6)").contains("boom 6");
        JsonNode index = new ObjectMapper().readTree(out.resolve("t-serve-sweep").resolve("serve-sweep.json").toFile());
        assertThat(index.path("configs")).extracting(c -> c.path("status").asText()).containsExactly("failed", "failed");

        List<String> slow = sweep("sh -c 'sleep 30' {port} {x}", "x=1");
        slow.addAll(List.of("--ready-timeout", "1s", "--", "--model", "m", "--concurrency", "1"));
        long t0 = System.nanoTime();
        assertThat(outOf(3, slow)).contains("x-1: FAILED: the server was not ready within 1 s")
                .contains("raise --ready-timeout");
        // 1 s of waiting plus the SIGTERM: well under the 30 s the server would have slept
        assertThat((System.nanoTime() - t0) / 1e9).isLessThan(15);
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).isZero();
    }

    /** Two simulators as child JVMs (the java launcher and classpath of this test), 1 and 2 slots, two short steps. */
    @Test
    @Timeout(180)
    void sweepsTwoSimulatorChildProcessesEndToEnd() throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        String serve = "'" + java + "' -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path")
                + "' dev.kneepoint.cli.Main sim --preset fast --port {port} --max-num-seqs {slots}";
        List<String> a = sweep(serve, "slots=1,2");
        a.addAll(List.of("--ready-timeout", "90s", "--", "--model", "sim-fast", "--concurrency", "1,2",
                "--input-tokens", "32", "--output-tokens", "8", "--duration", "1s", "--warmup", "200ms",
                "--no-client-warmup", "--price-per-hour", "3"));
        String printed = outOf(0, a);
        assertThat(printed).contains("== Server-config sweep").contains("peak out_tok/s").contains("$/Mtok out");
        Path folder = out.resolve("t-serve-sweep");
        JsonNode index = new ObjectMapper().readTree(folder.resolve("serve-sweep.json").toFile());
        assertThat(index.path("configs")).extracting(c -> c.path("config").asText()).containsExactly("slots-1", "slots-2");
        assertThat(index.path("configs")).extracting(c -> c.path("status").asText()).containsExactly("complete", "complete");
        for (JsonNode c : index.path("configs")) {
            Path run = folder.resolve(c.path("run_directory").asText());
            assertThat(run.resolve("analysis.json")).isNotEmptyFile();
            assertThat(run.getFileName().toString()).endsWith("-" + c.path("config").asText());
            assertThat(folder.resolve(c.path("server_log").asText())).content().contains("simulator 'fast' serving");
        }
        assertThat(folder.resolve("serve-sweep.csv")).content().contains("slots-1").contains("slots-2");
        assertThat(Files.readAllBytes(folder.resolve("serve-sweep.png"))).startsWith(0x89, 'P', 'N', 'G');
        assertThat(ProcessHandle.current().children().filter(ProcessHandle::isAlive).count()).isZero();

        List<String> again = new ArrayList<>(a);
        again.add(again.indexOf("--"), "--resume");
        assertThat(outOf(0, again)).contains("slots-1: complete in an earlier invocation").contains("slots-2: complete "
                + "in an earlier invocation").doesNotContain("waiting until ready");
    }
}
