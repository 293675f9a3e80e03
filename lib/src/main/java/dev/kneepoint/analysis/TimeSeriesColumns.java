package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RequestRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.HdrHistogram.IntCountsHistogram;
import tech.tablesaw.api.Table;

/**
 * One streaming pass from request records to fixed-interval time series (see {@link Tables#timeSeries}).
 * Memory is per interval, not per request: three 2-significant-digit histograms (1% resolution,
 * 1 µs floor) per interval. With a bin limit, the interval doubles (neighbouring bins merge, all their
 * facts being additive) whenever a record would need more bins, so a run of any length costs at most
 * {@code maxBins} intervals.
 */
final class TimeSeriesColumns {
    private static final int DIGITS = 2;
    private static final long FLOOR_NANOS = 1_000;

    private long interval;
    private final int maxBins;
    private List<Bin> bins = new ArrayList<>();

    private static final class Bin {
        long tokens;
        long ok;
        long failures;
        long cancelled;
        double busyNanos;
        IntCountsHistogram ttft;
        IntCountsHistogram ttftSched;
        IntCountsHistogram itl;
        final Map<String, Integer> dispatchesByStep = new HashMap<>();

        void merge(Bin o) {
            tokens += o.tokens;
            ok += o.ok;
            failures += o.failures;
            cancelled += o.cancelled;
            busyNanos += o.busyNanos;
            ttft = merged(ttft, o.ttft);
            ttftSched = merged(ttftSched, o.ttftSched);
            itl = merged(itl, o.itl);
            o.dispatchesByStep.forEach((k, v) -> dispatchesByStep.merge(k, v, Integer::sum));
        }

        private static IntCountsHistogram merged(IntCountsHistogram a, IntCountsHistogram b) {
            if (a == null) {
                return b;
            }
            if (b != null) {
                a.add(b);
            }
            return a;
        }
    }

    TimeSeriesColumns(Duration interval) {
        this(interval, Integer.MAX_VALUE);
    }

    /** Starts at {@code interval}, doubling it whenever more than {@code maxBins} intervals would be needed. */
    TimeSeriesColumns(Duration interval, int maxBins) {
        if (interval == null || interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("interval must be a positive duration, got " + interval);
        }
        if (maxBins < 1) {
            throw new IllegalArgumentException("maxBins must be positive, got " + maxBins);
        }
        this.interval = interval.toNanos();
        this.maxBins = maxBins;
    }

    /** The current interval. */
    Duration interval() {
        return Duration.ofNanos(interval);
    }

    /** Merges every {@code factor} neighbouring intervals into one. */
    void coarsen(int factor) {
        if (factor < 1) {
            throw new IllegalArgumentException("factor must be positive, got " + factor);
        }
        if (factor == 1) {
            return;
        }
        List<Bin> merged = new ArrayList<>((bins.size() + factor - 1) / factor);
        for (int i = 0; i < bins.size(); i++) {
            if (i % factor == 0) {
                merged.add(bins.get(i));
            } else {
                merged.get(merged.size() - 1).merge(bins.get(i));
            }
        }
        bins = merged;
        interval = Math.multiplyExact(interval, factor);
    }

    /** Coarsens until an instant at {@code nanos} fits in {@code maxBins} intervals. */
    private void fit(long nanos) {
        while (nanos / interval >= maxBins) {
            coarsen(2);
        }
    }

    private Bin bin(long nanos) {
        int i = (int) (nanos / interval);
        while (bins.size() <= i) {
            bins.add(new Bin());
        }
        return bins.get(i);
    }

    private static IntCountsHistogram record(IntCountsHistogram h, long nanos, long count) {
        IntCountsHistogram out = h != null ? h : new IntCountsHistogram(FLOOR_NANOS, 2 * FLOOR_NANOS, DIGITS);
        if (h == null) {
            out.setAutoResize(true);
        }
        out.recordValueWithCount(Math.max(FLOOR_NANOS, nanos), count);
        return out;
    }

    void add(RequestRecord r) {
        RequestRecord.Timing timing = r.timing();
        long[] t = timing.chunkNanos();
        int[] k = timing.chunkTokens();
        if (maxBins != Integer.MAX_VALUE) {
            long last = Math.max(Math.max(timing.endNanos(), timing.lastTokenNanos()),
                    Math.max(timing.dispatchNanos(), timing.firstTokenNanos()));
            for (long c : t) {
                last = Math.max(last, c);
            }
            fit(last);
        }
        boolean ok = r.isOk();
        Bin chunkBin = null;
        long chunkBinStart = 0;
        long chunkBinEnd = 0; // chunkBin covers [chunkBinStart, chunkBinEnd): reused without a division
        for (int i = 0; i < t.length; i++) {
            if (t[i] < 0) {
                continue;
            }
            if (chunkBin == null || t[i] < chunkBinStart || t[i] >= chunkBinEnd) {
                chunkBin = bin(t[i]);
                chunkBinStart = t[i] / interval * interval;
                chunkBinEnd = chunkBinStart + interval;
            }
            chunkBin.tokens += k[i];
            if (i > 0 && k[i] > 0 && ok) {
                chunkBin.itl = record(chunkBin.itl, Math.max(0, t[i] - t[i - 1]) / k[i], k[i]);
            }
        }
        long end = timing.endNanos() >= 0 ? timing.endNanos()
                : Math.max(timing.lastTokenNanos(), timing.dispatchNanos());
        if (end >= 0) {
            Bin b = bin(end);
            switch (r.outcome()) {
                case dev.kneepoint.metrics.Outcome.Ok o -> b.ok++;
                case dev.kneepoint.metrics.Outcome.Cancelled c -> b.cancelled++;
                case dev.kneepoint.metrics.Outcome.Abandoned a -> b.cancelled++; // neither OK nor a failure
                default -> b.failures++;
            }
        }
        if (r.isOk() && timing.firstTokenNanos() >= 0) {
            Bin b = bin(timing.firstTokenNanos());
            if (r.ttftNanos() >= 0) {
                b.ttft = record(b.ttft, r.ttftNanos(), 1);
            }
            if (r.ttftSchedNanos() >= 0) {
                b.ttftSched = record(b.ttftSched, r.ttftSchedNanos(), 1);
            }
        }
        long dispatch = timing.dispatchNanos();
        if (dispatch >= 0) {
            bin(dispatch).dispatchesByStep.merge(r.step(), 1, Integer::sum);
            for (long from = dispatch; from < end; ) {
                long binEnd = (from / interval + 1) * interval;
                long to = Math.min(end, binEnd);
                bin(from).busyNanos += to - from;
                from = to;
            }
        }
    }

    Table toTable() {
        double seconds = interval / 1e9;
        return TableRows.of(IntStream.range(0, bins.size()).boxed().toList())
                .doubles("t_start_s", i -> i * seconds)
                .doubles("t_end_s", i -> (i + 1) * seconds)
                .text("step", i -> busiestStep(bins.get(i)))
                .doubles("output_tokens_per_s", i -> bins.get(i).tokens / seconds)
                .doubles("requests_per_s", i -> bins.get(i).ok / seconds)
                .doubles("in_flight_mean", i -> bins.get(i).busyNanos / interval)
                .ints("failures", i -> (int) Math.min(Integer.MAX_VALUE, bins.get(i).failures))
                .doubles("ttft_p50_ms", i -> pct(bins.get(i).ttft, 50))
                .doubles("ttft_p99_ms", i -> pct(bins.get(i).ttft, 99))
                .doubles("ttft_sched_p99_ms", i -> pct(bins.get(i).ttftSched, 99))
                .doubles("itl_p50_ms", i -> pct(bins.get(i).itl, 50))
                .doubles("itl_p99_ms", i -> pct(bins.get(i).itl, 99))
                .table("time_series");
    }

    /** The step that dispatched most requests in the bin (of equal counts, the label first in alphabetical order), or "" when none did. */
    private static String busiestStep(Bin b) {
        return b.dispatchesByStep.entrySet().stream()
                .max(Map.Entry.<String, Integer>comparingByValue()
                        .thenComparing(Map.Entry::getKey, java.util.Comparator.reverseOrder()))
                .map(Map.Entry::getKey).orElse("");
    }

    private static double pct(IntCountsHistogram h, double p) {
        return h == null || h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(p) / 1e6;
    }
}
