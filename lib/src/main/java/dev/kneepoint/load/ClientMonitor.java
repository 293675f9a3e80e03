package dev.kneepoint.load;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunClock;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The load generator's self-check over one step's window (docs/METRICS.md "Client self-check"): a probe
 * virtual thread, on the same scheduler as the requests, wakes every {@link #PROBE_PERIOD_NANOS} (20 ms) and records how
 * late it woke (with missed wake-ups filled in, wrk2's coordinated-omission correction); two snapshots of
 * process CPU time and stop-the-world GC totals, at the window's start and end, give the deltas.
 *
 * <p>Cost: 50 wake-ups a second of one virtual thread, two {@code OperatingSystemMXBean} reads per step. The probe
 * ends with the step: no thread outlives it.
 *
 * <p>Threading: {@link #start}, {@link #endWindow} and {@link #stop} on the thread driving the step; the
 * probe thread records into the histogram under its lock and takes the start snapshot (and the end snapshot
 * when the window ends in the future).
 */
final class ClientMonitor {
    /**
     * The probe's period: 20 ms, 50 wake-ups a second. Each wake-up of an otherwise idle JVM costs a timer hand-off
     * and a carrier wake-up (about 80-260 µs of CPU on the overloaded development machine, a few µs on a quiet one,
     * less still while carriers are busy with requests); docs/PERFORMANCE.md has the figures.
     */
    static final long PROBE_PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
    private static final long JOIN_MILLIS = 1_000;

    private final RunClock clock;
    private final long windowStart;
    private final long period;
    private final Histogram delays = Distribution.newHistogram();
    private final Thread probe;
    private volatile Snapshot start;
    private volatile Snapshot end;
    private volatile long endAt = Long.MAX_VALUE;
    private final long firstTick;

    private ClientMonitor(RunClock clock, String label, long windowStartNanos, long periodNanos) {
        this.clock = clock;
        this.windowStart = windowStartNanos;
        this.period = periodNanos;
        long now = clock.now();
        this.firstTick = Math.floorDiv(now - windowStartNanos, periodNanos) + 1;
        if (now >= windowStartNanos) {
            start = Snapshot.take(clock);
        }
        this.probe = Thread.ofVirtual().name("kneepoint-probe-" + label).unstarted(this::probeLoop);
    }

    /** Starts monitoring a step whose window begins at {@code windowStartNanos} (run clock). */
    static ClientMonitor start(RunClock clock, String label, long windowStartNanos) {
        return start(clock, label, windowStartNanos, PROBE_PERIOD_NANOS);
    }

    /** As {@link #start(RunClock, String, long)} with another probe period. */
    static ClientMonitor start(RunClock clock, String label, long windowStartNanos, long periodNanos) {
        ClientMonitor m = new ClientMonitor(clock, label, windowStartNanos, periodNanos);
        m.probe.start();
        return m;
    }

    /**
     * The probe: wake at each tick {@code windowStart + k·period} from the first one after {@link #start}, record the
     * lateness inside the window. A late start of the probe thread is itself lateness: its ticks are not skipped.
     * After a late wake-up the ticks it overran are filled in by the histogram and skipped, except that the
     * window's first tick is never skipped, so the window is covered from its start.
     */
    private void probeLoop() {
        long now;
        long k = firstTick;
        while (!Thread.currentThread().isInterrupted() && end == null) {
            long tick = windowStart + k * period;
            long wait;
            while ((wait = tick - clock.now()) > 0) {
                LockSupport.parkNanos(wait);
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
            }
            now = clock.now();
            if (tick >= endAt) {
                takeEnd();
                return;
            }
            if (tick >= windowStart) {
                if (start == null) {
                    start = Snapshot.take(clock);
                }
                synchronized (delays) {
                    delays.recordValueWithExpectedInterval(now - tick, period);
                }
            }
            long next = Math.floorDiv(now - windowStart, period) + 1;
            k = start == null ? Math.max(k + 1, Math.min(next, 0)) : Math.max(k + 1, next);
        }
    }

    private synchronized void takeEnd() {
        if (end == null) {
            end = Snapshot.take(clock);
        }
    }

    /**
     * The window ends at {@code atNanos} (run clock): the end snapshot is taken then (now if it has passed, else
     * by the probe), and later wake-ups are not recorded.
     */
    void endWindow(long atNanos) {
        endAt = Math.min(endAt, atNanos);
        if (clock.now() >= endAt) {
            takeEnd();
        }
    }

    /** Ends the window now if it has not ended, stops the probe and returns what was measured. Interrupt status is kept. */
    ClientHealth stop() {
        endWindow(clock.now());
        probe.interrupt();
        boolean interrupted = Thread.interrupted();
        try {
            probe.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        Snapshot s = start;
        Snapshot e = end;
        if (s == null || e == null || e.clockNanos <= s.clockNanos) {
            return ClientHealth.NOT_MEASURED;
        }
        synchronized (delays) {
            boolean any = delays.getTotalCount() > 0;
            return new ClientHealth(e.clockNanos - s.clockNanos, Runtime.getRuntime().availableProcessors(),
                    s.cpuNanos < 0 || e.cpuNanos < 0 ? -1 : e.cpuNanos - s.cpuNanos,
                    e.gcPauseNanos - s.gcPauseNanos, e.gcCount - s.gcCount, delays.getTotalCount(),
                    any ? delays.getValueAtPercentile(50) : -1, any ? delays.getValueAtPercentile(99) : -1,
                    any ? delays.getMaxValue() : -1, period);
        }
    }

    /** Process CPU and stop-the-world GC totals at one instant of the run clock. */
    private record Snapshot(long clockNanos, long cpuNanos, long gcPauseNanos, long gcCount) {
        static Snapshot take(RunClock clock) {
            long pauseMs = 0;
            long count = 0;
            for (GarbageCollectorMXBean gc : PAUSE_COLLECTORS) {
                pauseMs += Math.max(0, gc.getCollectionTime());
                count += Math.max(0, gc.getCollectionCount());
            }
            long cpu = processCpuNanos();
            return new Snapshot(clock.now(), cpu, TimeUnit.MILLISECONDS.toNanos(pauseMs), count);
        }
    }

    /**
     * Collectors whose times are pauses: all but those reporting concurrent work (ZGC and Shenandoah "Cycles",
     * G1 "Concurrent GC"), whose time runs beside the application.
     */
    static final List<GarbageCollectorMXBean> PAUSE_COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans().stream()
            .filter(gc -> !gc.getName().contains("Cycles") && !gc.getName().contains("Concurrent")).toList();

    static {
        processCpuNanos(); // the first look-up loads the management beans (tens of ms): not inside a snapshot
    }

    /** Loads the class (and with it the management beans) before a run's first step starts its clock. */
    static void prepare() {
        // class initialisation does the work: see the static block above
    }

    private static long processCpuNanos() {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }
}
