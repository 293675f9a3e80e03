package dev.kneepoint.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.RunClock;
import org.junit.jupiter.api.Test;

/** The monitor's plumbing: what it measures over which span, on a real clock (bounds allow a loaded machine). */
class ClientMonitorTest {
    private static final long MS = 1_000_000L;

    @Test
    void measuresTheWindowAndTheProbeFillsEveryPeriod() throws InterruptedException {
        RunClock clock = RunClock.system();
        long windowStart = clock.now() + 50 * MS;
        ClientMonitor m = ClientMonitor.start(clock, "t", windowStart);
        Thread.sleep(350);
        long end = clock.now();
        m.endWindow(end);
        ClientHealth h = m.stop();
        long afterStop = clock.now();

        assertThat(h.measured()).isTrue();
        // The span runs from the probe's first tick in the window (its start, plus the wake-up delay) to the end
        // snapshot (taken in endWindow, after `end`): at most afterStop - windowStart, and at most 150 ms less than
        // end - windowStart unless the probe woke that late on a loaded machine.
        long window = end - windowStart;
        assertThat(h.spanNanos()).isBetween(window - 150 * MS, afterStop - windowStart);
        assertThat(h.processors()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(h.cpuNanos()).isNotNegative(); // Linux reports process CPU time
        // Missed wake-ups are filled in, so the samples cover the window at one per period: window / 20 ms, less
        // for a late first tick (up to 40% of the window lost on a loaded machine), at most one more for the edges.
        long periods = window / ClientMonitor.PROBE_PERIOD_NANOS;
        assertThat(h.probeSamples()).isBetween((long) (0.6 * periods), periods + 1);
        assertThat(h.probeP50Nanos()).isNotNegative();
        assertThat(h.probeMaxNanos()).isGreaterThanOrEqualTo(h.probeP99Nanos());
        assertThat(h.probePeriodNanos()).isEqualTo(ClientMonitor.PROBE_PERIOD_NANOS);
    }

    @Test
    void countsAStopTheWorldCollectionInTheWindow() throws InterruptedException {
        RunClock clock = RunClock.system();
        ClientMonitor m = ClientMonitor.start(clock, "t", clock.now());
        System.gc(); // a full, stop-the-world collection under the default collectors (G1, Serial, Parallel)
        Thread.sleep(20);
        ClientHealth h = m.stop();
        assertThat(h.gcCount()).isGreaterThanOrEqualTo(1);
        assertThat(h.gcPauseNanos()).isNotNegative();
    }

    @Test
    void aWindowEndingInTheFutureEndsThereNotAtStop() throws InterruptedException {
        RunClock clock = RunClock.system();
        long start = clock.now();
        ClientMonitor m = ClientMonitor.start(clock, "t", start);
        m.endWindow(start + 100 * MS);
        Thread.sleep(400);
        ClientHealth h = m.stop();
        // The probe takes the end snapshot at its first tick at or after 100 ms (plus its wake-up delay), far from
        // the 400 ms of stop() unless the machine stalled the probe for 300 ms. The span may be shorter than 100 ms:
        // it starts at the start snapshot, which the JVM's first management-bean look-up can delay by tens of ms.
        assertThat(h.measured()).isTrue();
        assertThat(h.spanNanos()).isLessThan(300 * MS);
    }

    @Test
    void aWindowThatNeverStartedMeasuresNothing() {
        RunClock clock = RunClock.system();
        ClientMonitor m = ClientMonitor.start(clock, "t", clock.now() + 60_000 * MS);
        assertThat(m.stop()).isEqualTo(ClientHealth.NOT_MEASURED);
    }
}
