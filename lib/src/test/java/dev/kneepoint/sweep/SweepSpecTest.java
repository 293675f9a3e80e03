package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.CapPolicy;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sweep.SweepSpec.Mode;
import dev.kneepoint.sweep.SweepSpec.TraceSource;
import dev.kneepoint.workload.DatasetException;
import dev.kneepoint.workload.TraceWorkload;
import dev.kneepoint.workload.Workloads;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.kneepoint.workload.Lengths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Sweep#validate()}: the builder's settings checked into an immutable {@link SweepSpec}, with no I/O. */
class SweepSpecTest {
    /** Nothing listens on port 9: a sweep of it that sent anything would fail. */
    private static final TargetConfig NOWHERE = Kneepoint.target("http://127.0.0.1:9", "m");

    @TempDir
    Path dir;

    @Test
    void closedLoopSettingsMakeAClosedMode() {
        SweepSpec spec = Kneepoint.sweep(NOWHERE).concurrency(1, 2, 4).thinkTime(Duration.ofMillis(5)).baseline(true)
                .api("ollama-chat").inputTokens(64).outputTokens(8).seed(7).warmup(Duration.ofSeconds(1))
                .maxRequestsPerStep(20).name("closed").validate();
        assertThat(spec.mode()).isEqualTo(new Mode.Closed(List.of(1, 2, 4), Duration.ofMillis(5), SweepDefaults.RAMP_UP, true));
        assertThat(spec.target().apiKind()).isEqualTo(ApiKind.OLLAMA_CHAT); // the api override, resolved
        assertThat(spec.prompts()).isEqualTo(new SweepSpec.Prompts(null, Lengths.fixed(64), Lengths.fixed(8), true,
                Calibrate.AUTO, null, 1, List.of(), new SweepSpec.Shape(null, null, null, List.of(SweepDefaults.BATCH), null)));
        assertThat(spec.seed()).isEqualTo(7);
        assertThat(spec.steps()).isEqualTo(new SweepSpec.Steps(SweepDefaults.STEP_DURATION, Duration.ofSeconds(1),
                SweepDefaults.PAUSE, SweepDefaults.DRAIN_TIMEOUT, 20, SweepDefaults.REPEAT, false));
        assertThat(spec.name()).isEqualTo("closed");
        assertThat(spec.outputDir()).isEqualTo(SweepDefaults.OUTPUT_DIR);
    }

    @Test
    void openLoopSettingsMakeAnOpenMode() {
        SweepSpec spec = Kneepoint.rateLadder(NOWHERE, 2.5, 5).burstiness(3).maxInFlight(16, CapPolicy.DROP)
                .outputDir(null).validate();
        assertThat(spec.mode()).isEqualTo(new Mode.Open(List.of(2.5, 5.0), new SweepSpec.Arrival("gamma", 3),
                new SweepSpec.InFlightCap(16, CapPolicy.DROP), false));
        assertThat(spec.outputDir()).isNull();
    }

    @Test
    void aTraceMakesATraceModeWithoutReadingTheFile() throws Exception {
        Path missing = dir.resolve("no-such-trace.jsonl");
        SweepSpec spec = Kneepoint.replay(NOWHERE, missing).traceBlockSize(16).timeScale(2).validate();
        assertThat(spec.mode()).isEqualTo(new Mode.Trace(new TraceSource.File(missing, 16), List.of(), 2.0, true,
                new SweepSpec.InFlightCap(-1, CapPolicy.QUEUE), false));
        assertThat(spec.steps().warmup()).as("a trace has no warm-up unless one is set").isEqualTo(Duration.ZERO);

        Path file = dir.resolve("t.jsonl");
        Files.write(file, List.of("{\"timestamp\": 0, \"input_length\": 4, \"output_length\": 1}",
                "{\"timestamp\": 100, \"input_length\": 4, \"output_length\": 1}"));
        TraceWorkload built = Workloads.trace(file).build();
        SweepSpec given = Kneepoint.sweep(NOWHERE).trace(built).rates(1, 2).stepDuration(Duration.ofSeconds(3))
                .warmup(Duration.ofMillis(10)).validate();
        assertThat(given.mode()).isEqualTo(new Mode.Trace(new TraceSource.Given(built), List.of(1.0, 2.0), 1.0, false,
                new SweepSpec.InFlightCap(-1, CapPolicy.QUEUE), false));
        assertThat(given.steps().warmup()).isEqualTo(Duration.ofMillis(10));
        // A given trace is in memory: its checks are made by validate() itself.
        assertThatThrownBy(() -> Kneepoint.sweep(NOWHERE).trace(built).warmup(Duration.ofSeconds(1)).validate())
                .hasMessageContaining("warmup PT1S covers the whole trace");
    }

    @Test
    void aRateSweepMakesARateSweepMode() {
        SweepSpec spec = Kneepoint.rateSweep(NOWHERE, 4).throughputConcurrency(32).arrival("constant").validate();
        assertThat(spec.mode()).isEqualTo(new Mode.RateSweep(4, 32, new SweepSpec.Arrival("constant",
                SweepDefaults.BURST_CV), new SweepSpec.InFlightCap(-1, CapPolicy.QUEUE)));
    }

    @Test
    void aMissingOrBadTraceFileIsReportedByTheRunWithTheSettingsProblems() throws Exception {
        Path missing = dir.resolve("no-such-trace.jsonl");
        String expected;
        try {
            Workloads.trace(missing).build();
            throw new AssertionError("a missing trace was read");
        } catch (DatasetException | IllegalArgumentException e) {
            expected = "trace: " + e.getMessage();
        }
        Sweep sweep = Kneepoint.replay(NOWHERE, missing).outputDir(null);
        sweep.validate(); // the file is not looked at
        assertThatThrownBy(sweep::run).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Invalid sweep (1 problem):\n  - " + expected);

        Path bad = dir.resolve("bad.jsonl");
        Files.write(bad, List.of("{\"timestamp\": 10, \"input_length\": 4, \"output_length\": 1}",
                "{\"timestamp\": 5, \"input_length\": 4, \"output_length\": 1}"));
        Sweep badSweep = Kneepoint.replay(NOWHERE, bad).name("bad name").outputDir(null);
        assertThatThrownBy(badSweep::validate).hasMessageContaining("1 problem").hasMessageContaining("name must be");
        assertThatThrownBy(badSweep::run).hasMessageContaining("2 problems").hasMessageContaining("name must be")
                .hasMessageContaining("line 2: timestamp 5 ms is before the previous request's 10 ms");
    }

    @Test
    void validateSendsNothingEvenWhenCalibrating() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            TargetConfig target = Kneepoint.target("http://127.0.0.1:" + server.getLocalPort(), "m");
            SweepSpec spec = Kneepoint.sweep(target).concurrency(1).calibrate(true).validate();
            assertThat(spec.prompts().calibrate()).isEqualTo(Calibrate.ON);
            server.setSoTimeout(300);
            assertThatThrownBy(server::accept).as("no connection reached the target").isInstanceOf(SocketTimeoutException.class);
        }
    }

    @Test
    void validateReportsTheProblemsRunWouldAndLeavesTheBuilderAsItWas() throws Exception {
        Sweep sweep = Kneepoint.ladder(NOWHERE, 1, 2).api("chat").calibrate(true)
                .backgroundPerStep(i -> RequestSpec.of("bg", 4), 1, 2).outputDir(null);
        Map<String, Object> before = fields(sweep.settings);
        SweepSpec spec = sweep.validate();
        assertThat(fields(sweep.settings)).isEqualTo(before);
        assertThat(sweep.settings.background).as("the background stream lives in the spec only").isNull();
        assertThat(spec.background().stepRatesRps()).containsExactly(1.0, 2.0);
        assertThat(sweep.validate().mode()).isEqualTo(spec.mode());

        Sweep wrong = Kneepoint.sweep(NOWHERE).concurrency(0).inputTokens(0).outputDir(null);
        Map<String, Object> wrongBefore = fields(wrong.settings);
        String fromValidate = catchMessage(wrong::validate);
        assertThat(fromValidate).startsWith("Invalid sweep (2 problems)");
        assertThat(catchMessage(wrong::run)).isEqualTo(fromValidate);
        assertThat(fields(wrong.settings)).isEqualTo(wrongBefore);
    }

    @Test
    void aSpecIsImmutable() {
        Sweep sweep = Kneepoint.ladder(NOWHERE, 1, 2);
        SweepSpec spec = sweep.validate();
        sweep.concurrency(8).thinkTime(Duration.ofSeconds(1)).name("other");
        assertThat(spec.mode()).isEqualTo(new Mode.Closed(List.of(1, 2), Duration.ZERO, SweepDefaults.RAMP_UP, false));
        assertThat(spec.name()).isEqualTo(SweepDefaults.NAME);
        List<Integer> concurrency = ((Mode.Closed) spec.mode()).concurrency();
        assertThatThrownBy(() -> concurrency.add(3)).isInstanceOf(UnsupportedOperationException.class);

        List<Double> rates = new ArrayList<>(List.of(1.0, 2.0));
        Mode.Open open = new Mode.Open(rates, new SweepSpec.Arrival("poisson", 2), new SweepSpec.InFlightCap(-1,
                CapPolicy.QUEUE), false);
        rates.add(3.0);
        assertThat(open.ratesRps()).containsExactly(1.0, 2.0);
        assertThatThrownBy(() -> open.ratesRps().add(4.0)).isInstanceOf(UnsupportedOperationException.class);
    }

    private static String catchMessage(Runnable r) {
        try {
            r.run();
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("no IllegalArgumentException");
    }

    /** Every field of the builder's settings, arrays by content. */
    private static Map<String, Object> fields(SweepSettings s) throws IllegalAccessException {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Field f : SweepSettings.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            Object v = f.get(s);
            m.put(f.getName(), v instanceof double[] a ? Arrays.toString(a) : v);
        }
        return m;
    }
}
