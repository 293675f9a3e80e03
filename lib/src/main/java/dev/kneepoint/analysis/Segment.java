package dev.kneepoint.analysis;

/**
 * Elasticity between two neighbouring steps of a ladder (package-private: the public face is the
 * elasticity table of {@link KneeReport}).
 */
record Segment(int from, int to, double dlnT, double dlnL, double elasticity, boolean elastic, String verdict) {
    /**
     * A latency rise smaller than this (ms) is noise, not sluggishness: on a fast service a rise from 2.0 to 2.4 ms
     * would otherwise be an elasticity near 0 and make a knee of nothing.
     */
    static final double LATENCY_FLOOR_MS = 1.0;

    static Segment of(int from, int to, double t0, double t1, double l0, double l1) {
        if (!(t0 > 0 && t1 > 0 && l0 > 0 && l1 > 0)) {
            return new Segment(from, to, Double.NaN, Double.NaN, Double.NaN, false, "no data");
        }
        double dlnT = Math.log(t1) - Math.log(t0);
        double dlnL = Math.log(l1) - Math.log(l0);
        if (dlnL <= 0) {
            if (dlnT >= 0) {
                return new Segment(from, to, dlnT, dlnL, Double.POSITIVE_INFINITY, true, "latency flat or falling");
            }
            return new Segment(from, to, dlnT, dlnL, dlnL == 0 ? Double.NEGATIVE_INFINITY : dlnT / dlnL, false,
                    "throughput fell");
        }
        double e = dlnT / dlnL;
        if (dlnT >= 0 && l1 - l0 < LATENCY_FLOOR_MS) {
            return new Segment(from, to, dlnT, dlnL, e, true, "latency rise under the 1 ms floor");
        }
        if (dlnT < 0) {
            return new Segment(from, to, dlnT, dlnL, e, false, "throughput fell, latency rose");
        }
        return e >= 1 ? new Segment(from, to, dlnT, dlnL, e, true, "elastic (e >= 1)")
                : new Segment(from, to, dlnT, dlnL, e, false, "inelastic (e < 1)");
    }
}
