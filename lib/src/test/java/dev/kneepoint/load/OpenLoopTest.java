package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.StepInfo;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenLoopTest {

    static LoadResult run(Step step, FakeSender sender, RecordingListener listener) {
        return LoadRun.builder().sender(sender).workload(ClosedLoopTest.WORKLOAD).listener(listener)
                .clock(RunClock.system()).step(step).build().run();
    }

    static List<RequestRecord> byId(List<RequestRecord> rs) {
        return rs.stream().sorted(Comparator.comparingLong(RequestRecord::id)).toList();
    }

    @Test
    void builderReportsEveryProblemAtOnce() {
        assertThatThrownBy(() -> OpenLoopStep.builder().maxInFlight(0, CapPolicy.DROP)
                .drainTimeout(Duration.ofSeconds(-1)).build())
                .hasMessageContaining("an arrival plan is required")
                .hasMessageContaining("maxInFlight must be >= 1 when capped, got 0")
                .hasMessageContaining("drain timeout must be >= 0")
                .hasMessageContaining("needs a duration, a maxRequests bound, or both")
                .hasMessageContaining("4 problems");
        assertThatThrownBy(() -> OpenLoopStep.builder().arrival(ArrivalPlan.constant(1e6))
                .duration(Duration.ofHours(1)).build()).hasMessageContaining("more than 20000000");
    }

    @Test
    void stepInfoDescribesThePlan() {
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.gamma(4, 2, 1))
                .maxInFlight(64, CapPolicy.QUEUE).maxRequests(100).build();
        assertThat(step.info(1)).isEqualTo(new StepInfo(1, "rate=4", "open", -1, 4.0, "gamma(cv=2)", 64, "queue",
                0, -1, 100));
        assertThat(step.withRate(0.5).label()).isEqualTo("rate=0.5");
        assertThat(step.withRate(0.5).arrival()).isEqualTo(ArrivalPlan.gamma(0.5, 2, 1));
    }

    @Test
    void everyRequestIsFiredOnScheduleAt200PerSecond() throws Exception {
        FakeSender sender = FakeSender.fixedLatency(ms(20));
        RecordingListener listener = new RecordingListener();
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(200))
                .duration(Duration.ofSeconds(1)).build();

        run(step, sender, listener);

        List<RequestRecord> rs = byId(listener.of("rate=200"));
        long stepStart = listener.stepStarts.get(0);
        // 200 rps for 1 s: offsets 0, 5, ..., 995 ms, every one dispatched and answered.
        assertThat(rs).hasSize(200).allMatch(RequestRecord::isOk);
        for (int i = 0; i < rs.size(); i++) {
            assertThat(rs.get(i).timing().intendedNanos()).isEqualTo(stepStart + i * ms(5));
        }
        assertThat(rs).allMatch(r -> r.scheduleLagNanos() >= 0);
        long p50 = RecordingListener.percentile(rs, RequestRecord::scheduleLagNanos, 50);
        long p99 = RecordingListener.percentile(rs, RequestRecord::scheduleLagNanos, 99);
        long lateMin = RecordingListener.sorted(rs.subList(150, 200), RequestRecord::scheduleLagNanos)[0];
        // Lag = scheduler slop + starting a virtual thread. Measured here: p50 30-50 µs, p99 0.2-1.1 ms on
        // a quiet run; p50 1.9 ms and p99 up to 17 ms while other builds saturate this 2-core machine (the
        // OS preempts the scheduler thread for whole time slices; 47 ms seen once). Noise only adds lag, so
        // every bound here is an upper bound set well above what noise produced:
        // p50 < 5 ms (100× the quiet median) and p99 < 250 ms, a guard against waiting on responses: a
        // scheduler that waited for each 20 ms answer would fall 15 ms further behind per request, seconds
        // by the end.
        // No drift: firing at "now + 5 ms" accumulates the timer slack (>= ~50 µs) and the firing work per
        // period, 7-15 ms by request 150, on *every* later request. Firing at stepStart + offset leaves many
        // late requests on time, so the smallest lag of requests 150..199 is < 2 ms; noise cannot make a
        // drifting scheduler pass this, and a correct one fails it only if all 50 were >= 2 ms late.
        assertThat(p50).as("p50 schedule lag ns").isLessThan(ms(5));
        assertThat(lateMin).as("min schedule lag ns of requests 150..199").isLessThan(ms(2));
        assertThat(p99).as("p99 schedule lag ns").isLessThan(ms(250));
        assertThat(sender.allThreadsEnded(1000)).isTrue();
    }

    @Test
    void inFlightGrowsWithoutLimitWhenTheServerIsSlow() {
        FakeSender sender = FakeSender.fixedLatency(ms(1000));
        RecordingListener listener = new RecordingListener();
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(200))
                .duration(Duration.ofMillis(500)).build();

        run(step, sender, listener);

        // 100 arrivals within 495 ms, each held 1 s from its own dispatch (a hard minimum): all 100 are in
        // flight together just before the first answer unless the last ones are fired > 505 ms late (with
        // a 500 ms hold, a 50 ms stall of the scheduler was enough to lose 10). Allow 10 fired late; a loop
        // that waited would never exceed 1, a hidden 64-thread pool never 64.
        assertThat(sender.maxInFlight.get()).isGreaterThanOrEqualTo(90);
        assertThat(listener.of("rate=200")).hasSize(100).allMatch(RequestRecord::isOk);
    }

    @Test
    void queueAtTheCapDelaysDispatchAndTheWaitShowsInScheduleLag() {
        FakeSender sender = FakeSender.fixedLatency(ms(100));
        RecordingListener listener = new RecordingListener();
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(50)).maxRequests(20)
                .maxInFlight(2, CapPolicy.QUEUE).build();

        run(step, sender, listener);

        List<RequestRecord> rs = byId(listener.of("rate=50"));
        assertThat(rs).hasSize(20).allMatch(RequestRecord::isOk);
        assertThat(sender.maxInFlight.get()).isEqualTo(2);
        // Two slots of 100 ms serve 20 rps against 50 rps arriving: request k (0-based) cannot start
        // before floor(k/2) × 100 ms, its plan says k × 20 ms. For k = 19: lag >= 900 − 380 = 520 ms.
        RequestRecord last = rs.get(19);
        assertThat(last.timing().intendedNanos() - listener.stepStarts.get(0)).isEqualTo(ms(380));
        assertThat(last.scheduleLagNanos()).isGreaterThanOrEqualTo(ms(520));
        assertThat(last.ttftSchedNanos() - last.ttftNanos()).isEqualTo(last.scheduleLagNanos());
        // First come, first served: dispatch order follows the plan. The order is decided where each request's
        // own thread reaches the queue, and its dispatch stamp is taken on that thread after it got its slot, so
        // a thread preempted in between is overtaken: by one place when a slot's thread stalls briefly, by many
        // when a loaded machine starves one virtual thread (request 1 was once dispatched 10th). So at most two
        // requests may move more than two places; a LIFO or barging queue moves most of the ~8 waiting ones.
        List<Long> dispatchOrder = rs.stream().sorted(Comparator.comparingLong(r -> r.timing().dispatchNanos()))
                .map(RequestRecord::id).toList();
        long movedFar = 0;
        for (int k = 0; k < rs.size(); k++) {
            if (Math.abs(dispatchOrder.indexOf(rs.get(k).id()) - k) > 2) {
                movedFar++;
            }
        }
        assertThat(movedFar).as("requests dispatched more than two places from their plan order")
                .isLessThanOrEqualTo(2);
    }

    @Test
    void dropAtTheCapRecordsEveryDroppedRequest() {
        FakeSender sender = FakeSender.fixedLatency(ms(100));
        RecordingListener listener = new RecordingListener();
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(50)).maxRequests(20)
                .maxInFlight(2, CapPolicy.DROP).build();

        run(step, sender, listener);

        List<RequestRecord> rs = listener.of("rate=50");
        List<RequestRecord> dropped = rs.stream().filter(r -> r.outcome().equals(Outcome.DROPPED)).toList();
        List<RequestRecord> ok = rs.stream().filter(RequestRecord::isOk).toList();
        assertThat(rs).hasSize(20);
        assertThat(ok.size() + dropped.size()).isEqualTo(20);
        // Arrivals span 0..380 ms; a slot serves one request per 100 ms, so at most 4 per slot start:
        // at most 8 sent. The first two always go.
        assertThat(ok.size()).isBetween(2, 8);
        assertThat(dropped).allMatch(r -> r.timing().dispatchNanos() == -1 && r.scheduleLagNanos() == -1
                && r.timing().endNanos() >= r.timing().intendedNanos());
        assertThat(sender.maxInFlight.get()).isLessThanOrEqualTo(2);
    }

    @Test
    void warmupIsDecidedByThePlan() {
        FakeSender sender = FakeSender.fixedLatency(ms(5));
        RecordingListener listener = new RecordingListener();
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(20))
                .warmup(Duration.ofMillis(100)).maxRequests(5).build();

        run(step, sender, listener);

        List<RequestRecord> rs = byId(listener.of("rate=20"));
        // Plan: 0, 50 ms in warm-up, then 5 measured at 100..300 ms.
        assertThat(rs).extracting(RequestRecord::warmup).containsExactly(true, true, false, false, false, false,
                false);
        assertThat(listener.windows.get(0).startNanos()).isEqualTo(listener.stepStarts.get(0) + ms(100));
    }
}
