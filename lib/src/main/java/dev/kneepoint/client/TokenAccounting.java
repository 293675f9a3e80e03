package dev.kneepoint.client;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Token-count arithmetic from METRICS.md "Token counts": scaling per-chunk counts to a server total
 * with largest-remainder rounding, so that the scaled counts are integers that sum exactly to the
 * total and the result is deterministic.
 */
final class TokenAccounting {
    private TokenAccounting() {
    }

    /**
     * Scales {@code counts} proportionally so that they sum to {@code total}. Each chunk first gets
     * {@code floor(c_i * total / sum)}; the units still missing go, one each, to the chunks with
     * the largest remainders, ties broken by the lower index. When all counts are zero every chunk
     * weighs one.
     *
     * @param counts non-negative per-chunk counts (not modified)
     * @param total  the server's total, at least 0
     * @return a new array of the same length summing to {@code total} (empty when {@code counts} is)
     */
    public static int[] scaleLargestRemainder(int[] counts, int total) {
        if (total < 0) {
            throw new IllegalArgumentException("total must be >= 0, got " + total);
        }
        int n = counts.length;
        if (n == 0) {
            return new int[0];
        }
        long sum = 0;
        for (int c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("counts must be >= 0: " + Arrays.toString(counts));
            }
            sum += c;
        }
        boolean uniform = sum == 0;
        if (uniform) {
            sum = n;
        }
        int[] out = new int[n];
        long[] rem = new long[n];
        long assigned = 0;
        for (int i = 0; i < n; i++) {
            long w = uniform ? 1 : counts[i];
            long num = w * total;
            out[i] = (int) (num / sum);
            rem[i] = num % sum;
            assigned += out[i];
        }
        int missing = (int) (total - assigned);
        if (missing > 0) {
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.<Integer>comparingLong(i -> -rem[i]).thenComparingInt(i -> i));
            for (int k = 0; k < missing; k++) {
                out[order[k]]++;
            }
        }
        return out;
    }

    /** Sum of the counts. */
    public static int sum(int[] counts) {
        int s = 0;
        for (int c : counts) {
            s += c;
        }
        return s;
    }
}
