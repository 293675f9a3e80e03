package dev.kneepoint.cli.bench;

/**
 * A figure's target as an issue states it: a bound the figure must not cross, the nominal value that
 * ratios are taken against (the bound itself unless a tolerance is stated), and the words for the report.
 *
 * @param op      whether the figure must stay at most or at least at the bound
 * @param bound   the value judged against (inclusive)
 * @param nominal the number, for {@link #ratio}
 * @param text    the target as the report shows it, e.g. {@code "≤ 1 ms"}
 */
record Target(Op op, double bound, double nominal, String text) {
    /** Direction of a target. */
    public enum Op {
        /** The figure must be at most the bound (latencies, sizes). */
        AT_MOST,
        /** The figure must be at least the bound (rates, counts). */
        AT_LEAST
    }

    public Target {
        if (op == null || text == null || !Double.isFinite(bound) || !(nominal > 0 || nominal < 0)) {
            throw new IllegalArgumentException("a target needs an op, a text, a finite bound and a non-zero nominal value; got "
                    + op + ", " + text + ", " + bound + ", " + nominal);
        }
    }

    /** At most {@code bound}. */
    public static Target atMost(double bound, String text) {
        return new Target(Op.AT_MOST, bound, bound, text);
    }

    /** At least {@code bound}. */
    public static Target atLeast(double bound, String text) {
        return new Target(Op.AT_LEAST, bound, bound, text);
    }

    /** At least {@code bound}, where {@code nominal} is the number and the bound allows a stated tolerance. */
    public static Target atLeast(double bound, double nominal, String text) {
        return new Target(Op.AT_LEAST, bound, nominal, text);
    }

    /** Whether {@code value} meets the target; a missing value (NaN) never does. */
    public boolean met(double value) {
        if (Double.isNaN(value)) {
            return false;
        }
        return op == Op.AT_MOST ? value <= bound : value >= bound;
    }

    /** {@code value / nominal}: below 1 is better for an at-most target, above 1 for an at-least one. */
    public double ratio(double value) {
        return value / nominal;
    }
}
