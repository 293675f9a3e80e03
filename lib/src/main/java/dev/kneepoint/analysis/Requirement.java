package dev.kneepoint.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * A bound on one column of the steps table ({@link Tables#steps}), such as {@code ttft_p99_ms<=500}: what
 * {@code kneepoint check} gates a run on (k6's thresholds). {@link #parse} reads the text; {@link #check} holds it
 * against every row of a steps table. A step whose value is NaN (no data: no OK request, nothing measured) does
 * not meet any bound: a gate never passes on a measurement that is missing.
 *
 * <p>Grammar: {@value #GRAMMAR}. A unit suffix must fit the column, and the bound is kept in the column's own
 * unit: {@code _ms} columns take {@code ms}, {@code s} or {@code us}; {@code _s} columns {@code s} or {@code ms};
 * fractions ({@code failure_rate}, {@code good_fraction}, {@code reasoning_share}, 0..1) take {@code %};
 * {@code _pct} columns take {@code %} (already percent). Every other column takes a plain number.
 *
 * @param expression the text as given
 * @param column     the steps-table column
 * @param op         the comparison
 * @param bound      the number the column's value is compared with, in the column's unit
 */
public record Requirement(String expression, String column, Op op, double bound) {
    /** The grammar, as error messages and {@code check --help} show it (no '%': it is a picocli format string there). */
    public static final String GRAMMAR = "<column><op><number>[unit] with op one of <= < >= > == !=,"
            + " e.g. ttft_p99_ms<=500ms, e2e_p50_ms<2s, failure_rate<=0.01, output_tokens_per_s>=100";

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
    private static final Pattern NUMBER = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");

    /** The comparison of a requirement. NaN meets none of them. */
    public enum Op {
        LE("<="), LT("<"), GE(">="), GT(">"), EQ("=="), NE("!=");

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }

        /** As written: {@code <=}. */
        public String symbol() {
            return symbol;
        }

        /** True when {@code value op bound} holds; false for a NaN value. */
        public boolean test(double value, double bound) {
            if (Double.isNaN(value)) {
                return false;
            }
            return switch (this) {
                case LE -> value <= bound;
                case LT -> value < bound;
                case GE -> value >= bound;
                case GT -> value > bound;
                case EQ -> value == bound;
                case NE -> value != bound;
            };
        }

        /** How far {@code value} is on the failing side, larger is worse (for picking a worst step). */
        double badness(double value, double bound) {
            return switch (this) {
                case LE, LT -> value;
                case GE, GT -> -value;
                case EQ -> Math.abs(value - bound);
                case NE -> -Math.abs(value - bound);
            };
        }
    }

    /** The requirement on one step: the step's label, its value (NaN: no data) and whether it holds. */
    public record StepCheck(String step, double value, boolean holds) {
        /** True when the step had no value for the column (NaN or missing). */
        public boolean noData() {
            return Double.isNaN(value);
        }
    }

    /** The requirement against every row of a steps table, in the table's order. */
    public record Result(Requirement requirement, List<StepCheck> steps) {
        public Result {
            Objects.requireNonNull(requirement, "requirement");
            steps = List.copyOf(steps);
        }

        /** The steps where it does not hold (no data included). */
        public List<StepCheck> violations() {
            return steps.stream().filter(s -> !s.holds()).toList();
        }

        /** True when it holds on every step. */
        public boolean holds() {
            return steps.stream().allMatch(StepCheck::holds);
        }

        /**
         * The step furthest on the failing side: the largest value for {@code <=} and {@code <}, the smallest for
         * {@code >=} and {@code >}, the furthest from the bound for {@code ==}, the nearest for {@code !=}; a step
         * without data before any; empty without steps.
         */
        public Optional<StepCheck> worst() {
            Op op = requirement.op();
            double b = requirement.bound();
            return steps.stream().max(Comparator.comparingDouble(
                    s -> s.noData() ? Double.POSITIVE_INFINITY : op.badness(s.value(), b)));
        }
    }

    public Requirement {
        Objects.requireNonNull(expression, "expression");
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(op, "op");
        if (Double.isNaN(bound)) {
            throw new IllegalArgumentException("the bound of '" + expression + "' is NaN");
        }
    }

    /**
     * Reads {@code <column><op><number>[unit]}; whitespace is allowed around each token.
     *
     * @throws IllegalArgumentException saying what is wrong, with the grammar and an example
     */
    public static Requirement parse(String expression) {
        Objects.requireNonNull(expression, "expression");
        String e = expression.strip();
        if (e.isEmpty()) {
            throw bad(expression, "it is empty");
        }
        int at = firstOperatorChar(e, 0);
        if (at < 0) {
            throw bad(expression, "no comparison operator");
        }
        String column = e.substring(0, at).strip();
        Op op = operatorAt(e, at, expression);
        String rest = e.substring(at + op.symbol().length()).strip();
        if (column.isEmpty()) {
            throw bad(expression, "no column before '" + op.symbol() + "'");
        }
        if (!NAME.matcher(column).matches()) {
            throw bad(expression, "'" + column + "' is not a column name (letters, digits, '_' and '.')");
        }
        if (firstOperatorChar(rest, 0) >= 0) {
            throw bad(expression, "more than one operator (one requirement compares one column with one number)");
        }
        if (rest.isEmpty()) {
            throw bad(expression, "no number after '" + op.symbol() + "'");
        }
        Matcher m = NUMBER.matcher(rest);
        if (!m.lookingAt()) {
            throw bad(expression, "'" + rest + "' is not a number");
        }
        double number = Double.parseDouble(m.group());
        String unit = rest.substring(m.end()).strip();
        return new Requirement(expression.strip(), column, op, inColumnUnit(expression, column, number, unit));
    }

    /**
     * Holds this requirement against every row of {@code steps} (a {@link Tables#steps} table, or some of its rows,
     * with its {@code step} column).
     *
     * @throws IllegalArgumentException when the column is not in the table or not numeric, naming the close ones
     */
    public Result check(Table steps) {
        Column<?> c = column(steps, column);
        NumericColumn<?> values = (NumericColumn<?>) c;
        var labels = steps.stringColumn("step");
        List<StepCheck> checks = new ArrayList<>(steps.rowCount());
        for (int i = 0; i < steps.rowCount(); i++) {
            double v = values.isMissing(i) ? Double.NaN : values.getDouble(i);
            checks.add(new StepCheck(labels.get(i), v, op.test(v, bound)));
        }
        return new Result(this, checks);
    }

    /**
     * The rows of {@code steps} whose {@code step} label is one of {@code labels}, in the table's order; every row
     * when {@code labels} is empty.
     *
     * @throws IllegalArgumentException naming the labels that exist when one of {@code labels} is not a step
     */
    public static Table selectSteps(Table steps, List<String> labels) {
        if (labels.isEmpty()) {
            return steps;
        }
        Set<String> present = new LinkedHashSet<>(steps.stringColumn("step").asList());
        List<String> unknown = labels.stream().filter(l -> !present.contains(l)).distinct().toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("no step " + String.join(", ", unknown) + " in the run; its steps are "
                    + (present.isEmpty() ? "none" : String.join(", ", present)));
        }
        return steps.where(steps.stringColumn("step").isIn(labels));
    }

    /** The requirement with its bound in the column's unit, e.g. {@code ttft_p99_ms <= 500} for {@code ttft_p99_ms<=0.5s}. */
    public String text() {
        return column + " " + op.symbol() + " " + number(bound);
    }

    /** A value as check lines show it: up to 6 significant digits, plain notation, Locale-free. */
    public static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return Double.isNaN(v) ? "NaN" : v > 0 ? "+inf" : "-inf";
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(6)).stripTrailingZeros().toPlainString();
    }

    private static Column<?> column(Table steps, String name) {
        if (steps.containsColumn(name)) {
            Column<?> c = steps.column(name);
            if (c instanceof NumericColumn<?>) {
                return c;
            }
            throw new IllegalArgumentException("column '" + name + "' is not numeric (" + c.type().name()
                    .toLowerCase(Locale.ROOT) + "); numeric columns: " + String.join(", ", numericColumns(steps)));
        }
        List<String> numeric = numericColumns(steps);
        List<String> close = numeric.stream().filter(n -> isClose(name, n))
                .sorted(Comparator.comparingInt(n -> distance(name, n))).limit(8).toList();
        throw new IllegalArgumentException("unknown column '" + name + "' in the steps table; "
                + (close.isEmpty() ? "its numeric columns: " + String.join(", ", numeric)
                        : "close: " + String.join(", ", close) + " (all: the columns of steps.csv)"));
    }

    private static List<String> numericColumns(Table steps) {
        return steps.columns().stream().filter(c -> c instanceof NumericColumn<?>).map(Column::name)
                .collect(Collectors.toList());
    }

    /** A likely intended name: a few edits away, or one name inside the other. */
    private static boolean isClose(String given, String name) {
        String g = given.toLowerCase(Locale.ROOT);
        return distance(g, name) <= 3 || (g.length() >= 3 && name.contains(g)) || g.contains(name);
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    private static int firstOperatorChar(String s, int from) {
        for (int i = from; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '<' || c == '>' || c == '=' || c == '!') {
                return i;
            }
        }
        return -1;
    }

    private static Op operatorAt(String e, int at, String expression) {
        char c = e.charAt(at);
        char next = at + 1 < e.length() ? e.charAt(at + 1) : ' ';
        return switch (c) {
            case '<' -> next == '=' ? Op.LE : Op.LT;
            case '>' -> next == '=' ? Op.GE : Op.GT;
            case '!' -> {
                if (next != '=') {
                    throw bad(expression, "'!' is not an operator: write !=");
                }
                yield Op.NE;
            }
            default -> {
                if (next == '=') {
                    yield Op.EQ;
                }
                if (next == '<' || next == '>') {
                    throw bad(expression, "'=" + next + "' is not an operator: write " + next + "=");
                }
                throw bad(expression, "'=' is not an operator: write == (or <=, >=)");
            }
        };
    }

    /** The number in the column's unit, or a message naming the units that fit the column. */
    private static double inColumnUnit(String expression, String column, double number, String unit) {
        String u = unit.toLowerCase(Locale.ROOT);
        if (column.endsWith("_ms")) {
            return switch (u) {
                case "", "ms" -> number;
                case "s" -> number * 1000;
                case "us", "µs" -> number / 1000;
                default -> throw badUnit(expression, unit, column, "a time in ms: ms (the default), s or us");
            };
        }
        if (column.endsWith("_s") && !column.endsWith("_per_s")) {
            return switch (u) {
                case "", "s" -> number;
                case "ms" -> number / 1000;
                default -> throw badUnit(expression, unit, column, "a time in s: s (the default) or ms");
            };
        }
        if (isFraction(column)) {
            double f = switch (u) {
                case "" -> number;
                case "%" -> number / 100;
                default -> throw badUnit(expression, unit, column, "a fraction 0..1: a plain number or %");
            };
            if (f < 0 || f > 1) {
                throw bad(expression, column + " is a fraction from 0 to 1: write e.g. 0.05 or 5%, not "
                        + number(number) + unit);
            }
            return f;
        }
        if (column.endsWith("_pct")) {
            return switch (u) {
                case "", "%" -> number;
                default -> throw badUnit(expression, unit, column, "a percentage: a plain number or %");
            };
        }
        if (!u.isEmpty()) {
            throw badUnit(expression, unit, column, "write a plain number");
        }
        return number;
    }

    /** The 0..1 columns of the steps table. */
    private static boolean isFraction(String column) {
        return column.equals("failure_rate") || column.endsWith("_fraction") || column.endsWith("_share");
    }

    private static IllegalArgumentException badUnit(String expression, String unit, String column, String fits) {
        return bad(expression, "unit '" + unit + "' does not fit " + column + " (" + fits + ")");
    }

    private static IllegalArgumentException bad(String expression, String what) {
        return new IllegalArgumentException("requirement '" + expression + "': " + what + "; expected " + GRAMMAR);
    }
}
