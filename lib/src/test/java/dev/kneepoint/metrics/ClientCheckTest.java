package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The client self-check's threshold logic on synthetic inputs: every number below is derivable by hand. */
class ClientCheckTest {
    private static final ClientThresholds DEFAULTS = ClientThresholds.defaults();
    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    private static StepInfo open(double rate) {
        return new StepInfo(0, "rate=" + rate, StepInfo.OPEN, -1, rate, "constant", -1, "", 0, 10 * SECOND, -1);
    }

    private static StepInfo closed(int c) {
        return new StepInfo(0, "c=" + c, StepInfo.CLOSED, c, Double.NaN, "", -1, "", 0, 10 * SECOND, -1);
    }

    /** 100 schedule lag samples all equal to {@code ms}: p99 is {@code ms} to within HdrHistogram's 0.1%. */
    private static Distribution lag(double ms) {
        Histogram h = Distribution.newHistogram();
        h.recordValueWithCount((long) (ms * MS), 100);
        return Distribution.of(h);
    }

    /** Health over 1 s on 4 processors. */
    private static ClientHealth health(double cpuSeconds, double gcMs, double probeP99Ms) {
        return new ClientHealth(SECOND, 4, (long) (cpuSeconds * SECOND), (long) (gcMs * MS), 2, 100, 100_000,
                (long) (probeP99Ms * MS), (long) (probeP99Ms * MS), 10 * MS);
    }

    private static final ClientHealth CALM = health(0.4, 5, 0.5); // 10% CPU, 0.5% GC, probe 0.5 ms

    @Test
    void aCalmStepIsNotClientBoundAndEverySignalIsReported() {
        ClientCheck c = ClientCheck.evaluate(open(10), 10, 100, lag(0.2), CALM, DEFAULTS);
        assertThat(c.clientBound()).isFalse();
        assertThat(c.evidence()).isEmpty();
        assertThat(c.signals()).extracting(ClientSignal::name)
                .containsExactly(ClientCheck.LAG, ClientCheck.CPU, ClientCheck.GC, ClientCheck.PROBE);
        // 0.4 s CPU / (1 s x 4 processors) = 10%; 5 ms GC / 1 s = 0.5%.
        assertThat(c.value(ClientCheck.CPU)).isCloseTo(10, within(1e-9));
        assertThat(c.value(ClientCheck.GC)).isCloseTo(0.5, within(1e-9));
        assertThat(c.value(ClientCheck.PROBE)).isCloseTo(0.5, within(1e-9));
        assertThat(c.value(ClientCheck.LAG)).isCloseTo(0.2, within(0.2 * 0.001));
    }

    @Test
    void theScheduleLagLimitIsTheFloorOrAFractionOfTheInterArrivalGap() {
        // rate 10/s: gap 100 ms, 5% = 5 ms = the floor. 6 ms crosses, 4.9 ms does not.
        assertThat(ClientCheck.evaluate(open(10), 10, 100, lag(6), CALM, DEFAULTS).signal(ClientCheck.LAG).limit())
                .isCloseTo(5, within(1e-9));
        assertThat(ClientCheck.evaluate(open(10), 10, 100, lag(6), CALM, DEFAULTS).clientBound()).isTrue();
        assertThat(ClientCheck.evaluate(open(10), 10, 100, lag(4.9), CALM, DEFAULTS).clientBound()).isFalse();
        // rate 0.5/s: gap 2 s, 5% = 100 ms: 60 ms of lag is within it.
        ClientCheck slow = ClientCheck.evaluate(open(0.5), 10, 5, lag(60), CALM, DEFAULTS);
        assertThat(slow.signal(ClientCheck.LAG).limit()).isCloseTo(100, within(1e-9));
        assertThat(slow.clientBound()).isFalse();
        assertThat(ClientCheck.evaluate(open(0.5), 10, 5, lag(120), CALM, DEFAULTS).clientBound()).isTrue();
        // closed loop: window 10 s / 20 requests = 500 ms gap -> limit 25 ms.
        ClientCheck c = ClientCheck.evaluate(closed(4), 10, 20, lag(30), CALM, DEFAULTS);
        assertThat(c.meanInterArrivalMs()).isCloseTo(500, within(1e-9));
        assertThat(c.signal(ClientCheck.LAG).limit()).isCloseTo(25, within(1e-9));
        // HdrHistogram reports 30 ms as its bucket's top, 30.015 ms (3 significant digits).
        assertThat(c.evidence()).containsExactly("schedule_lag_p99_ms 30.015 > 25.000");
    }

    @Test
    void cpuGcAndProbeEachFlagTheStepOnTheirOwn() {
        // 3.5 s / (1 s x 4) = 87.5% > 85%; 3.3 s -> 82.5%.
        assertThat(ClientCheck.evaluate(open(1), 10, 10, lag(0.1), health(3.5, 5, 0.5), DEFAULTS).evidence())
                .containsExactly("client_cpu_pct 87.500 > 85.000");
        assertThat(ClientCheck.evaluate(open(1), 10, 10, lag(0.1), health(3.3, 5, 0.5), DEFAULTS).clientBound()).isFalse();
        // 60 ms of pauses in 1 s = 6% > 5%; 40 ms = 4%.
        assertThat(ClientCheck.evaluate(open(1), 10, 10, lag(0.1), health(0.4, 60, 0.5), DEFAULTS).evidence())
                .containsExactly("gc_pause_pct 6.000 > 5.000");
        assertThat(ClientCheck.evaluate(open(1), 10, 10, lag(0.1), health(0.4, 40, 0.5), DEFAULTS).clientBound()).isFalse();
        // probe p99 11 ms > 10 ms; 9 ms is within.
        assertThat(ClientCheck.evaluate(open(1), 10, 10, lag(0.1), health(0.4, 5, 11), DEFAULTS).evidence())
                .containsExactly("probe_delay_p99_ms 11.000 > 10.000");
        assertThat(ClientCheck.evaluate(open(1), 10, 10, lag(0.1), health(0.4, 5, 9), DEFAULTS).clientBound()).isFalse();
        // All at once: the evidence lists every crossed signal, in signal order.
        ClientCheck all = ClientCheck.evaluate(open(10), 10, 100, lag(7), health(3.6, 80, 25), DEFAULTS);
        assertThat(all.evidenceText()).isEqualTo("schedule_lag_p99_ms 7.000 > 5.000; client_cpu_pct 90.000 > 85.000; "
                + "gc_pause_pct 8.000 > 5.000; probe_delay_p99_ms 25.000 > 10.000");
    }

    @Test
    void withoutHealthOnlyTheScheduleLagIsJudged() {
        ClientCheck c = ClientCheck.evaluate(open(10), 10, 100, lag(0.1), ClientHealth.NOT_MEASURED, DEFAULTS);
        assertThat(c.clientBound()).isFalse();
        assertThat(c.value(ClientCheck.CPU)).isNaN();
        assertThat(c.value(ClientCheck.GC)).isNaN();
        assertThat(c.value(ClientCheck.PROBE)).isNaN();
        assertThat(ClientCheck.evaluate(open(10), 10, 100, lag(50), ClientHealth.NOT_MEASURED, DEFAULTS).clientBound())
                .isTrue();
        // No requests, no lag samples: nothing to judge, not bound.
        assertThat(ClientCheck.evaluate(open(10), 10, 0, Distribution.empty(), ClientHealth.NOT_MEASURED, DEFAULTS)
                .clientBound()).isFalse();
    }

    @Test
    void thresholdsAreConfigurableASignalCanBeTurnedOffAndBadLimitsAreAllReported() {
        ClientThresholds lax = ClientCheck.thresholds().cpuFraction(1.0).probeDelayP99Ms(Double.POSITIVE_INFINITY).build();
        ClientCheck c = ClientCheck.evaluate(open(1), 10, 10, lag(0.1), health(3.6, 5, 500), lax);
        assertThat(c.clientBound()).isFalse();
        assertThat(c.signal(ClientCheck.PROBE).describe()).isEqualTo("probe_delay_p99_ms 500.000 <= off");
        assertThatThrownBy(() -> ClientCheck.thresholds().cpuFraction(1.5).gcPauseFraction(0).scheduleLagFloorMs(-1).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 problems").hasMessageContaining("cpuFraction").hasMessageContaining("gcPauseFraction")
                .hasMessageContaining("scheduleLagFloorMs");
        assertThat(DEFAULTS.toBuilder().build()).isEqualTo(DEFAULTS);
    }

    @Test
    void aStepResultBuiltTheOldWayCarriesALagOnlyCheck() {
        StepAggregator a = StepAggregator.forUnknownWindow(open(10), Slo.none(), ClientThresholds.defaults());
        StepResult r = a.finish(new StepWindow(0, 0, SECOND, true));
        assertThat(r.clientCheck().health()).isEqualTo(ClientHealth.NOT_MEASURED);
        assertThat(r.clientBound()).isFalse();
        assertThat(r.clientCheck().limits()).isEqualTo(DEFAULTS);
    }
}
