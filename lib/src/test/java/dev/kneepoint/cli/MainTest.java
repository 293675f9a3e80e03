package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line end to end: {@code run} writes a run directory that {@code analyze} reads back. */
class MainTest {
    @TempDir
    Path out;

    @Test
    void runPrintsTheSummaryAndAnalyzeReloadsTheRunDirectory() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            for (String name : List.of("cli", "second")) {
                String printed = capture(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                        "--concurrency", "1,2", "--input-tokens", "32", "--output-tokens", "8", "--duration", "600ms",
                        "--warmup", "100ms", "--out", out.toString(), "--name", name), 0);
                assertThat(printed).contains("c=1").contains("c=2").contains("out_tok/s").doesNotContain("INCOMPLETE");
            }
        }
        List<Path> dirs;
        try (Stream<Path> list = Files.list(out)) {
            dirs = list.sorted(java.util.Comparator.comparing((Path p) -> !p.toString().endsWith("-cli"))).toList();
        }
        assertThat(dirs).hasSize(2);
        assertThat(dirs.get(0).getFileName().toString()).endsWith("-cli");
        for (String f : List.of("manifest.json", "requests.jsonl", "summary.json", "steps.jsonl", "report.txt",
                "steps.csv", "analysis.json", "knee.png", "latency_vs_load.png", "ttft_cdf.png", "timeseries.png", "interactivity.png")) {
            assertThat(dirs.get(0).resolve(f)).isNotEmptyFile();
        }
        assertThat(Files.readAllBytes(dirs.get(0).resolve("knee.png"))).startsWith(0x89, 'P', 'N', 'G');
        assertThat(dirs.get(0).resolve("report.txt")).content().contains("c=2").contains("Readings:");
        var analysis = new com.fasterxml.jackson.databind.ObjectMapper().readTree(dirs.get(0).resolve("analysis.json")
                .toFile());
        assertThat(analysis.get("steps")).extracting(x -> x.get("step").asText()).containsExactly("c=1", "c=2");
        assertThat(analysis.get("readings")).hasSize(8);
        String analyzed = capture(() -> Main.execute("analyze", dirs.get(0).toString(), dirs.get(1).toString()), 0);
        assertThat(analyzed).contains("c=1").contains("c=2").contains("== Comparison against");
        importGpuAddsAServerHostLog(dirs.get(1));
        assertThat(dirs.get(0).resolve("comparison.csv")).isNotEmptyFile();
        // --min-effect 50: every percentile row's practical threshold is half its baseline (CSV: 0.5 x baseline).
        capture(() -> Main.execute("analyze", "--min-effect", "50", dirs.get(0).toString(), dirs.get(1).toString()), 0);
        var t = tech.tablesaw.api.Table.read().csv(dirs.get(0).resolve("comparison.csv").toFile());
        var rows = t.where(t.stringColumn("metric").isEqualTo("e2e_p50_ms"));
        assertThat(rows.rowCount()).isEqualTo(2);
        for (int i = 0; i < rows.rowCount(); i++) {
            // CSV round trip of doubles: 1e-9 relative is far below any formatting loss Tablesaw introduces.
            assertThat(rows.numberColumn("min_effect").getDouble(i))
                    .isCloseTo(0.5 * rows.numberColumn("baseline").getDouble(i), org.assertj.core.api.Assertions.within(1e-6));
        }
    }

    @Test
    void badOptionsFailWithAClearMessageAndExitCode2() throws Exception {
        assertThat(errOf(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--concurrency", "0",
                "--duration", "0s", "--out", out.toString()))).contains("concurrency must be >= 1")
                .contains("stepDuration must be positive");
    }

    @Test
    void aDeadTargetStopsBeforeTheFirstStepWithExitCode2() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port;
        String err = errOf(() -> Main.execute("run", "--url", url, "--model", "m", "--concurrency", "1,2",
                "--duration", "1s", "--warmup", "0s", "--out", out.toString()));
        assertThat(err).contains("kneepoint: preflight failed: cannot connect to 127.0.0.1:" + port)
                .contains("Check --url");
        try (var dirs = java.nio.file.Files.list(out)) {
            assertThat(dirs.toList()).as("nothing measured, no run directory").isEmpty();
        }
        // Without the preflight the run measures the failures, and says by its exit code that no step succeeded.
        String printed = capture(() -> Main.execute("run", "--url", url, "--model", "m", "--concurrency", "1",
                "--duration", "300ms", "--warmup", "0s", "--no-preflight", "--no-client-warmup",
                "--out", out.toString()), ExitCodes.NO_SUCCESS);
        assertThat(printed).contains("CONNECTION_ERROR");
    }

    @Test
    void aZeroTimeoutFailsWithAClearMessageAndExitCode2() throws Exception {
        assertThat(errOf(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--concurrency", "1",
                "--timeout-idle", "0s", "--out", out.toString()))).contains("--timeout-idle must be a positive duration");
    }

    @Test
    void anUnknownApiIsRejectedListingTheValidOnes() throws Exception {
        assertThat(errOf(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--concurrency", "1",
                "--api", "triton", "--out", out.toString()))).contains("--api: unknown API 'triton'")
                .contains("chat, completions, tgi, ollama-generate, ollama-chat, llamacpp, sglang");
    }

    @Test
    void lengthsMayBeDrawnPerRequestAndBadOnesAreNamed() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = capture(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "4", "--input-tokens", "normal:32,6", "--output-tokens", "uniform:4..12",
                    "--gpus", "2", "--price-per-hour", "3.6", "--label", "gpu=none", "--label", "config=test",
                    "--duration", "800ms", "--warmup", "0s", "--out", out.toString(), "--name", "lengths"), 0);
            assertThat(printed).contains("answers of uniform(4..12) tokens")
                    .contains("Server: simulator kneepoint-sim; model sim-fast; context 8192 tokens; labels config=test, gpu=none.");
            // $3.60 an hour is $0.001 a second; the table prints per step what a million tokens cost.
            assertThat(printed).contains("Cost and energy (2 GPU(s), given; $3.60 per hour for the deployment");
            // The console is brief: the readings that apply by finding; report.txt keeps the evidence.
            assertThat(printed).contains("Readings that apply:").contains("report.txt, or --verbose")
                    .doesNotContain("Evidence:");
        }
        Path dir;
        try (Stream<Path> list = Files.list(out)) {
            dir = list.findFirst().orElseThrow();
        }
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        java.util.Set<Integer> asked = new java.util.TreeSet<>();
        java.util.Set<Integer> prompts = new java.util.TreeSet<>();
        for (String line : Files.readAllLines(dir.resolve("requests.jsonl"))) {
            var r = json.readTree(line);
            asked.add(r.path("requested_output_tokens").asInt());
            prompts.add(r.path("requested_prompt_tokens").asInt());
            // ignore_eos: the simulator answers exactly the budget drawn for the request
            if ("OK".equals(r.path("outcome").asText())) {
                assertThat(r.path("output_tokens").asInt()).isEqualTo(r.path("requested_output_tokens").asInt());
            }
        }
        // Dozens of requests over 9 possible budgets: most of them are drawn, all within [4, 12].
        assertThat(asked).hasSizeGreaterThanOrEqualTo(5).allMatch(n -> n >= 4 && n <= 12);
        assertThat(prompts).hasSizeGreaterThanOrEqualTo(5);
        assertThat(json.readTree(dir.resolve("manifest.json").toFile()).at("/config/workload/output_tokens").asText())
                .isEqualTo("uniform(4..12)");
        assertThat(dir.resolve("report.txt")).content().contains("Readings:").contains("Evidence:");
        var analysis = json.readTree(dir.resolve("analysis.json").toFile());
        var step = json.readTree(dir.resolve("analysis.json").toFile()).at("/efficiency/steps/0");
        double outPerS = loadedOutputRate(dir);
        assertThat(analysis.at("/efficiency/gpus").asInt()).isEqualTo(2);
        assertThat(dir.resolve("pareto.png")).isNotEmptyFile();
        assertThat(step.get("usd_per_mtok_output").asDouble()).isCloseTo(3.6 / 3600 / outPerS * 1e6,
                org.assertj.core.api.Assertions.within(1e-9));
        assertThat(step.get("joules_per_output_token").isNull()).isTrue();
        assertThat(capture(() -> Main.execute("analyze", "--verbose", dir.toString()), 0)).contains("Evidence:");
        assertThat(errOf(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--concurrency", "1",
                "--output-tokens", "uniform:12-4", "--out", out.toString())))
                .contains("--output-tokens").contains("uniform needs MIN..MAX").contains("e.g. 128 or uniform:32..96");
    }

    @Test
    void anSloSearchRunsFromTheCommandLine() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = capture(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--slo-search", "concurrency", "--slo-ttft", "2s", "--slo-max-probes", "2", "--input-tokens", "16",
                    "--output-tokens", "8", "--duration", "500ms", "--warmup", "100ms", "--out", out.toString(),
                    "--name", "search"), 0);
            // Two probes allowed: 1 and 2 users both pass a 2 s TTFT objective, so the capacity is above them.
            assertThat(printed).contains("SLO capacity: above every probe: the highest, c=2,")
                    .contains("SLO capacity search (concurrency, target 99.0% of requests within the SLO set):");
        }
        assertThat(errOf(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--slo-search",
                "concurrency", "--out", out.toString()))).contains("sloSearch needs a latency SLO to search against");
        assertThat(errOf(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--concurrency", "1",
                "--slo-attainment", "0.9", "--out", out.toString()))).contains("apply to an SLO search only");
    }

    private static double loadedOutputRate(Path dir) {
        return dev.kneepoint.io.RunLoader.load(dir).result().steps().get(0).rates().outputTokensPerS();
    }

    @Test
    void durationsReadHumanUnits() {
        assertThat(Durations.parse("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(Durations.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.parse("2m")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Durations.parse("PT3S")).isEqualTo(Duration.ofSeconds(3));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Durations.parse("soon"))
                .hasMessageContaining("e.g. 500ms, 30s");
    }

    /** {@code import-gpu}: a log written in UTC lands in the run; a second import and a bad zone exit 2. */
    private void importGpuAddsAServerHostLog(Path run) throws Exception {
        var manifest = new com.fasterxml.jackson.databind.ObjectMapper().readTree(run.resolve("manifest.json").toFile());
        java.time.Instant origin = java.time.Instant.parse(manifest.get("clock_origin").asText());
        var ts = java.time.format.DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSS", java.util.Locale.ROOT)
                .withZone(java.time.ZoneOffset.UTC);
        Path csv = out.resolve("gpu.csv");
        Files.write(csv, List.of("timestamp, index, power.draw [W]", ts.format(origin.plusMillis(200)) + ", 0, 300.5 W",
                ts.format(origin.plusMillis(400)) + ", 0, 310.25 W", ts.format(origin.minusSeconds(5)) + ", 0, 80.00 W"));
        String printed = capture(() -> Main.execute("import-gpu", run.toString(), csv.toString(), "--zone", "UTC",
                "--host", "gpu-node-1"), 0);
        assertThat(printed).contains("imported 2 of 3 rows (2 samples)").contains("aligned on clock_origin")
                .contains("1 rows fell outside the run");
        assertThat(dev.kneepoint.telemetry.TelemetryLoader.load(run).series("gpu:power_w{gpu=0,host=gpu-node-1}"))
                .extracting(dev.kneepoint.telemetry.TelemetrySample::value).containsExactly(300.5, 310.25);
        assertThat(errOf(() -> Main.execute("import-gpu", run.toString(), csv.toString(), "--zone", "UTC")))
                .contains("already");
        assertThat(errOf(() -> Main.execute("import-gpu", run.toString(), csv.toString(), "--zone", "Mars/Olympus")))
                .contains("--zone 'Mars/Olympus' is not a time zone");
    }

    /** Standard error of an action that must exit 2. */
    private static String errOf(Action action) throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        int code;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = action.run();
        } finally {
            System.setErr(old);
        }
        assertThat(code).as("exit code; stderr:\n" + err).isEqualTo(2);
        return err.toString(StandardCharsets.UTF_8);
    }

    private interface Action {
        int run() throws Exception;
    }

    private static String capture(Action action, int expectedCode) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        int code;
        try {
            System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
            code = action.run();
        } finally {
            System.setOut(old);
        }
        assertThat(code).as("exit code; output:\n" + buf).isEqualTo(expectedCode);
        return buf.toString(StandardCharsets.UTF_8);
    }
}
