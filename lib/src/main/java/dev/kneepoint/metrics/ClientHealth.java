package dev.kneepoint.metrics;

/**
 * What the load generator measured about itself over one step's window (docs/METRICS.md "Client self-check"):
 * its process CPU, its garbage-collection pauses and the scheduling delay of a probe that wakes every
 * {@code probePeriodNanos} on the same virtual-thread scheduler as the requests. The raw facts;
 * {@link ClientCheck} judges them.
 *
 * <p>The JVM is measured as a whole: anything else running in it (an embedded simulator, a notebook's other
 * work) counts as the client's.
 *
 * @param spanNanos        the span measured, on the run clock (the step's window, to within a probe period);
 *                         0 when nothing was measured
 * @param processors       processors available to the JVM
 * @param cpuNanos         process CPU time spent in the span, or -1 when the platform does not report it
 * @param gcPauseNanos     stop-the-world GC time in the span (collectors reporting concurrent cycles left out)
 * @param gcCount          stop-the-world collections in the span
 * @param probeSamples     probe wake-ups recorded in the span (missed wake-ups filled in, as wrk2 does)
 * @param probeP50Nanos    median probe delay, or -1 when no sample
 * @param probeP99Nanos    99th percentile probe delay, or -1 when no sample
 * @param probeMaxNanos    largest probe delay, or -1 when no sample
 * @param probePeriodNanos the probe's period
 */
public record ClientHealth(long spanNanos, int processors, long cpuNanos, long gcPauseNanos, long gcCount,
                           long probeSamples, long probeP50Nanos, long probeP99Nanos, long probeMaxNanos,
                           long probePeriodNanos) {

    /** Nothing measured (a step re-read from an older run directory, or aggregated without a load run). */
    public static final ClientHealth NOT_MEASURED = new ClientHealth(0, 0, -1, 0, 0, 0, -1, -1, -1, 0);

    /** True when a span was measured. */
    public boolean measured() {
        return spanNanos > 0;
    }

    /** Process CPU as a fraction of the available processors over the span (1 = every core busy); NaN when unknown. */
    public double cpuFraction() {
        return measured() && cpuNanos >= 0 && processors > 0 ? cpuNanos / ((double) spanNanos * processors) : Double.NaN;
    }

    /** GC pause time as a fraction of the span; NaN when not measured. */
    public double gcPauseFraction() {
        return measured() ? gcPauseNanos / (double) spanNanos : Double.NaN;
    }

    /** Probe delay p99 in ms; NaN when no sample. */
    public double probeP99Ms() {
        return probeP99Nanos < 0 ? Double.NaN : probeP99Nanos / 1e6;
    }
}
