package dev.kneepoint.analysis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;
import tech.tablesaw.selection.Selection;

/**
 * Query verbs over the {@link Tables#requests per-request table}. Every verb returns a new table and
 * leaves its input untouched, so calls chain:
 * {@code Query.percentiles(Query.bucket(Query.ok(Query.step(t, "c=8")), "prompt_tokens", 512, 2048), "ttft_ms", "prompt_tokens_bucket")}.
 *
 * <p>Percentiles here are exact nearest-rank percentiles of the values in the table (the smallest value
 * with at least p% of the values ≤ it); they can differ from a step's HdrHistogram percentiles by up to
 * HdrHistogram's 0.1% bucket width.
 */
public final class Query {
    /** Percentiles reported by {@link #percentiles}. */
    public static final double[] PERCENTILES = {50, 90, 95, 99, 99.9};

    private Query() {}

    /** Rows of the given steps. */
    public static Table step(Table t, String... steps) {
        return t.where(t.stringColumn("step").isIn(steps));
    }

    /** Rows with the given stream tags. */
    public static Table tag(Table t, String... tags) {
        return t.where(t.stringColumn("tag").isIn(tags));
    }

    /** Rows of requests that asked for the given models (a model mix: the table's {@code model} column). */
    public static Table model(Table t, String... models) {
        if (!t.columnNames().contains("model")) {
            throw new IllegalArgumentException("the table has no model column: its requests named no model of their "
                    + "own (a model mix, Sweep.models / --model A=W,B=W, gives them one)");
        }
        return t.where(t.stringColumn("model").isIn(models));
    }

    /**
     * Rows whose outcome matches: an exact label ({@code HTTP_ERROR(429)}) or a kind
     * ({@code HTTP_ERROR}, {@code TIMEOUT}, {@code OK}).
     */
    public static Table outcome(Table t, String... labelsOrKinds) {
        Set<String> wanted = Set.of(labelsOrKinds);
        StringColumn c = t.stringColumn("outcome");
        Selection s = Selection.with();
        for (int i = 0; i < c.size(); i++) {
            String label = c.get(i);
            int p = label.indexOf('(');
            if (wanted.contains(label) || (p > 0 && wanted.contains(label.substring(0, p)))) {
                s.add(i);
            }
        }
        return t.where(s);
    }

    /** OK rows only. */
    public static Table ok(Table t) {
        return t.where(t.stringColumn("outcome").isEqualTo("OK"));
    }

    /** Rows outside warm-up: the ones step statistics are computed from. */
    public static Table measured(Table t) {
        return t.where(t.booleanColumn("warmup").isFalse());
    }

    /**
     * A copy of {@code t} with a string column {@code <column>_bucket} assigning each row to the
     * interval of {@code edges} its value falls in: {@code [lo, hi)} labels such as {@code [512, 2048)},
     * {@code [-inf, 512)} and {@code [2048, +inf)}; missing values get {@code "missing"}.
     */
    public static Table bucket(Table t, String column, double... edges) {
        double[] e = edges.clone();
        Arrays.sort(e);
        NumericColumn<?> c = t.numberColumn(column);
        StringColumn b = StringColumn.create(column + "_bucket", t.rowCount());
        for (int i = 0; i < c.size(); i++) {
            if (c.isMissing(i)) {
                b.set(i, "missing");
                continue;
            }
            double v = c.getDouble(i);
            int k = 0;
            while (k < e.length && v >= e[k]) {
                k++;
            }
            String lo = k == 0 ? "-inf" : Format.num(e[k - 1]);
            String hi = k == e.length ? "+inf" : Format.num(e[k]);
            b.set(i, "[" + lo + ", " + hi + ")");
        }
        Table copy = t.copy();
        copy.addColumns(b);
        return copy;
    }

    /**
     * Percentiles of {@code valueColumn} per group of {@code groupBy} columns (none: one row for the
     * whole table), groups in natural order ({@code c=2} before {@code c=16}, {@code [512, 2048)} before
     * {@code [2048, +inf)}). Missing values are ignored. Columns: the group columns, {@code count},
     * {@code <base>_mean<unit>}, {@code <base>_p50<unit>} ... {@code <base>_p99.9<unit>},
     * {@code <base>_max<unit>}, where {@code ttft_ms} has base {@code ttft} and unit {@code _ms}.
     */
    public static Table percentiles(Table t, String valueColumn, String... groupBy) {
        NumericColumn<?> v = t.numberColumn(valueColumn);
        List<Column<?>> keys = Arrays.stream(groupBy).<Column<?>>map(t::column).toList();
        Map<List<String>, DoubleList> groups = new LinkedHashMap<>();
        for (int i = 0; i < t.rowCount(); i++) {
            if (v.isMissing(i)) {
                continue;
            }
            List<String> key = new ArrayList<>(keys.size());
            for (Column<?> k : keys) {
                key.add(k.getString(i));
            }
            groups.computeIfAbsent(key, x -> new DoubleList()).add(v.getDouble(i));
        }
        List<List<String>> order = new ArrayList<>(groups.keySet());
        order.sort((a, b) -> {
            for (int i = 0; i < a.size(); i++) {
                int c = NaturalOrder.INSTANCE.compare(a.get(i), b.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        String unit = valueColumn.endsWith("_ms") ? "_ms" : "";
        String base = valueColumn.substring(0, valueColumn.length() - unit.length());
        Table out = Table.create(valueColumn + "_percentiles");
        for (int k = 0; k < groupBy.length; k++) {
            StringColumn c = StringColumn.create(groupBy[k]);
            for (List<String> key : order) {
                c.append(key.get(k));
            }
            out.addColumns(c);
        }
        LongColumn count = LongColumn.create("count");
        DoubleColumn mean = DoubleColumn.create(base + "_mean" + unit);
        DoubleColumn[] ps = new DoubleColumn[PERCENTILES.length];
        for (int i = 0; i < ps.length; i++) {
            ps[i] = DoubleColumn.create(base + "_p" + Format.percentile(PERCENTILES[i]) + unit);
        }
        DoubleColumn max = DoubleColumn.create(base + "_max" + unit);
        for (List<String> key : order) {
            double[] values = groups.get(key).sorted();
            count.append(values.length);
            mean.append(Arrays.stream(values).average().orElse(Double.NaN));
            for (int i = 0; i < ps.length; i++) {
                ps[i].append(nearestRank(values, PERCENTILES[i]));
            }
            max.append(values[values.length - 1]);
        }
        out.addColumns(count, mean);
        out.addColumns(ps);
        out.addColumns(max);
        return out;
    }

    /** Nearest-rank percentile of a column's non-missing values; NaN when there are none. */
    public static double percentile(Table t, String column, double percentile) {
        NumericColumn<?> v = t.numberColumn(column);
        DoubleList l = new DoubleList();
        for (int i = 0; i < v.size(); i++) {
            if (!v.isMissing(i)) {
                l.add(v.getDouble(i));
            }
        }
        return nearestRank(l.sorted(), percentile);
    }

    static double nearestRank(double[] sorted, double percentile) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + percentile);
        }
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
        return sorted[Math.max(1, Math.min(rank, sorted.length)) - 1];
    }

    /** A growable double array. */
    static final class DoubleList {
        private double[] a = new double[16];
        private int n;

        void add(double v) {
            if (n == a.length) {
                a = Arrays.copyOf(a, n * 2);
            }
            a[n++] = v;
        }

        double[] sorted() {
            double[] s = Arrays.copyOf(a, n);
            Arrays.sort(s);
            return s;
        }
    }

    /** Orders strings by their first number when both have one at the same prefix, else lexicographically. */
    static final class NaturalOrder implements java.util.Comparator<String> {
        static final NaturalOrder INSTANCE = new NaturalOrder();

        @Override
        public int compare(String a, String b) {
            double x = leadingNumber(a);
            double y = leadingNumber(b);
            if (!Double.isNaN(x) && !Double.isNaN(y) && prefix(a).equals(prefix(b)) && x != y) {
                return Double.compare(x, y);
            }
            return a.compareTo(b);
        }

        private static String prefix(String s) {
            int i = firstNumber(s);
            return i < 0 ? s : s.substring(0, i);
        }

        private static int firstNumber(String s) {
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (Character.isDigit(c) || ((c == '-' || c == '+') && s.startsWith("inf", i + 1))) {
                    return i;
                }
            }
            return -1;
        }

        private static double leadingNumber(String s) {
            int i = firstNumber(s);
            if (i < 0) {
                return Double.NaN;
            }
            if (s.startsWith("-inf", i)) {
                return Double.NEGATIVE_INFINITY;
            }
            if (s.startsWith("+inf", i)) {
                return Double.POSITIVE_INFINITY;
            }
            int j = i;
            while (j < s.length() && (Character.isDigit(s.charAt(j)) || s.charAt(j) == '.')) {
                j++;
            }
            try {
                return Double.parseDouble(s.substring(i, j).toLowerCase(Locale.ROOT));
            } catch (NumberFormatException e) {
                return Double.NaN;
            }
        }
    }
}
