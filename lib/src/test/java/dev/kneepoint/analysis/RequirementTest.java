package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.kneepoint.analysis.Requirement.Op;
import dev.kneepoint.analysis.Requirement.StepCheck;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** {@link Requirement}: the grammar, units, its error messages, and holding a bound against a steps table. */
class RequirementTest {

    /** Three steps: c=2 had no OK request (its latencies NaN, its failure rate 1). */
    private static Table steps() {
        return Table.create("steps",
                StringColumn.create("step", "c=1", "c=2", "c=4"),
                StringColumn.create("mode", "closed", "closed", "closed"),
                IntColumn.create("concurrency", 1, 2, 4),
                LongColumn.create("requests_ok", 10, 0, 30),
                DoubleColumn.create("failure_rate", 0.0, 1.0, 0.02),
                DoubleColumn.create("output_tokens_per_s", 100, 0, 350),
                DoubleColumn.create("ttft_p99_ms", 120.0, Double.NaN, 480.0),
                DoubleColumn.create("ttft_p90_ms", 100.0, Double.NaN, 400.0),
                DoubleColumn.create("e2e_p50_ms", 800.0, Double.NaN, 1500.0));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ttft_p99_ms<=500      | ttft_p99_ms | LE | 500",
        "ttft_p99_ms<500       | ttft_p99_ms | LT | 500",
        "output_tokens_per_s>=100 | output_tokens_per_s | GE | 100",
        "output_tokens_per_s>100  | output_tokens_per_s | GT | 100",
        "requests_ok==0        | requests_ok | EQ | 0",
        "requests_ok!=0        | requests_ok | NE | 0",
        "'  ttft_p99_ms  <=  500  ' | ttft_p99_ms | LE | 500",
        "ttft_p99_ms <= 500 ms | ttft_p99_ms | LE | 500",
        "ttft_p99_ms<=500ms    | ttft_p99_ms | LE | 500",
        "ttft_p99_ms<=0.5s     | ttft_p99_ms | LE | 500",
        "e2e_p50_ms<2S         | e2e_p50_ms  | LT | 2000",
        "itl_p99.9_ms<=250us   | itl_p99.9_ms | LE | 0.25",
        "window_s>=500ms       | window_s    | GE | 0.5",
        "failure_rate<1%       | failure_rate | LT | 0.01",
        "failure_rate<=0.05    | failure_rate | LE | 0.05",
        "good_fraction>=99.5 % | good_fraction | GE | 0.995",
        "client_cpu_pct<80%    | client_cpu_pct | LT | 80",
        "answer_delay_p50_ms>-5 | answer_delay_p50_ms | GT | -5",
        "ttft_p99_ms<=.5e3     | ttft_p99_ms | LE | 500",
    })
    void readsEveryOperatorUnitAndSpacing(String text, String column, Op op, double bound) {
        Requirement r = Requirement.parse(text);
        assertThat(r.column()).isEqualTo(column);
        assertThat(r.op()).isEqualTo(op);
        // 1e-12 relative: the only error is the unit conversion's one multiplication or division.
        assertThat(r.bound()).isCloseTo(bound, org.assertj.core.api.Assertions.within(Math.abs(bound) * 1e-12));
        assertThat(r.expression()).isEqualTo(text.strip());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                     | it is empty",
        "ttft_p99_ms 500        | no comparison operator",
        "ttft_p99_ms=500        | '=' is not an operator: write ==",
        "ttft_p99_ms=<500       | '=<' is not an operator: write <=",
        "ttft_p99_ms=>500       | '=>' is not an operator: write >=",
        "ttft_p99_ms!500        | '!' is not an operator: write !=",
        "<=500                  | no column before '<='",
        "ttft p99<=500          | 'ttft p99' is not a column name",
        "ttft_p99_ms<=          | no number after '<='",
        "ttft_p99_ms<=fast      | 'fast' is not a number",
        "100<ttft_p99_ms<=500   | '100' is not a column name",
        "ttft_p99_ms<=500<=600  | more than one operator",
        "ttft_p99_ms<==500      | more than one operator",
        "ttft_p99_ms<=5min      | unit 'min' does not fit ttft_p99_ms (a time in ms: ms (the default), s or us)",
        "ttft_p99_ms<=5%        | unit '%' does not fit ttft_p99_ms",
        "failure_rate<=5        | failure_rate is a fraction from 0 to 1: write e.g. 0.05 or 5%, not 5",
        "failure_rate<=150%     | failure_rate is a fraction from 0 to 1",
        "failure_rate<=1ms      | unit 'ms' does not fit failure_rate (a fraction 0..1: a plain number or %)",
        "output_tokens_per_s>=100ms | unit 'ms' does not fit output_tokens_per_s (write a plain number)",
        "requests_ok>=5%        | unit '%' does not fit requests_ok",
    })
    void saysWhatIsWrongAndShowsTheGrammar(String text, String message) {
        assertThatThrownBy(() -> Requirement.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("requirement '" + text + "': ")
                .hasMessageContaining(message)
                .hasMessageEndingWith("expected " + Requirement.GRAMMAR);
    }

    @Test
    void theGrammarShowsAnExample() {
        assertThat(Requirement.GRAMMAR).contains("<column><op><number>").contains("ttft_p99_ms<=500ms");
    }

    @Test
    void everyOperatorAtItsBoundary() {
        assertThat(Op.LE.test(500, 500)).isTrue();
        assertThat(Op.LE.test(500.001, 500)).isFalse();
        assertThat(Op.LT.test(500, 500)).isFalse();
        assertThat(Op.LT.test(499.999, 500)).isTrue();
        assertThat(Op.GE.test(500, 500)).isTrue();
        assertThat(Op.GE.test(499.999, 500)).isFalse();
        assertThat(Op.GT.test(500, 500)).isFalse();
        assertThat(Op.GT.test(500.001, 500)).isTrue();
        assertThat(Op.EQ.test(0, 0)).isTrue();
        assertThat(Op.EQ.test(1, 0)).isFalse();
        assertThat(Op.NE.test(1, 0)).isTrue();
        assertThat(Op.NE.test(0, 0)).isFalse();
        for (Op op : Op.values()) {
            assertThat(op.test(Double.NaN, 0)).as("NaN %s 0", op.symbol()).isFalse();
        }
    }

    @Test
    void aStepWithoutDataIsAViolationNotAPass() {
        var r = Requirement.parse("ttft_p99_ms<=500").check(steps());
        assertThat(r.steps()).extracting(StepCheck::step, StepCheck::holds, StepCheck::noData)
                .containsExactly(tuple("c=1", true, false), tuple("c=2", false, true), tuple("c=4", true, false));
        assertThat(r.holds()).isFalse();
        assertThat(r.violations()).extracting(StepCheck::step).containsExactly("c=2");
        // Even != does not pass on NaN (Java's NaN != x is true).
        assertThat(Requirement.parse("ttft_p99_ms!=0").check(steps()).violations()).extracting(StepCheck::step)
                .containsExactly("c=2");
        assertThat(r.worst()).get().extracting(StepCheck::step).isEqualTo("c=2");
    }

    @Test
    void holdsOnEveryStepAndNamesTheWorst() {
        Table t = Requirement.selectSteps(steps(), List.of("c=4", "c=1"));
        var latency = Requirement.parse("ttft_p99_ms<=0.5s").check(t);
        assertThat(latency.holds()).isTrue();
        assertThat(latency.steps()).extracting(StepCheck::step).as("the table's order").containsExactly("c=1", "c=4");
        assertThat(latency.worst()).get().extracting(StepCheck::step, StepCheck::value).containsExactly("c=4", 480.0);
        var rate = Requirement.parse("output_tokens_per_s>=50").check(t);
        assertThat(rate.worst()).get().extracting(StepCheck::step).isEqualTo("c=1");
        var exact = Requirement.parse("concurrency==2").check(t);
        assertThat(exact.violations()).extracting(StepCheck::step).containsExactly("c=1", "c=4");
        assertThat(exact.worst()).get().extracting(StepCheck::step).isEqualTo("c=4");
        var fraction = Requirement.parse("failure_rate<1%").check(t);
        assertThat(fraction.violations()).extracting(StepCheck::step, StepCheck::value)
                .containsExactly(tuple("c=4", 0.02));
        assertThat(Requirement.parse("ttft_p99_ms<=0.5s").text()).isEqualTo("ttft_p99_ms <= 500");
    }

    @Test
    void theStepFilterKeepsTheChosenStepsAndNamesTheOnesThatExist() {
        assertThat(Requirement.selectSteps(steps(), List.of()).rowCount()).isEqualTo(3);
        assertThat(Requirement.selectSteps(steps(), List.of("c=2")).stringColumn("step").asList())
                .containsExactly("c=2");
        assertThat(Requirement.parse("requests_ok>=1").check(Requirement.selectSteps(steps(), List.of("c=2")))
                .violations()).hasSize(1);
        assertThatThrownBy(() -> Requirement.selectSteps(steps(), List.of("c=1", "c=8", "rate=10")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no step c=8, rate=10 in the run; its steps are c=1, c=2, c=4");
    }

    @Test
    void anUnknownColumnNamesTheCloseOnes() {
        assertThatThrownBy(() -> Requirement.parse("ttft_p99<=500").check(steps()))
                .hasMessage("unknown column 'ttft_p99' in the steps table; close: ttft_p99_ms (all: the columns of steps.csv)")
                .hasMessageNotContaining("e2e_p50_ms");
        assertThatThrownBy(() -> Requirement.parse("failure_rates<0.1").check(steps()))
                .hasMessageContaining("close: failure_rate");
        // Nothing close: every numeric column, and no text column.
        assertThatThrownBy(() -> Requirement.parse("zzz<1").check(steps()))
                .hasMessage("unknown column 'zzz' in the steps table; its numeric columns: concurrency, requests_ok,"
                        + " failure_rate, output_tokens_per_s, ttft_p99_ms, ttft_p90_ms, e2e_p50_ms");
        assertThatThrownBy(() -> Requirement.parse("mode==1").check(steps()))
                .hasMessageStartingWith("column 'mode' is not numeric (string); numeric columns: concurrency");
    }

    @Test
    void numbersPrintPlainWithSixSignificantDigits() {
        assertThat(Requirement.number(500.04)).isEqualTo("500.04");
        assertThat(Requirement.number(500)).isEqualTo("500");
        assertThat(Requirement.number(0.001)).isEqualTo("0.001");
        assertThat(Requirement.number(1234567.0)).isEqualTo("1234570");
        assertThat(Requirement.number(1.0 / 3)).isEqualTo("0.333333");
        assertThat(Requirement.number(Double.NaN)).isEqualTo("NaN");
    }
}
