package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Connection;
import dev.kneepoint.metrics.RequestRecord;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * One streaming pass from request records to the per-request table: the facts go into primitive
 * arrays (no per-request objects are kept) and then into exactly-sized Tablesaw columns.
 * About 140 bytes per request once built (13 doubles, 4 ints, 1 long, 4 dictionary-coded strings (5 with
 * {@code model}, the model a request of a model mix asked for), 4 booleans).
 * {@code setup_ms} is a new connection's DNS, connect and TLS time ({@code NaN} on a kept-alive connection, where
 * {@code new_connection} is false): the part of {@code ttfb_ms} and {@code ttft_ms} the network setup took.
 */
final class RequestColumns {
    private static final double MS = 1e6;
    private static final double S = 1e9;
    private static final String[] DOUBLES = {"intended_s", "dispatch_s", "end_s", "schedule_lag_ms", "ttft_ms",
        "ttft_sched_ms", "tpot_ms", "e2e_ms", "e2e_sched_ms", "chunk_gap_max_ms", "user_tokens_per_s", "ttfb_ms", "setup_ms"};
    private static final String[] INTS = {"prompt_tokens", "output_tokens", "requested_output_tokens", "chunks"};
    /** The last, {@code model}, is a column only when some request named a model of its own (a model mix). */
    private static final String[] STRINGS = {"step", "tag", "outcome", "token_source", "model"};
    private boolean anyModel;

    private int n;
    private int capacity;
    private long[] id;
    private final double[][] doubles = new double[DOUBLES.length][];
    private final int[][] ints = new int[INTS.length][];
    private final short[][] codes = new short[STRINGS.length][];
    private final java.util.List<Map<String, Short>> dictionaries = new java.util.ArrayList<>();
    private boolean[] warmup;
    private boolean[] retried;
    private boolean[] fresh;
    private boolean[] invalid;

    RequestColumns(int expected) {
        capacity = Math.max(16, expected);
        id = new long[capacity];
        warmup = new boolean[capacity];
        retried = new boolean[capacity];
        fresh = new boolean[capacity];
        invalid = new boolean[capacity];
        for (int i = 0; i < DOUBLES.length; i++) {
            doubles[i] = new double[capacity];
        }
        for (int i = 0; i < INTS.length; i++) {
            ints[i] = new int[capacity];
        }
        for (int i = 0; i < STRINGS.length; i++) {
            codes[i] = new short[capacity];
            dictionaries.add(new LinkedHashMap<>());
        }
    }

    static Table of(Iterable<RequestRecord> records) {
        RequestColumns c = new RequestColumns(records instanceof Collection<?> col ? col.size() : 1024);
        for (RequestRecord r : records) {
            c.add(r);
        }
        return c.toTable();
    }

    void add(RequestRecord r) {
        if (n == capacity) {
            grow();
        }
        id[n] = r.id();
        warmup[n] = r.warmup();
        retried[n] = r.response().retried();
        Connection connection = r.response().connection();
        fresh[n] = connection.fresh();
        invalid[n] = r.response().outputInvalid();
        doubles[0][n] = seconds(r.timing().intendedNanos());
        doubles[1][n] = seconds(r.timing().dispatchNanos());
        doubles[2][n] = seconds(end(r));
        doubles[3][n] = ms(r.scheduleLagNanos());
        doubles[4][n] = ms(r.ttftNanos());
        doubles[5][n] = ms(r.ttftSchedNanos());
        doubles[6][n] = ms(r.tpotNanos());
        doubles[7][n] = ms(r.e2eNanos());
        doubles[8][n] = ms(r.e2eSchedNanos());
        doubles[9][n] = ms(maxGap(r));
        doubles[10][n] = r.userTokensPerSecond();
        doubles[11][n] = ms(r.ttfbNanos());
        doubles[12][n] = connection.fresh() ? ms(connection.setupNanos()) : Double.NaN;
        ints[0][n] = r.tokens().promptTokens() < 0 ? Integer.MIN_VALUE : r.tokens().promptTokens();
        ints[1][n] = r.tokens().outputTokens();
        ints[2][n] = r.tokens().requestedOutputTokens() < 0 ? Integer.MIN_VALUE : r.tokens().requestedOutputTokens();
        ints[3][n] = r.timing().chunkNanos().length;
        code(0, r.step());
        code(1, r.tag());
        code(2, r.outcome().label());
        code(3, r.tokens().tokenSource().label());
        code(4, r.model() == null ? "" : r.model());
        anyModel |= r.model() != null;
        n++;
    }

    private void code(int column, String value) {
        Map<String, Short> dict = dictionaries.get(column);
        Short code = dict.get(value);
        if (code == null) {
            if (dict.size() == Short.MAX_VALUE) {
                throw new IllegalStateException("more than " + Short.MAX_VALUE + " distinct " + STRINGS[column] + " values");
            }
            code = (short) dict.size();
            dict.put(value, code);
        }
        codes[column][n] = code;
    }

    private static long end(RequestRecord r) {
        RequestRecord.Timing t = r.timing();
        return t.endNanos() >= 0 ? t.endNanos() : Math.max(t.lastTokenNanos(), t.dispatchNanos());
    }

    private static long maxGap(RequestRecord r) {
        long[] t = r.timing().chunkNanos();
        if (t.length < 2) {
            return -1;
        }
        long max = 0;
        for (int i = 1; i < t.length; i++) {
            max = Math.max(max, t[i] - t[i - 1]);
        }
        return max;
    }

    private static double ms(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / MS;
    }

    private static double seconds(long nanos) {
        return nanos < 0 ? Double.NaN : nanos / S;
    }

    private void grow() {
        capacity = capacity + (capacity >> 1);
        id = Arrays.copyOf(id, capacity);
        warmup = Arrays.copyOf(warmup, capacity);
        retried = Arrays.copyOf(retried, capacity);
        fresh = Arrays.copyOf(fresh, capacity);
        invalid = Arrays.copyOf(invalid, capacity);
        for (int i = 0; i < doubles.length; i++) {
            doubles[i] = Arrays.copyOf(doubles[i], capacity);
        }
        for (int i = 0; i < ints.length; i++) {
            ints[i] = Arrays.copyOf(ints[i], capacity);
        }
        for (int i = 0; i < codes.length; i++) {
            codes[i] = Arrays.copyOf(codes[i], capacity);
        }
    }

    Table toTable() {
        Table t = Table.create("requests");
        t.addColumns(LongColumn.create("id", Arrays.copyOf(id, n)));
        id = null;
        for (int i = 0; i < STRINGS.length - (anyModel ? 0 : 1); i++) {
            String[] names = dictionaries.get(i).keySet().toArray(new String[0]);
            StringColumn col = StringColumn.create(STRINGS[i]);
            short[] c = codes[i];
            for (int row = 0; row < n; row++) {
                col.append(names[c[row]]);
            }
            codes[i] = null;
            t.addColumns(col);
        }
        t.addColumns(BooleanColumn.create("warmup", Arrays.copyOf(warmup, n)));
        warmup = null;
        t.addColumns(BooleanColumn.create("retried", Arrays.copyOf(retried, n)));
        retried = null;
        t.addColumns(BooleanColumn.create("new_connection", Arrays.copyOf(fresh, n)));
        fresh = null;
        t.addColumns(BooleanColumn.create("output_invalid", Arrays.copyOf(invalid, n)));
        invalid = null;
        for (int i = 0; i < DOUBLES.length; i++) {
            t.addColumns(DoubleColumn.create(DOUBLES[i], Arrays.copyOf(doubles[i], n)));
            doubles[i] = null;
        }
        for (int i = 0; i < INTS.length; i++) {
            t.addColumns(IntColumn.create(INTS[i], Arrays.copyOf(ints[i], n)));
            ints[i] = null;
        }
        return t;
    }
}
