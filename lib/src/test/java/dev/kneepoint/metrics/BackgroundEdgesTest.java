package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hand-made background records at the edges of two windows (1 unit = 1 ns), streamed through {@link RunAggregator}:
 * a record handed over long after its step ended, one whose membership waits for the window's end (drained after
 * the signal), one intended exactly at the window's end, and one whose token arrives exactly at the next step's
 * start, handed over before that step started.
 */
class BackgroundEdgesTest {
    private static final StepInfo S0 = new StepInfo(0, "s0", StepInfo.CLOSED, 4, Double.NaN, "", -1, "", 0, -1, -1);
    private static final StepInfo S1 = new StepInfo(1, "s1", StepInfo.OPEN, -1, 10, "poisson", -1, "", 0, -1, -1);
    private static final StepWindow W0 = new StepWindow(0, 100, 1_000, true);
    private static final StepWindow W1 = new StepWindow(1_400, 1_400, 2_000, true);

    @Test
    void recordsAtTheEdgesCountWhereTheirIntendedStartAndTheirTokensFall() {
        RunAggregator agg = new RunAggregator(Slo.none()).trackBackground("bg", 5, "poisson");
        List<RequestRecord> handed = new ArrayList<>();
        agg.stepStarted(S0, 0, WindowPlan.startingAt(100));
        hand(agg, handed, bg(2, 200, new long[] {300}, new int[] {1}, 310));
        agg.stepLoadStopping(S0); // at 995
        hand(agg, handed, bg(4, 990, new long[] {995}, new int[] {1}, 996)); // drained: waits for the end
        hand(agg, handed, bg(5, 1_000, new long[] {1_003}, new int[] {5}, 1_004)); // intended at the end: not of s0
        agg.stepFinished(S0, W0, ClientHealth.NOT_MEASURED); // at 1,010
        hand(agg, handed, bg(1, 500, new long[] {900, 1_100}, new int[] {2, 3}, 1_101)); // late, straddles the end
        hand(agg, handed, bg(3, 1_390, new long[] {1_400}, new int[] {2}, 1_400)); // just before s1 is started
        agg.stepStarted(S1, 1_400, new WindowPlan(1_400, 2_000));
        agg.stepLoadStopping(S1);
        agg.stepFinished(S1, W1, ClientHealth.NOT_MEASURED);

        BackgroundResult r = agg.result("r", true, Instant.EPOCH, "t").background().orElseThrow();
        StepResult s0 = r.step("s0");
        assertThat(s0.counts().requestsOk()).as("intended at 200, 500, 990").isEqualTo(3);
        assertThat(s0.counts().warmupRequests()).as("intended at 1,000 and 1,390").isEqualTo(2);
        assertThat(s0.rates().outputTokensPerS()).as("tokens at 300, 995, 900 in [100, 1000)").isEqualTo(4 / 900e-9);
        StepResult s1 = r.step("s1");
        assertThat(s1.counts().requestsOk()).isZero();
        assertThat(s1.counts().warmupRequests()).isEqualTo(5);
        assertThat(s1.rates().outputTokensPerS()).as("the 2 tokens at 1,400 in [1400, 2000)").isEqualTo(2 / 600e-9);
        assertThat(r.total().window()).isEqualTo(new StepWindow(0, 0, 2_000, true));
        assertThat(r.total().rates().outputTokensPerS()).isEqualTo(14 / 2_000e-9);
        assertThat(r).isEqualTo(BackgroundResult.measure("bg", 5, "poisson", Slo.none(), handed,
                agg.results(), 0, true));
        assertThat(BackgroundStreamingTest.background(agg).heldRecords())
                .as("records held after the last step: those reaching past its window's end (none)").isZero();
    }

    @Test
    void aStepStartingInsideAnEarlierWindowIsRefused() {
        BackgroundAggregator bg = new BackgroundAggregator("bg", 5, "poisson", Slo.none());
        bg.stepStarted(S0, 0, WindowPlan.startingAt(100));
        bg.loadStopping(S0);
        bg.stepFinished(S0, W0);
        assertThatThrownBy(() -> bg.stepStarted(S1, 500, WindowPlan.startingAt(500)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("step 's1' starts at 500, before the end of an earlier step's window (1000)");
    }

    private static void hand(RunAggregator agg, List<RequestRecord> handed, RequestRecord r) {
        agg.requestFinished(r);
        handed.add(r);
    }

    private static RequestRecord bg(long id, long intended, long[] chunks, int[] tokens, long end) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = "bg";
        b.tag = "bg";
        b.intendedNanos = intended;
        b.dispatchNanos = intended;
        b.firstByteNanos = chunks[0];
        b.firstTokenNanos = chunks[0];
        b.lastTokenNanos = chunks[chunks.length - 1];
        b.chunkNanos = chunks;
        b.chunkTokens = tokens;
        int total = 0;
        for (int k : tokens) {
            total += k;
        }
        b.outputTokens = total;
        b.endNanos = end;
        b.promptTokens = 10;
        b.tokenSource = TokenSource.SERVER_USAGE;
        b.finishReason = "stop";
        return b.build();
    }
}
