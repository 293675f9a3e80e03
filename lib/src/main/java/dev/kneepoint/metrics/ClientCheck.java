package dev.kneepoint.metrics;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Did the load generator, not the server, limit this step? The source article's pitfall: an underpowered
 * client fakes the server's ceiling. Four signals, each against a limit of {@link ClientThresholds}
 * (docs/METRICS.md "Client self-check"):
 *
 * <ul>
 *   <li>{@code schedule_lag_p99_ms}: p99 of {@code t_dispatch − t_intended} over the step's requests, against
 *       {@code max(floor, fraction × mean inter-arrival gap)}; the gap is {@code 1 / rate} in open loop and
 *       {@code window / requests} in closed loop;</li>
 *   <li>{@code client_cpu_pct}: process CPU over the window, percent of the available processors;</li>
 *   <li>{@code gc_pause_pct}: stop-the-world GC time, percent of the window;</li>
 *   <li>{@code probe_delay_p99_ms}: how late a probe that sleeps on the requests' virtual-thread scheduler wakes up
 *       (the stand-in for read lag: a late probe means late reads).</li>
 * </ul>
 *
 * The step is {@link #clientBound()} when any signal crossed its limit; {@link #evidence()} names which, with the
 * values. Only {@code schedule_lag} survives in a run re-read from an older run directory without client health.
 *
 * @param health             what the client measured about itself ({@link ClientHealth#NOT_MEASURED} when nothing)
 * @param limits             the thresholds judged against
 * @param meanInterArrivalMs the mean gap between arrivals the schedule lag limit scales with (NaN when unknown)
 * @param signals            every signal, measured or not, in the order above
 * @param clientBound        true when some signal crossed its limit
 */
public record ClientCheck(ClientHealth health, ClientThresholds limits, double meanInterArrivalMs,
                          List<ClientSignal> signals, boolean clientBound) {

    /** Signal names, in {@link #signals()} order. */
    public static final String LAG = "schedule_lag_p99_ms";
    public static final String CPU = "client_cpu_pct";
    public static final String GC = "gc_pause_pct";
    public static final String PROBE = "probe_delay_p99_ms";

    public ClientCheck {
        Objects.requireNonNull(health, "health");
        Objects.requireNonNull(limits, "limits");
        signals = List.copyOf(signals);
    }

    /** A builder of thresholds holding the defaults: {@code sweep.clientCheck(ClientCheck.thresholds().cpuFraction(0.95).build())}. */
    public static ClientThresholds.Builder thresholds() {
        return ClientThresholds.builder();
    }

    /**
     * Judges one step.
     *
     * @param info        the step (open loop: its rate gives the inter-arrival gap)
     * @param windowS     the window length, s
     * @param requests    requests of the step (closed loop: window / requests is the gap)
     * @param scheduleLag the step's schedule lag distribution, a closed loop's first wave left out (the aggregator's
     *                    {@code FirstWave}: connection set-up is no client limit)
     * @param health      the client's own measurements over the window
     * @param t           the limits
     */
    public static ClientCheck evaluate(StepInfo info, double windowS, long requests, Distribution scheduleLag,
                                       ClientHealth health, ClientThresholds t) {
        double gapMs = info.isOpenLoop() ? (info.rateRps() > 0 ? 1000 / info.rateRps() : Double.NaN)
                : requests > 0 && windowS > 0 ? 1000 * windowS / requests : Double.NaN;
        List<ClientSignal> signals = List.of(
                ClientSignal.of(LAG, scheduleLag.count() == 0 ? Double.NaN : scheduleLag.p99(), t.scheduleLagLimitMs(gapMs)),
                ClientSignal.of(CPU, 100 * health.cpuFraction(), 100 * t.cpuFraction()),
                ClientSignal.of(GC, 100 * health.gcPauseFraction(), 100 * t.gcPauseFraction()),
                ClientSignal.of(PROBE, health.probeP99Ms(), t.probeDelayP99Ms()));
        return new ClientCheck(health, t, gapMs, signals, signals.stream().anyMatch(ClientSignal::crossed));
    }

    /** The signal named {@code name} ({@link #LAG}, {@link #CPU}, {@link #GC}, {@link #PROBE}). */
    public ClientSignal signal(String name) {
        return signals.stream().filter(s -> s.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no client signal '" + name + "'; signals are "
                        + signals.stream().map(ClientSignal::name).toList()));
    }

    /** The value of signal {@code name}, NaN when not measured. */
    public double value(String name) {
        return signal(name).value();
    }

    /** The crossed signals, described ({@code schedule_lag_p99_ms 12.300 > 5.000}); empty when not client-bound. */
    public List<String> evidence() {
        return signals.stream().filter(ClientSignal::crossed).map(ClientSignal::describe).toList();
    }

    /** The evidence in one line, {@code ""} when not client-bound. */
    public String evidenceText() {
        return String.join("; ", evidence());
    }

    @Override
    public String toString() {
        return "ClientCheck[" + (clientBound ? "CLIENT-BOUND" : "ok") + ": "
                + signals.stream().map(ClientSignal::describe).collect(Collectors.joining(", ")) + "]";
    }
}
