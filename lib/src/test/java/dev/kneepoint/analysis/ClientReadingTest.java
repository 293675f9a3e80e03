package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.cpu;
import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.metrics.RunResult;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/** Client-bound steps in the readings, the knee verdict, the tables and the text summary. */
class ClientReadingTest {

    private static Reading clientReading(KneeReport r) {
        return r.readings().stream().filter(x -> x.kind() == Kind.CLIENT_BOUND).findFirst().orElseThrow();
    }

    /** Knee at c=4: throughput 100, 200, 400, 440, 460 with latency 100, 100, 100, 200, 450 (as KneeTest's ladder). */
    private static RunResult ladder(double cpuAtC4, double cpuAtC1) {
        return run("client", s(1, 100, 100).client(cpu(cpuAtC1)), s(2, 200, 100).client(cpu(0.3)),
                s(4, 400, 100).client(cpu(cpuAtC4)), s(8, 440, 200).client(cpu(0.5)), s(16, 460, 450).client(cpu(0.5)));
    }

    @Test
    void aClientBoundStepNearTheKneeIsAReadingAndAWarningInTheVerdict() {
        KneeReport r = Knee.analyze(ladder(0.95, 0.2));
        assertThat(r.kneeStep()).isEqualTo("c=4");
        Reading reading = clientReading(r);
        assertThat(reading.status()).isEqualTo(Status.APPLIES);
        // 0.95 of 4 cores = 95% > 85%.
        assertThat(reading.finding()).startsWith("client-bound: the load generator limited step c=4;");
        assertThat(reading.evidence()).isEqualTo("c=4 (client_cpu_pct 95.000 > 85.000).");
        assertThat(r.method()).contains("Warning: client-bound step(s) near the knee: c=4 (client_cpu_pct 95.000 > 85.000).");
        assertThat(r.steps().booleanColumn("client_bound").asList()).containsExactly(false, false, true, false, false);
    }

    @Test
    void aClientBoundStepFarFromTheKneeIsAReadingButNoKneeWarning() {
        KneeReport r = Knee.analyze(ladder(0.3, 0.9));
        assertThat(clientReading(r).status()).isEqualTo(Status.APPLIES);
        assertThat(clientReading(r).finding()).contains("limited step c=1");
        // c=1 is two positions below the knee c=4 and not the operating point (the top of the zone is c=4).
        assertThat(r.method()).doesNotContain("Warning: client-bound");
    }

    @Test
    void aCalmLadderHasNoClientBoundReading() {
        KneeReport r = Knee.analyze(ladder(0.3, 0.2));
        assertThat(clientReading(r).status()).isEqualTo(Status.DOES_NOT_APPLY);
        assertThat(clientReading(r).evidence()).contains("every signal of 5 measured step(s) within its limit");
        assertThat(r.method()).doesNotContain("Warning");
        // Without client health (an older run) only schedule lag is judged: 0.5 ms is within every limit.
        KneeReport old = Knee.analyze(run("old", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100)));
        assertThat(clientReading(old).status()).isEqualTo(Status.DOES_NOT_APPLY);
        assertThat(clientReading(old).evidence()).contains("not measured");
    }

    @Test
    void theStepsTableAndTheTextSummaryShowTheClientCheck() {
        RunResult run = ladder(0.95, 0.2);
        Table t = Tables.steps(run);
        assertThat(t.booleanColumn("client_bound").get(2)).isTrue();
        assertThat(t.doubleColumn("client_cpu_pct").get(2)).isCloseTo(95, within(1e-9));
        // 60 ms of pauses in 60 s = 0.1%.
        assertThat(t.doubleColumn("gc_pause_ms").get(0)).isCloseTo(60, within(1e-9));
        assertThat(t.doubleColumn("gc_pause_pct").get(0)).isCloseTo(0.1, within(1e-9));
        assertThat(t.doubleColumn("probe_delay_p99_ms").get(0)).isCloseTo(0.5, within(1e-9));
        assertThat(t.doubleColumn("schedule_lag_p99_ms").get(0)).isCloseTo(0.5, within(0.001));
        assertThat(t.stringColumn("client_evidence").get(2)).isEqualTo("client_cpu_pct 95.000 > 85.000");
        assertThat(t.stringColumn("client_evidence").get(0)).isEmpty();
        assertThat(SummaryText.format(run)).contains("client-bound: the load generator limited step c=4 "
                + "(client_cpu_pct 95.000 > 85.000); its numbers understate the server");
    }
}
