package dev.kneepoint.metrics;

import java.math.BigInteger;

/**
 * Exact sums for a {@link LatencyTrend}: x = intended start, y = {@code ttft_sched}, both in whole microseconds,
 * accumulated in 128-bit integers so that the fitted line does not depend on the order the records came in.
 * Not thread-safe (the aggregator holds its lock).
 */
final class TrendSums {
    private long n;
    private long minX = Long.MAX_VALUE;
    private long maxX = Long.MIN_VALUE;
    private final Int128 sx = new Int128();
    private final Int128 sy = new Int128();
    private final Int128 sxx = new Int128();
    private final Int128 sxy = new Int128();
    private final Int128 syy = new Int128();

    /** Adds one OK request: its intended start and its {@code ttft_sched}, nanoseconds (negative: not measured). */
    void add(long intendedNanos, long ttftSchedNanos) {
        if (intendedNanos < 0 || ttftSchedNanos < 0) {
            return;
        }
        long x = intendedNanos / 1_000;
        long y = ttftSchedNanos / 1_000;
        n++;
        minX = Math.min(minX, x);
        maxX = Math.max(maxX, x);
        sx.add(x, 1);
        sy.add(y, 1);
        sxx.add(x, x);
        sxy.add(x, y);
        syy.add(y, y);
    }

    /** The fitted trend of what was added. */
    LatencyTrend trend() {
        if (n == 0) {
            return LatencyTrend.NONE;
        }
        BigInteger count = BigInteger.valueOf(n);
        double meanMs = sy.value().doubleValue() / n / 1e3;
        double spanS = (maxX - minX) / 1e6;
        BigInteger dxx = count.multiply(sxx.value()).subtract(sx.value().pow(2));
        if (n < LatencyTrend.MIN_REQUESTS || dxx.signum() == 0) {
            return new LatencyTrend(n, spanS, Double.NaN, meanMs, Double.NaN);
        }
        BigInteger dxy = count.multiply(sxy.value()).subtract(sx.value().multiply(sy.value()));
        BigInteger dyy = count.multiply(syy.value()).subtract(sy.value().pow(2));
        double slope = dxy.doubleValue() / dxx.doubleValue(); // µs of latency per µs of start time
        double t;
        if (dyy.signum() == 0) {
            t = 0;
        } else {
            double r2 = dxy.pow(2).doubleValue() / dxx.multiply(dyy).doubleValue();
            t = Math.signum(slope) * (r2 >= 1 ? LatencyTrend.T_CAP
                    : Math.min(LatencyTrend.T_CAP, Math.sqrt(r2 * (n - 2) / (1 - r2))));
        }
        return new LatencyTrend(n, spanS, slope * 1e3, meanMs, t);
    }

    /** A signed 128-bit sum of products of longs. */
    private static final class Int128 {
        private long hi;
        private long lo;

        void add(long a, long b) {
            long pLo = a * b;
            long pHi = Math.multiplyHigh(a, b);
            long sum = lo + pLo;
            hi += pHi + (Long.compareUnsigned(sum, lo) < 0 ? 1 : 0);
            lo = sum;
        }

        BigInteger value() {
            return BigInteger.valueOf(hi).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(lo)));
        }
    }
}
