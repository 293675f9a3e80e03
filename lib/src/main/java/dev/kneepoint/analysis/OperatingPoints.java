package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Slo;

/**
 * Where to run the service, for each of the two goals a team may have (docs/ANALYSIS.md "Operating points"): the
 * source article's efficient zone depends on the application, and a batch team chooses differently from a chat one.
 *
 * <ul>
 *   <li><b>latency-first</b> (interactive traffic): the SLO capacity less {@link #HEADROOM} when a latency SLO is
 *       given and some step meets it, since bursts above the mean rate queue (Poisson traffic at 100 % of capacity
 *       waits without bound; 70-80 % is the usual planning point); without a latency SLO, the top of the efficient
 *       zone (the knee), where latency starts to rise faster than throughput;</li>
 *   <li><b>throughput-first</b> (batch, offline): the highest sustainable step, no headroom; not judged for a
 *       closed loop without a latency SLO (a closed loop sustains every load, only slower).</li>
 * </ul>
 *
 * @param latencyFirst    the interactive point
 * @param throughputFirst the batch point
 */
public record OperatingPoints(Point latencyFirst, Point throughputFirst) {

    /** Share of the SLO capacity kept free at the latency-first point: it runs at 75 % of the capacity. */
    public static final double HEADROOM = 0.25;

    /**
     * One operating point.
     *
     * @param step the measured step it rests on, null when there is none
     * @param load the load to run at (a concurrency or a rate; below the step's own for a headroom); NaN when none
     * @param why  how it was chosen, in words
     */
    public record Point(String step, double load, String why) {
        /** Whether a load is named. */
        public boolean named() {
            return !Double.isNaN(load);
        }
    }

    static OperatingPoints of(LoadCurve l, Slo slo, int top, int knee, int sustainable, int peak) {
        return new OperatingPoints(latencyFirst(l, slo, top, knee, sustainable), throughputFirst(l, slo, sustainable, peak));
    }

    /**
     * After an SLO capacity search, both points rest on its answer, the highest passing probe: latency-first at
     * {@code 1 - HEADROOM} of it, throughput-first at it; the knee's points when the search found no passing load.
     */
    OperatingPoints after(SloCapacity search, boolean openLoop) {
        if (search == null || search.maxPassing() == null) {
            return this;
        }
        SloCapacity.Probe p = search.maxPassing();
        double load = openLoop ? p.load() * (1 - HEADROOM) : Math.max(1, Math.floor(p.load() * (1 - HEADROOM)));
        return new OperatingPoints(new Point(p.step(), load, Format.pct(1 - HEADROOM) + " of the searched SLO "
                + "capacity " + p.step() + ", " + Format.pct(HEADROOM) + " headroom for bursts"),
                new Point(p.step(), p.load(), "the searched SLO capacity, no headroom"));
    }

    private static Point latencyFirst(LoadCurve l, Slo slo, int top, int knee, int sustainable) {
        if (!slo.isEmpty() && sustainable >= 0) {
            double capacity = l.load(sustainable);
            double load = l.openLoop() ? capacity * (1 - HEADROOM) : Math.max(1, Math.floor(capacity * (1 - HEADROOM)));
            return new Point(l.label(sustainable), load, Format.pct(1 - HEADROOM) + " of the SLO capacity "
                    + l.label(sustainable) + ", " + Format.pct(HEADROOM) + " headroom for bursts");
        }
        if (top >= 0) {
            return new Point(l.label(top), l.load(top), top == knee ? "the knee" : knee < 0
                    ? "the top of the efficient range, no knee in the tested range" : "the top of the efficient range");
        }
        return new Point(null, Double.NaN, "none: no step at or below the knee meets the SLO set");
    }

    private static Point throughputFirst(LoadCurve l, Slo slo, int sustainable, int peak) {
        if (!Knee.judgesSustainable(l, slo)) {
            return new Point(null, Double.NaN, "not judged without a latency SLO (a closed loop sustains every load, "
                    + "only slower)" + (peak >= 0 ? "; peak throughput at " + l.label(peak) : ""));
        }
        if (sustainable < 0) {
            return new Point(null, Double.NaN, "none: no step " + (slo.isEmpty() ? "kept up with its offered rate"
                    : "meets the SLO set" + (l.openLoop() ? " and kept up" : "")));
        }
        return new Point(l.label(sustainable), l.load(sustainable), "the highest sustainable step, no headroom");
    }

    /** The answer's sentence, e.g. "Operating points: latency-first c=48 (75% of ...); throughput-first c=64 (...)." */
    String sentence(LoadCurve l) {
        return "Operating points: latency-first " + text(l, latencyFirst) + "; throughput-first "
                + text(l, throughputFirst) + ".";
    }

    private static String text(LoadCurve l, Point p) {
        if (!p.named()) {
            return p.why();
        }
        // a batch-size ladder's steps share one load: its points are named by their steps (b=16)
        String load = l.oneLoad() && p.step() != null ? p.step()
                : l.openLoop() ? "rate=" + Format.num(p.load()) : "c=" + (long) p.load();
        return load + " (" + p.why() + ")";
    }
}
