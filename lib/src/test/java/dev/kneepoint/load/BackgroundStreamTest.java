package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A background stream under a ladder: its schedule, its tag, its end and its stop. */
class BackgroundStreamTest {
    private static final Workload FG = i -> RequestSpec.of("fg " + i, 4);
    private static final Workload BG = i -> RequestSpec.of("bg " + i, 4).withTag("ignored");

    private static StepSequence twoSteps() {
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(1).duration(Duration.ofMillis(400)).build();
        return StepSequence.concurrency(List.of(1, 2), step).withPause(Duration.ofMillis(200));
    }

    @Test
    void runsAtItsRateThroughStepsAndPausesWithItsTag() {
        RecordingListener listener = new RecordingListener();
        // Constant 50 req/s; 20 ms answers, so the stream never piles up.
        BackgroundStream bg = new BackgroundStream(BG, ArrivalPlan.constant(50), "bg", Duration.ofSeconds(5));
        LoadResult result = LoadRun.builder().sender(FakeSender.fixedLatency(ms(20))).workload(FG).listener(listener)
                .ladder(twoSteps()).background(bg).build().run();

        assertThat(result.completed()).isTrue();
        List<RequestRecord> all = List.copyOf(listener.records);
        List<RequestRecord> background = all.stream().filter(r -> r.tag().equals("bg")).toList();
        assertThat(background).allMatch(r -> r.step().equals("bg") && !r.warmup() && r.isOk());
        // Ids are unique across the foreground and the background (one counter per run).
        Set<Long> ids = new HashSet<>();
        all.forEach(r -> assertThat(ids.add(r.id())).isTrue());
        // The stream covers the run (400 ms + 200 ms pause + 400 ms plus drains) at one request per 20 ms. Checked on
        // the run clock rather than as a count (which was bounded at 75, i.e. a run of 1.5 s: a loaded machine
        // stretches the run's set-up and drains, and the stream rightly fires for as long as the run lasts):
        // constant arrivals, so the intended times are exactly the plan's points first + k x 20 ms, each once,
        // none skipped, from the first step (the stream starts with the run) to the end of the last one.
        long lastStepEnd = listener.windows.get(listener.windows.size() - 1).endNanos();
        long first = background.stream().mapToLong(r -> r.timing().intendedNanos()).min().orElseThrow();
        assertThat(background).allMatch(r -> (r.timing().intendedNanos() - first) % ms(20) == 0);
        assertThat(background.stream().map(r -> (r.timing().intendedNanos() - first) / ms(20)).sorted().toList())
                .as("plan points fired, in order").isEqualTo(java.util.stream.LongStream.range(0, background.size())
                        .boxed().toList());
        assertThat(first).as("first arrival within the first step").isLessThan(listener.windows.get(0).endNanos());
        long last = background.stream().mapToLong(r -> r.timing().intendedNanos()).max().orElseThrow();
        assertThat(last).as("arrivals go on to the last step's end").isGreaterThan(lastStepEnd - ms(20));
        // Hence at least 30: the pause and the second step alone last >= 600 ms (sleeps and step durations never
        // end early). ~55 on a quiet machine.
        assertThat(background.size()).isGreaterThanOrEqualTo(30);
        // The stream stops issuing when the last step ended (its scheduler may fire at most one more arrival).
        assertThat(background.stream().filter(r -> r.timing().intendedNanos() > lastStepEnd).count())
                .isLessThanOrEqualTo(1);
        // It started before the first step: requests are intended during the first step and the pause.
        long pauseStart = listener.windows.get(0).endNanos();
        long secondStart = listener.stepStarts.get(1);
        assertThat(background).anyMatch(r -> r.timing().intendedNanos() > pauseStart
                && r.timing().intendedNanos() < secondStart);
    }

    @Test
    void stoppingTheRunCancelsTheStreamsRequestsInFlight() throws Exception {
        RecordingListener listener = new RecordingListener();
        // Answers take 10 s: the stream's requests are all in flight when the run is stopped.
        BackgroundStream bg = new BackgroundStream(BG, ArrivalPlan.constant(20), "bg", Duration.ofSeconds(30));
        FakeSender fake = FakeSender.fixedLatency(ms(10_000));
        java.util.concurrent.atomic.AtomicInteger bgSent = new java.util.concurrent.atomic.AtomicInteger();
        RunHandle handle = LoadRun.builder().sender((spec, ctx, c) -> {
            if (spec.tag().equals("bg")) {
                bgSent.incrementAndGet();
            }
            return fake.execute(spec, ctx, c);
        }).workload(FG).listener(listener).ladder(twoSteps()).background(bg).build().start();
        // A state, not a time (it was a 300 ms sleep): the stream has a request at the server.
        long deadline = System.nanoTime() + ms(10_000);
        while (bgSent.get() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(bgSent.get()).as("background requests sent within 10 s").isPositive();
        long t0 = System.nanoTime();
        handle.close();
        // Stop: within about a second (two 400 ms grace periods), not after the 10 s answers or the 30 s drain.
        assertThat(System.nanoTime() - t0).isLessThan(ms(3000));
        assertThat(handle.await().ending()).isEqualTo(LoadResult.Ending.STOPPED);
        List<RequestRecord> background = List.copyOf(listener.records).stream().filter(r -> r.tag().equals("bg")).toList();
        assertThat(background).isNotEmpty().allMatch(r -> r.outcome() instanceof Outcome.Cancelled);
    }

    @Test
    void invalidStreamListsEveryProblem() {
        assertThatThrownBy(() -> new BackgroundStream(null, null, "default", Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("workload").hasMessageContaining("arrival plan")
                .hasMessageContaining("tag").hasMessageContaining("drainTimeout");
    }
}
