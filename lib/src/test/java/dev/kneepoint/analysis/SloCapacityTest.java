package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.RunResult;
import org.junit.jupiter.api.Test;

/** The SLO capacity's arithmetic: Wilson intervals, the bracket, and when the answer is closed or uncertain. */
class SloCapacityTest {
    private static final SloCapacity.Goal USERS = new SloCapacity.Goal(SloCapacity.CONCURRENCY, 0.99, 0.05);
    private static final SloCapacity.Goal RATE = new SloCapacity.Goal(SloCapacity.RATE, 0.99, 0.05);

    @Test
    void wilsonIntervalsMatchTheTextbookValues() {
        // 99 of 100: [0.9455, 0.9982]; 100 of 100: [0.9630, 1]; 80 of 100: [0.7112, 0.8666]; 0 of 10: [0, 0.2775].
        assertThat(SloCapacity.wilson(99, 100)).containsExactly(new double[] {0.945514, 0.998233}, within(1e-6));
        assertThat(SloCapacity.wilson(100, 100)).containsExactly(new double[] {0.963007, 1.0}, within(1e-6));
        assertThat(SloCapacity.wilson(80, 100)).containsExactly(new double[] {0.711171, 0.866633}, within(1e-6));
        assertThat(SloCapacity.wilson(0, 10)).containsExactly(new double[] {0.0, 0.277533}, within(1e-6));
        // Whatever the count, the interval holds the observed share exactly (rounding once put all-pass's top below 1).
        for (int n = 1; n <= 500; n++) {
            for (int k = 0; k <= n; k++) {
                double[] ci = SloCapacity.wilson(k, n);
                assertThat((double) k / n).as("%d of %d", k, n).isBetween(ci[0], ci[1]);
            }
        }
        assertThat(SloCapacity.wilson(0, 0)).containsExactly(0.0, 1.0);
    }

    @Test
    void adjacentUsersCloseTheBracketAndCountsComeBackExactly() {
        // Searched 1, 2, 4, 8 (fails), 6 (fails), 5 (fails): 1000 OK requests each; at 5 users 80% meet the SLO.
        RunResult r = run("search", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 400, 900).good(0.5),
                s(6, 400, 700).good(0.667), s(5, 400, 300).good(0.8));
        SloCapacity c = SloCapacity.of(r, USERS);
        assertThat(c.probes()).extracting(SloCapacity.Probe::step)
                .containsExactly("c=1", "c=2", "c=4", "c=5", "c=6", "c=8");
        assertThat(c.maxPassing().step()).isEqualTo("c=4");
        assertThat(c.minFailing().step()).isEqualTo("c=5");
        assertThat(c.minFailing().requests()).isEqualTo(1000);
        assertThat(c.minFailing().good()).isEqualTo(800);
        assertThat(c.minFailing().attainment()).isEqualTo(0.8);
        assertThat(c.maxPassing().low()).isCloseTo(0.996173, within(1e-6)); // 1000 of 1000
        assertThat(c.closed()).isTrue();
        assertThat(c.uncertain()).isNull();
        assertThat(c.sentence()).startsWith("SLO capacity: 4 users (c=4 attains 100.0% [99.6%, 100.0%]; c=5 fails with "
                + "80.0% [77.4%, 82.4%]; target 99.0%).");
    }

    @Test
    void aGapWiderThanOneUserIsNotClosedAndAStraddlingIntervalIsUncertain() {
        // 994 of 1000 at c=4 passes (99.4%), but its interval [98.7%, 99.7%] holds the 99% target.
        RunResult r = run("open", s(1, 100, 100), s(4, 400, 100).good(0.994), s(8, 400, 900).good(0.5));
        SloCapacity c = SloCapacity.of(r, USERS);
        assertThat(c.maxPassing().step()).isEqualTo("c=4");
        assertThat(c.closed()).isFalse();
        assertThat(c.uncertain()).contains("c=4's attainment 99.4% has a 95% interval 98.7% - 99.7%");
        assertThat(c.sentence()).contains("bracket not closed");
    }

    @Test
    void aRateBracketClosesWithinItsTolerance() {
        RunResult closed = run("rates", s(10, 100, 100).open(), s(19.6, 190, 100).open(), s(20, 200, 500).open().good(0.9));
        assertThat(SloCapacity.of(closed, RATE).closed()).isTrue(); // 20 - 19.6 = 0.4 <= 5% of 19.6
        RunResult wide = run("rates", s(10, 100, 100).open(), s(20, 200, 500).open().good(0.9));
        assertThat(SloCapacity.of(wide, RATE).closed()).isFalse();
        assertThat(SloCapacity.of(wide, RATE).sentence()).startsWith("SLO capacity: 10 req/s");
    }

    @Test
    void everyProbePassingOrFailingSaysWhichSideTheCapacityIs() {
        SloCapacity above = SloCapacity.of(run("up", s(1, 100, 100), s(2, 200, 100)), USERS);
        assertThat(above.minFailing()).isNull();
        assertThat(above.sentence()).startsWith("SLO capacity: above every probe: the highest, c=2,");
        SloCapacity below = SloCapacity.of(run("down", s(1, 100, 100).good(0.5), s(2, 200, 100).good(0.4)), USERS);
        assertThat(below.maxPassing()).isNull();
        assertThat(below.sentence()).startsWith("SLO capacity: below every probe: even c=1 (the lowest load) reaches "
                + "only 50.0%");
    }

    @Test
    void aPassAboveTheFirstFailureIsNamedAsNotMonotonic() {
        RunResult r = run("noisy", s(1, 100, 100), s(4, 400, 100).good(0.9), s(8, 400, 100));
        SloCapacity c = SloCapacity.of(r, USERS);
        assertThat(c.maxPassing().step()).isEqualTo("c=1");
        assertThat(c.uncertain()).contains("c=8 passed above the failing c=4: the attainment is not monotonic");
    }
}
