package dev.kneepoint.telemetry;

import dev.kneepoint.telemetry.TelemetrySample.Kind;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A layout of {@code nvidia-smi --query-gpu=... --format=csv[,noheader][,nounits]} output: which column holds
 * which field and which unit its values carry. The sampler's own form ({@link #sampler()}: {@link
 * GpuMetrics#QUERY}, no header, no units) and any form with a header ({@link #ofHeader}: any field order,
 * with or without units, other fields ignored, as in a log written with {@code nvidia-smi --query-gpu=... --format=csv
 * -lms 500 -f gpu.csv} on a server host) give the same samples.
 *
 * <p>What real nvidia-smi output does, and this reads (recorded captures in the test fixtures): a {@code clocks.sm}
 * query is headed {@code clocks.current.sm [MHz]}; with units a value reads {@code 19818 MiB}, {@code 631.95 W},
 * {@code 100 %}, {@code 1980 MHz}; a field the device does not report reads {@code [N/A]} or {@code [Not Supported]}
 * (all {@code utilization.*} fields under MIG) and gives no sample, never a zero. A {@code name} column gives no
 * sample but names the row's GPU ({@link #device}); as the last column it keeps any comma a name might hold.
 */
final class NvidiaSmiCsv {
    /** A row's GPU: its index and, when the layout has a {@code name} column, its name (else empty). */
    record Device(String index, String name) {}

    /** A query field this reader maps, its sample name and the unit nvidia-smi prints with it. */
    private record Field(String query, String alias, String sample, String unit, double factor) {}

    private static final double MIB = 1024.0 * 1024.0;
    private static final List<Field> FIELDS = List.of(
            new Field("utilization.gpu", "utilization.gpu", "gpu_util_pct", "%", 1),
            new Field("memory.used", "memory.used", "mem_used_bytes", "MiB", MIB),
            new Field("memory.total", "memory.total", "mem_total_bytes", "MiB", MIB),
            new Field("power.draw", "power.draw", "power_w", "W", 1),
            new Field("temperature.gpu", "temperature.gpu", "temp_c", "", 1),
            new Field("clocks.sm", "clocks.current.sm", "sm_clock_mhz", "MHz", 1));
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSS", Locale.ROOT);
    /** The query's field list is itself a header without units: the sampler's columns, in its order. */
    private static final NvidiaSmiCsv SAMPLER = ofHeader(GpuMetrics.QUERY);

    private final int indexColumn;
    private final int timestampColumn;
    private final int nameColumn;
    private final Field[] columns; // null: a column this reader does not map
    private final boolean units;
    private final String described;

    private NvidiaSmiCsv(int indexColumn, int timestampColumn, int nameColumn, Field[] columns, boolean units,
                         String described) {
        this.indexColumn = indexColumn;
        this.timestampColumn = timestampColumn;
        this.nameColumn = nameColumn;
        this.columns = columns;
        this.units = units;
        this.described = described;
    }

    /** The sampler's layout: {@link GpuMetrics#QUERY} in that order, {@code --format=csv,noheader,nounits}. */
    public static NvidiaSmiCsv sampler() {
        return SAMPLER;
    }

    /** True when the line is a header (names a column {@code index}) rather than a row of values. */
    public static boolean isHeader(String line) {
        for (String c : line.split(",", -1)) {
            if (name(c).equals("index")) {
                return true;
            }
        }
        return false;
    }

    /**
     * The layout a header line announces, e.g. {@code timestamp, index, utilization.gpu [%], memory.used [MiB]}.
     *
     * @throws IllegalArgumentException when it has no {@code index} column or none of the fields read here
     */
    public static NvidiaSmiCsv ofHeader(String header) {
        String[] cells = header.split(",", -1);
        Field[] columns = new Field[cells.length];
        int index = -1;
        int timestamp = -1;
        int gpuName = -1;
        boolean units = false;
        int mapped = 0;
        for (int i = 0; i < cells.length; i++) {
            String name = name(cells[i]);
            units |= cells[i].contains("[");
            if (name.equals("index")) {
                index = i;
            } else if (name.equals("timestamp")) {
                timestamp = i;
            } else if (name.equals("name")) {
                gpuName = i;
            }
            for (Field f : FIELDS) {
                if (name.equals(f.query()) || name.equals(f.alias())) {
                    columns[i] = f;
                    mapped++;
                }
            }
        }
        List<String> problems = new ArrayList<>();
        if (index < 0) {
            problems.add("no 'index' column: query index with the other fields (--query-gpu=index,...)");
        }
        if (mapped == 0) {
            problems.add("none of the fields read here (" + GpuMetrics.QUERY + ")");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("not an nvidia-smi --query-gpu header: " + String.join("; ", problems)
                    + ": '" + abbreviate(header) + "'");
        }
        return new NvidiaSmiCsv(index, timestamp, gpuName, columns, units, header.strip());
    }

    /**
     * The samples of one row of values, at {@code tNanos} on the run clock, labelled with the row's GPU index.
     *
     * @throws IllegalArgumentException when the row has not as many fields as the layout, no GPU index, or a value
     *         that is neither a number (with this column's unit, if any) nor a not-available mark
     */
    public List<TelemetrySample> samples(String line, long tNanos) {
        String[] f = cells(line);
        if (f.length != columns.length) {
            throw new IllegalArgumentException("expected " + columns.length + " comma-separated fields (" + abbreviate(described)
                    + "), got " + f.length + ": '" + abbreviate(line.strip()) + "'");
        }
        String index = f[indexColumn].strip();
        if (!index.matches("\\d+")) {
            throw new IllegalArgumentException("expected a GPU index in column " + (indexColumn + 1) + ", got '" + index + "'");
        }
        Map<String, String> labels = Map.of("gpu", index);
        List<TelemetrySample> out = new ArrayList<>(FIELDS.size());
        for (int i = 0; i < f.length; i++) {
            Field field = columns[i];
            if (field == null) {
                continue;
            }
            double v = number(field, f[i]);
            if (!Double.isNaN(v)) {
                out.add(TelemetrySample.of(tNanos, "gpu", field.sample(), labels, Kind.GAUGE, v * field.factor()));
            }
        }
        return out;
    }

    /**
     * The GPU of a row that {@link #samples} accepted: its index, and its name from the {@code name} column (empty
     * when the layout has none or the cell is a not-available mark).
     */
    public Device device(String line) {
        String[] f = cells(line);
        String index = indexColumn < f.length ? f[indexColumn].strip() : "";
        String name = nameColumn >= 0 && nameColumn < f.length ? f[nameColumn].strip() : "";
        return new Device(index, name.startsWith("[") || name.equalsIgnoreCase("N/A") ? "" : name);
    }

    /** The row's cells; when {@code name} is the last column, any further comma stays in the name. */
    private String[] cells(String line) {
        return line.split(",", nameColumn == columns.length - 1 ? columns.length : -1);
    }

    /** True when the layout has a {@code timestamp} column. */
    public boolean hasTimestamp() {
        return timestampColumn >= 0;
    }

    /** The row's {@code timestamp} column (nvidia-smi's {@code yyyy/MM/dd HH:mm:ss.SSS}, the GPU host's local time). */
    public Optional<LocalDateTime> timestamp(String line) {
        if (timestampColumn < 0) {
            return Optional.empty();
        }
        String[] f = line.split(",", -1);
        if (timestampColumn >= f.length) {
            return Optional.empty();
        }
        try {
            return Optional.of(LocalDateTime.parse(f[timestampColumn].strip(), TIMESTAMP));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** Not-available marks give NaN (missing, never zero); a number may carry the column's unit. */
    private double number(Field field, String cell) {
        String t = cell.strip();
        if (t.isEmpty() || t.startsWith("[") || t.equalsIgnoreCase("N/A")) {
            return Double.NaN;
        }
        if (units && !field.unit().isEmpty() && t.endsWith(" " + field.unit())) {
            t = t.substring(0, t.length() - field.unit().length() - 1);
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(field.query() + ": expected a number" + (field.unit().isEmpty() ? ""
                    : " (in " + field.unit() + ")") + ", got '" + cell.strip() + "'");
        }
    }

    /** A header cell's field name without its unit: {@code memory.used [MiB]} gives {@code memory.used}. */
    private static String name(String cell) {
        String c = cell.strip();
        int bracket = c.indexOf(" [");
        return bracket < 0 ? c : c.substring(0, bracket);
    }

    private static String abbreviate(String s) {
        return s.length() <= 160 ? s : s.substring(0, 157) + "...";
    }
}
