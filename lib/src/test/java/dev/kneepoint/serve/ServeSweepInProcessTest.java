package dev.kneepoint.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.serve.ServeSweepIndex.Entry;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * The sweep engine with in-process simulators as the servers and the library's sweep as the runner: the index, the
 * table read from each run's analysis.json, a server that dies before it is ready, and --resume.
 */
class ServeSweepInProcessTest {
    private static final double PRICE_PER_HOUR = 2.0;
    @TempDir
    Path out;
    private final List<String> started = new CopyOnWriteArrayList<>();
    private volatile boolean slots3Dies = true;

    /** Simulators with {@code slots} sequences; slots=3 "dies" (exit code 1) before it is ready while slots3Dies. */
    private final ServerLauncher sims = (config, port, log) -> {
        String slots = config.params().get("slots");
        started.add(slots);
        if (slots.equals("3") && slots3Dies) {
            Files.writeString(log, "loading model\nerror: cannot allocate the KV cache\n");
            return running("dead", OptionalInt.of(1), () -> { });
        }
        Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").port(port).maxNumSeqs(Integer.parseInt(slots))
                .build());
        return running("sim slots=" + slots, OptionalInt.empty(), sim::close);
    };

    private static ServerLauncher.Running running(String what, OptionalInt exit, Runnable stop) {
        return new ServerLauncher.Running() {
            @Override
            public OptionalInt exitCode() {
                return exit;
            }

            @Override
            public String description() {
                return what;
            }

            @Override
            public void close() {
                stop.run();
            }
        };
    }

    private final ConfigRunner runner = new ConfigRunner() {
        @Override
        public TargetConfig target(String url) {
            return Kneepoint.targetBuilder().baseUrl(url).model("sim-fast").build();
        }

        @Override
        public Finished run(String url, String name, Map<String, String> labels, Path runOut) {
            var sweep = Kneepoint.sweep(target(url)).concurrency(1, 4).stepDuration(Duration.ofMillis(500))
                    .warmup(Duration.ofMillis(100)).inputTokens(32).outputTokens(8).clientWarmup(false)
                    .slo(Slo.builder().ttftMs(10_000).build()).cost(1, PRICE_PER_HOUR).outputDir(runOut).name(name);
            labels.forEach(sweep::label);
            RunResult r = sweep.run();
            Path dir = r.directory().orElseThrow();
            RunReport.write(dir);
            return new Finished(dir, r.complete() ? 0 : 3);
        }
    };

    private ServeSweep.Result sweep(boolean resume) throws Exception {
        ServeSweep.Plan plan = new ServeSweep.Plan("slots", out, "sim --max-num-seqs {slots} --port {port}",
                List.of(ServeParam.parse("slots=1,2,3")), List.of("--concurrency", "1,4"), Duration.ofSeconds(20), resume);
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        return ServeSweep.run(plan, sims, runner, new PrintStream(console, true, StandardCharsets.UTF_8));
    }

    @Test
    void eachConfigIsMeasuredTheDeadOneRecordedAndResumeRerunsOnlyIt() throws Exception {
        ServeSweep.Result first = sweep(false);
        Path folder = out.resolve("slots-serve-sweep").toAbsolutePath();
        assertThat(first.folder()).isEqualTo(folder);
        assertThat(started).containsExactly("1", "2", "3");
        assertThat(first.entries()).extracting(Entry::status).containsExactly(ServeSweepIndex.Status.COMPLETE,
                ServeSweepIndex.Status.COMPLETE, ServeSweepIndex.Status.FAILED);
        Entry dead = first.entries().get(2);
        assertThat(dead.reason()).contains("the server exited (code 1) before it answered GET /health")
                .contains("cannot allocate the KV cache").contains("run its command line by hand");
        assertThat(dead.runDirectory()).isNull();
        assertThat(first.allComplete()).isFalse();

        JsonNode index = new ObjectMapper().readTree(folder.resolve(ServeSweepIndex.FILE).toFile());
        assertThat(index.path("params").path("slots")).extracting(JsonNode::asText).containsExactly("1", "2", "3");
        assertThat(index.path("configs")).extracting(c -> c.path("status").asText())
                .containsExactly("complete", "complete", "failed");
        for (int i = 0; i < 2; i++) {
            Path runDir = folder.resolve(first.entries().get(i).runDirectory());
            assertThat(runDir.getParent().getFileName().toString()).isEqualTo("slots-" + (i + 1));
            JsonNode manifest = new ObjectMapper().readTree(runDir.resolve("manifest.json").toFile());
            assertThat(manifest.findValue("labels").path("slots").asText()).isEqualTo(String.valueOf(i + 1));
            checkRow(first.table().rows().get(i), runDir);
        }

        Table csv = Table.read().csv(folder.resolve(ServeSweepTable.CSV).toFile());
        assertThat(csv.rowCount()).isEqualTo(3);
        assertThat(csv.columnNames()).startsWith("config", "slots", "status", "peak_output_tokens_per_s");
        assertThat(Files.readAllBytes(folder.resolve(ServeSweepTable.CHART))).startsWith(0x89, 'P', 'N', 'G');
        assertThat(first.table().chart().getSeriesMap()).containsOnlyKeys("slots-1", "slots-2");
        String text = first.table().text();
        assertThat(text).contains("peak out_tok/s").contains("max sustainable").contains("$/Mtok out")
                .doesNotContain("SLO capacity").contains("slots-3: the server exited (code 1)");

        slots3Dies = false;
        started.clear();
        ServeSweep.Result second = sweep(true);
        assertThat(started).containsExactly("3");
        assertThat(second.entries()).extracting(Entry::resumed).containsExactly(true, true, false);
        assertThat(second.entries().get(0).runDirectory()).isEqualTo(first.entries().get(0).runDirectory());
        assertThat(second.allComplete()).isTrue();
        assertThat(second.table().text()).contains("slots-1 (resumed)");
        assertThat(Files.readString(folder.resolve("slots-3").resolve(ServeSweep.SERVER_LOG)))
                .contains("cannot allocate the KV cache");
    }

    /** The row's figures against the run's own steps.csv: the peak is its largest output tok/s, $/Mtok the price's. */
    private static void checkRow(ServeSweepTable.Row row, Path runDir) throws Exception {
        Table steps = Table.read().csv(runDir.resolve("steps.csv").toFile());
        double peak = steps.numberColumn("output_tokens_per_s").max();
        // steps.csv rounds to a few decimals; analysis.json keeps full precision: 0.1 % covers the rounding.
        assertThat(row.peakOutputTokS()).isCloseTo(peak, within(peak * 1e-3));
        assertThat(row.maxSustainable()).isEqualTo(4.0); // a 10 s TTFT SLO holds at every load
        assertThat(row.costStep()).isEqualTo("c=4");
        double tokS = steps.where(steps.stringColumn("step").isEqualTo("c=4")).numberColumn("output_tokens_per_s").get(0)
                .doubleValue();
        double expected = PRICE_PER_HOUR / 3600 / tokS * 1e6;
        assertThat(row.usdPerMtok()).isCloseTo(expected, within(expected * 1e-3));
    }
}
