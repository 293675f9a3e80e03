package dev.kneepoint.analysis;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Builds a Tablesaw {@link Table} with one row per element of a list: each column is named once, next to how its
 * value is read off a row, and the table has the columns in the order they were added. Each column is filled
 * when it is added (the row functions are called once per row and column, in row order).
 *
 * <pre>{@code
 * Table t = TableRows.of(metrics)
 *         .text("metric", MetricDrift::metric)
 *         .doubles("shift", MetricDrift::shift)
 *         .table("drift");
 * }</pre>
 *
 * @param <T> what one row is made from
 */
public final class TableRows<T> {
    private final List<? extends T> rows;
    private final List<Column<?>> columns = new ArrayList<>();

    private TableRows(List<? extends T> rows) {
        this.rows = Objects.requireNonNull(rows, "rows");
    }

    /** A table of {@code rows.size()} rows, without columns yet; {@code rows} is read as columns are added. */
    public static <T> TableRows<T> of(List<? extends T> rows) {
        return new TableRows<>(rows);
    }

    /** Adds a string column. */
    public TableRows<T> text(String name, Function<? super T, String> value) {
        return column(StringColumn.create(name), (c, r) -> c.append(value.apply(r)));
    }

    /** Adds a double column. */
    public TableRows<T> doubles(String name, ToDoubleFunction<? super T> value) {
        return column(DoubleColumn.create(name), (c, r) -> c.append(value.applyAsDouble(r)));
    }

    /** Adds an int column. */
    public TableRows<T> ints(String name, ToIntFunction<? super T> value) {
        return column(IntColumn.create(name), (c, r) -> c.append(value.applyAsInt(r)));
    }

    /** Adds a long column. */
    public TableRows<T> longs(String name, ToLongFunction<? super T> value) {
        return column(LongColumn.create(name), (c, r) -> c.append(value.applyAsLong(r)));
    }

    /** Adds a boolean column. */
    public TableRows<T> booleans(String name, Predicate<? super T> value) {
        return column(BooleanColumn.create(name), (c, r) -> c.append(value.test(r)));
    }

    /**
     * Adds {@code column} (empty, named), filled by {@code append} once per row: for what the typed methods do not
     * cover, such as a missing value in some rows.
     */
    public <C extends Column<?>> TableRows<T> column(C column, BiConsumer<? super C, ? super T> append) {
        for (T r : rows) {
            append.accept(column, r);
        }
        columns.add(column);
        return this;
    }

    /** The table named {@code name}, with the columns added so far. */
    public Table table(String name) {
        return Table.create(name, columns.toArray(Column<?>[]::new));
    }
}
