package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ClosedLoopTest {
    static final Workload WORKLOAD = i -> RequestSpec.of("prompt " + i, 16);

    static LoadResult run(Step step, FakeSender sender, RecordingListener listener) {
        return LoadRun.builder().sender(sender).workload(WORKLOAD).listener(listener).clock(RunClock.system())
                .step(step).build().run();
    }

    @Test
    void builderReportsEveryProblemAtOnce() {
        assertThatThrownBy(() -> ClosedLoopStep.builder().concurrency(0).warmup(Duration.ofSeconds(-1))
                .thinkTime(Duration.ofMillis(-5)).maxRequests(0).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("concurrency must be >= 1 user, got 0")
                .hasMessageContaining("think time must be >= 0")
                .hasMessageContaining("warm-up must be >= 0")
                .hasMessageContaining("maxRequests must be > 0 when given, got 0")
                .hasMessageContaining("4 problems");
        assertThatThrownBy(() -> ClosedLoopStep.builder().concurrency(2).build())
                .hasMessageContaining("needs a duration, a maxRequests bound, or both");
        assertThatThrownBy(() -> ClosedLoopStep.builder().duration(Duration.ZERO).build())
                .hasMessageContaining("duration must be > 0");
    }

    @Test
    void usersStartEvenlyOverTheRampUpNotInLockStep() throws Exception {
        // 4 users over 400 ms: first requests intended at +0, +100, +200, +300 ms, each dispatched no earlier.
        // A request takes 500 ms, so no user's second request (intended >= +500 ms) sorts among the first four.
        FakeSender sender = FakeSender.fixedLatency(ms(500));
        RecordingListener listener = new RecordingListener();
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(4).rampUp(Duration.ofMillis(400))
                .duration(Duration.ofMillis(600)).build();
        assertThat(step.rampUp()).isEqualTo(Duration.ofMillis(400));
        assertThat(step.toBuilder().build()).isEqualTo(step);
        assertThat(step.withConcurrency(8).rampUp()).isEqualTo(Duration.ofMillis(400));
        run(step, sender, listener);
        long stepStart = listener.stepStarts.get(0);
        List<Long> firsts = listener.of("c=4").stream().map(r -> r.timing().intendedNanos() - stepStart).sorted()
                .limit(4).toList();
        assertThat(firsts).containsExactly(0L, ms(100), ms(200), ms(300));
        assertThat(listener.of("c=4")).allMatch(r -> r.timing().dispatchNanos() >= r.timing().intendedNanos());
        // Without a ramp every user's first request is intended at the step start.
        RecordingListener lockStep = new RecordingListener();
        run(ClosedLoopStep.builder().concurrency(4).duration(Duration.ofMillis(200)).build(), sender, lockStep);
        long start = lockStep.stepStarts.get(0);
        assertThat(lockStep.of("c=4").stream().filter(r -> r.timing().intendedNanos() == start).count()).isEqualTo(4);
        assertThatThrownBy(() -> ClosedLoopStep.builder().concurrency(2).duration(Duration.ofSeconds(1))
                .rampUp(Duration.ofMillis(-1)).build()).hasMessageContaining("ramp-up must be >= 0");
    }

    @Test
    void stepInfoDescribesThePlan() {
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(8).warmup(Duration.ofSeconds(2))
                .duration(Duration.ofSeconds(10)).build();
        StepInfo info = step.info(3);
        assertThat(info).isEqualTo(new StepInfo(3, "c=8", "closed", 8, Double.NaN, "", -1, "", 2_000_000_000L,
                10_000_000_000L, -1));
        assertThat(step.withConcurrency(16).label()).isEqualTo("c=16");
        assertThat(step.withLabel("x").withConcurrency(2).label()).isEqualTo("c=2");
        assertThat(step.withLabel("x").toBuilder().concurrency(2).build().label()).isEqualTo("x");
    }

    @Test
    void fourUsersAtFiftyMillisecondsForOneSecondSendAboutEighty() throws Exception {
        FakeSender sender = FakeSender.fixedLatency(ms(50));
        RecordingListener listener = new RecordingListener();
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(4).duration(Duration.ofSeconds(1)).build();

        LoadResult result = run(step, sender, listener);

        List<RequestRecord> records = listener.of("c=4");
        // Each request takes >= 50 ms, so a user can start at most 20 (at 0, 50, ..., 950 ms) before the
        // 1 s bound: 80 is the exact upper limit. Below: more than a serialized loop can send (20, hard, for the
        // same reason). It was 48 (30 ms of overhead per request), which a single stall of ~400 ms on a loaded
        // machine undercuts (the 400 ms step of the think-time test below lost half its requests once here);
        // four users are proven by maxInFlight.
        assertThat(records.size()).isBetween(21, 80);
        assertThat(records).allMatch(RequestRecord::isOk);
        assertThat(sender.maxInFlight.get()).isEqualTo(4);
        assertThat(result.completed()).isTrue();
        assertThat(listener.windows.get(0).completed()).isTrue();
        assertThat(listener.violation).isNull();
        // Ids are unique and dense.
        assertThat(records.stream().map(RequestRecord::id).distinct().count()).isEqualTo(records.size());
        assertThat(sender.allThreadsEnded(1000)).isTrue();
    }

    @Test
    void intendedStartIsWhenTheSlotFreedPlusThinkTime() {
        FakeSender sender = FakeSender.fixedLatency(ms(20));
        RecordingListener listener = new RecordingListener();
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(2).thinkTime(Duration.ofMillis(30))
                .duration(Duration.ofMillis(400)).build();

        run(step, sender, listener);

        long stepStart = listener.stepStarts.get(0);
        Map<String, List<RequestRecord>> byUser = listener.of("c=2").stream()
                .collect(Collectors.groupingBy(r -> sender.threadNameById.get(r.id())));
        assertThat(byUser).hasSize(2);
        for (List<RequestRecord> user : byUser.values()) {
            List<RequestRecord> rs = user.stream().sorted(Comparator.comparingLong(r -> r.timing().intendedNanos()))
                    .toList();
            // 400 ms of 20 ms requests + 30 ms think: at most 8 per user (at 0, 50, ..., 350 ms: each cycle lasts
            // >= 50 ms, hard). Below, only what the gap checks need: 2. (It was 4, "even with 50 ms of overhead per
            // request"; one run at load 6 here fell below it: a stall of a few hundred ms in a 400 ms step does it.
            // That users keep sending through the step is fourUsersAtFiftyMilliseconds...'s concern.)
            assertThat(rs.size()).isBetween(2, 8);
            assertThat(rs.get(0).timing().intendedNanos()).isEqualTo(stepStart);
            List<Long> gaps = new java.util.ArrayList<>();
            for (int k = 1; k < rs.size(); k++) {
                long slotFree = rs.get(k - 1).timing().endNanos();
                long intended = rs.get(k).timing().intendedNanos();
                // The runner reads the clock right after the sender returns, so intended - end >= 30 ms is hard.
                assertThat(intended - slotFree).isGreaterThanOrEqualTo(ms(30));
                assertThat(rs.get(k).timing().dispatchNanos()).isGreaterThanOrEqualTo(intended);
                gaps.add(intended - slotFree);
            }
            // Above 30 ms is only the time between the fake's last clock read and the runner's: microseconds, unless
            // a preempted carrier thread stretches it by whole time slices on a loaded machine. So the bound is on the
            // median of the user's gaps (one preempted hand-over among ~7 used to fail a per-gap bound), with 25 ms
            // of slack: the bugs this targets shift every gap, and fail it: no think time (~0), think time counted
            // from dispatch (~10), think time applied twice (~60).
            List<Long> sortedGaps = gaps.stream().sorted().toList();
            // (the lower median: with 2 gaps, the smaller)
            assertThat(sortedGaps.get((sortedGaps.size() - 1) / 2)).as("median think gap, ns, of %s", sortedGaps)
                    .isLessThan(ms(55));
        }
    }

    @Test
    void warmupRequestsAreFlaggedAndCountBoundIsExact() {
        FakeSender sender = FakeSender.fixedLatency(ms(10));
        RecordingListener listener = new RecordingListener();
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(3).warmup(Duration.ofMillis(100))
                .maxRequests(25).build();

        run(step, sender, listener);

        List<RequestRecord> records = listener.of("c=3");
        long warmupEnd = listener.stepStarts.get(0) + ms(100);
        // Exactly 25 measured requests, whatever the timing; 3 users × ~10 warm-up requests before them (at
        // most 10 each, started at 0, 10, ..., 90 ms, so <= 33 has slack; at least 2 each even with 40 ms of
        // overhead per 10 ms request on a loaded machine).
        assertThat(records.stream().filter(r -> !r.warmup()).count()).isEqualTo(25);
        assertThat(records.stream().filter(RequestRecord::warmup).count()).isBetween(6L, 33L);
        // The flag is decided when the request is handed to the sender, after its intended start and
        // before the fake's dispatch stamp: so a measured request is dispatched at or after the warm-up end
        // and a warm-up request was intended before it (both hard). A warm-up request's dispatch stamp is
        // normally a few µs after the decision, but a preempted carrier thread can delay it by whole time
        // slices: 50 ms (5 request latencies) still fails a flag decided requests earlier.
        assertThat(records).allMatch(r -> r.warmup()
                ? r.timing().intendedNanos() < warmupEnd && r.timing().dispatchNanos() < warmupEnd + ms(50)
                : r.timing().dispatchNanos() >= warmupEnd);
        assertThat(listener.windows.get(0).startNanos()).isEqualTo(warmupEnd);
    }

    @Test
    void requestsStillInFlightAfterTheDrainTimeoutAreUnfinishedFailures() throws Exception {
        FakeSender sender = FakeSender.fixedLatency(ms(5_000));
        RecordingListener listener = new RecordingListener();
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(2).duration(Duration.ofMillis(100))
                .drainTimeout(Duration.ofMillis(200)).build();

        long t0 = System.nanoTime();
        LoadResult result = run(step, sender, listener);
        long took = System.nanoTime() - t0;

        // The server never finished them within the drain: a failure (UNFINISHED), not the user's CANCELLED.
        assertThat(listener.of("c=2")).hasSize(2).allMatch(r -> r.outcome().equals(Outcome.UNFINISHED) && r.dispatched());
        // 100 ms + 200 ms drain, then the cancellation is immediate: ~0.3 s. Noise only lengthens it, and
        // 3 s still fails a runner that waits for the 5 s answers.
        assertThat(took).isLessThan(ms(3_000));
        assertThat(result.completed()).isTrue();
        assertThat(sender.allThreadsEnded(1000)).isTrue();
    }
}
