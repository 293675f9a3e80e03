package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RunAggregator;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepResult;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Why a step's end cut a request: the drain giving up (the server did not finish: {@code UNFINISHED}, a failure)
 * versus the user stopping the run ({@code CANCELLED}, neutral); and a request-bounded step waiting for its
 * dispatched requests instead of cutting them at the last dispatch.
 */
class DrainOutcomeTest {

    private static LoadRun run(Step step, FakeSender sender, RunAggregator aggregator) {
        return LoadRun.builder().sender(sender).workload(ClosedLoopTest.WORKLOAD).listener(aggregator)
                .clock(RunClock.system()).step(step).build();
    }

    @Test
    @Timeout(30)
    void aHungServerCutByTheDrainShowsAsFailuresNotZero() {
        // A server that never answers within the run: every request is still in flight when the 200 ms drain ends.
        FakeSender sender = FakeSender.fixedLatency(ms(60_000));
        RunAggregator aggregator = new RunAggregator(Slo.none());
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(3).duration(Duration.ofMillis(100))
                .warmup(Duration.ZERO).drainTimeout(Duration.ofMillis(200)).build();

        LoadResult result = run(step, sender, aggregator).run();

        assertThat(result.completed()).isTrue();
        StepResult s = aggregator.results().get(0);
        assertThat(s.counts().requestsFailed()).isEqualTo(3);
        assertThat(s.counts().cancelled()).isZero();
        assertThat(s.counts().failuresByClass()).containsExactly(java.util.Map.entry("UNFINISHED", 3L));
        assertThat(s.rates().failureRate()).isEqualTo(1.0);
    }

    @Test
    @Timeout(30)
    void aStopDuringTheDrainIsTheUsersCancellationAndStaysNeutral() throws Exception {
        FakeSender sender = FakeSender.fixedLatency(ms(60_000));
        RunAggregator aggregator = new RunAggregator(Slo.none());
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(3).duration(Duration.ofMillis(100))
                .warmup(Duration.ZERO).drainTimeout(Duration.ofSeconds(20)).build();
        RunHandle handle = run(step, sender, aggregator).start();
        long deadline = System.nanoTime() + ms(10_000);
        while (sender.inFlight.get() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(300); // past the 100 ms window: the step is draining

        handle.stop();
        LoadResult result = handle.await();

        assertThat(result.ending()).isEqualTo(LoadResult.Ending.STOPPED);
        StepResult s = aggregator.results().get(0);
        assertThat(s.counts().cancelled()).isEqualTo(3);
        assertThat(s.counts().requestsFailed()).isZero();
    }

    @Test
    @Timeout(30)
    void aRequestBoundedClosedStepWaitsForItsDispatchedRequests() {
        // 4 users, 8 requests, each answered after 300 ms: the last ones are dispatched at ~300 ms and end at ~600 ms.
        FakeSender sender = FakeSender.fixedLatency(ms(300));
        RunAggregator aggregator = new RunAggregator(Slo.none());
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(4).maxRequests(8).warmup(Duration.ZERO).build();

        run(step, sender, aggregator).run();

        StepResult s = aggregator.results().get(0);
        assertThat(s.counts().requestsOk()).isEqualTo(8);
        assertThat(s.counts().requestsFailed() + s.counts().cancelled()).isZero();
    }

    @Test
    @Timeout(30)
    void aRequestBoundedOpenStepWaitsForItsDispatchedRequests() {
        // 10 requests at 100 req/s (the last at ~90 ms), each answered after 400 ms: all in flight at the last dispatch.
        FakeSender sender = FakeSender.fixedLatency(ms(400));
        RunAggregator aggregator = new RunAggregator(Slo.none());
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(100)).maxRequests(10)
                .warmup(Duration.ZERO).build();

        run(step, sender, aggregator).run();

        StepResult s = aggregator.results().get(0);
        assertThat(s.counts().requestsOk()).isEqualTo(10);
        assertThat(s.counts().requestsFailed() + s.counts().cancelled()).isZero();
    }

    @Test
    @Timeout(30)
    void aRequestBoundedStepsDrainCutIsUnfinishedNeverSilent() {
        FakeSender sender = FakeSender.fixedLatency(ms(60_000));
        RunAggregator aggregator = new RunAggregator(Slo.none());
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(100)).maxRequests(5)
                .warmup(Duration.ZERO).drainTimeout(Duration.ofMillis(200)).build();

        run(step, sender, aggregator).run();

        StepResult s = aggregator.results().get(0);
        assertThat(s.counts().requestsFailed()).isEqualTo(5);
        assertThat(s.counts().failuresByClass()).isEqualTo(java.util.Map.of("UNFINISHED", 5L));
        assertThat(List.of(s.counts().cancelled(), s.counts().requestsOk())).containsOnly(0L);
    }
}
