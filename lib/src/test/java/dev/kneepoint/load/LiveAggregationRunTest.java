package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunAggregator;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.RunListener;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.WindowPlan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * The load layer keeps the promise of {@link WindowPlan}: a {@link RunAggregator} fed with the plan and the
 * {@code stepLoadStopping} signal (constant memory) gives the same step results as one that keeps every fact
 * until the step ends, on real runs with a drain (answers 40 ms long: requests in flight when a step stops
 * carry tokens after its window's end), for closed-loop, open-loop (planned end and request count) and stopped
 * steps.
 */
class LiveAggregationRunTest {
    private static final Slo SLO = Slo.builder().ttftMs(45).build();
    private final RunClock clock = RunClock.system();

    /** Feeds a live aggregator (with the plan) and a keep-everything one; checks the order of the step events. */
    private final class Tee implements RunListener {
        final RunAggregator live = new RunAggregator(SLO);
        final RunAggregator kept = new RunAggregator(SLO);
        final Map<String, WindowPlan> plans = new ConcurrentHashMap<>();
        final Map<String, Long> firstStopSignal = new ConcurrentHashMap<>();
        final List<String> violations = new ArrayList<>();

        @Override
        public void stepStarted(StepInfo step, long stepStartNanos, WindowPlan plan) {
            if (plan == null) {
                violations.add("the load layer called stepStarted without a plan for " + step.label());
                return;
            }
            plans.put(step.label(), plan);
            live.stepStarted(step, stepStartNanos, plan);
            kept.stepStarted(step, stepStartNanos, null);
        }

        @Override
        public void stepLoadStopping(StepInfo step) {
            firstStopSignal.putIfAbsent(step.label(), clock.now());
            live.stepLoadStopping(step);
        }

        @Override
        public void requestFinished(RequestRecord record) {
            live.requestFinished(record);
            kept.requestFinished(record);
        }

        @Override
        public void stepFinished(StepInfo step, StepWindow window, ClientHealth client) {
            WindowPlan plan = plans.get(step.label());
            Long signal = firstStopSignal.get(step.label());
            if (signal == null) {
                violations.add("no stop signal before " + step.label() + " finished");
            } else if (window.endNanos() < Math.min(plan.endCapNanos(), signal)) {
                violations.add(step.label() + ": window end " + window.endNanos() + " before the signal " + signal);
            }
            if (window.lengthNanos() > 0 && window.startNanos() != plan.startNanos()) {
                violations.add(step.label() + ": window start " + window.startNanos() + " is not the plan's");
            }
            live.stepFinished(step, window, client);
            kept.stepFinished(step, window, client);
        }
    }

    @Test
    void liveAndKeptAggregationAgreeOnRealStepsWithADrain() {
        Tee tee = new Tee();
        FakeSender sender = FakeSender.fixedLatency(ms(40));
        Duration warmup = Duration.ofMillis(60);
        Step closed = ClosedLoopStep.builder().concurrency(6).warmup(warmup).duration(Duration.ofMillis(300)).build();
        Step open = OpenLoopStep.builder().arrival(ArrivalPlan.constant(150)).warmup(warmup)
                .duration(Duration.ofMillis(300)).build();
        Step counted = OpenLoopStep.builder().arrival(ArrivalPlan.constant(150)).maxRequests(40).label("count").build();
        LoadRun.builder().sender(sender).workload(ClosedLoopTest.WORKLOAD).listener(tee).clock(clock)
                .ladder(StepSequence.of(List.of(closed, open, counted))).build().run();

        assertThat(tee.violations).isEmpty();
        List<StepResult> live = tee.live.results();
        assertThat(live).hasSize(3).isEqualTo(tee.kept.results()); // every field, doubles bit for bit
        // the cap of a duration-held open step is its planned end; the others have none
        assertThat(tee.plans.get(open.label()).endCapNanos()).isLessThan(Long.MAX_VALUE);
        assertThat(tee.plans.get(closed.label()).endCapNanos()).isEqualTo(Long.MAX_VALUE);
        assertThat(tee.plans.get("count").endCapNanos()).isEqualTo(Long.MAX_VALUE);
        for (StepResult r : live) {
            // 40 ms answers: there was a drain, and tokens came in the window
            assertThat(r.rates().outputTokensPerS()).as(r.info().label()).isPositive();
            assertThat(r.rates().concurrencyMean()).as(r.info().label()).isPositive();
        }
    }

    @Test
    void aStoppedStepAgreesToo() throws Exception {
        Tee tee = new Tee();
        FakeSender sender = FakeSender.fixedLatency(ms(40));
        Step closed = ClosedLoopStep.builder().concurrency(4).warmup(Duration.ofMillis(30))
                .duration(Duration.ofSeconds(60)).build();
        RunHandle handle = LoadRun.builder().sender(sender).workload(ClosedLoopTest.WORKLOAD).listener(tee)
                .clock(clock).step(closed).build().start();
        long deadline = System.nanoTime() + ms(10_000);
        while (sender.inFlight.get() == 0 || clock.now() < ms(250)) { // a state, then some time in the window
            assertThat(System.nanoTime()).as("the step got going within 10 s").isLessThan(deadline);
            Thread.sleep(5);
        }
        handle.stop();
        handle.await();

        assertThat(tee.violations).isEmpty();
        List<StepResult> live = tee.live.results();
        assertThat(live).hasSize(1).isEqualTo(tee.kept.results());
        assertThat(live.get(0).window().completed()).isFalse();
    }
}
