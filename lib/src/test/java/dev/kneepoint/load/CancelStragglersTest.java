package dev.kneepoint.load;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.io.RunDirectory;
import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.WindowPlan;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.SessionWorkload;
import dev.kneepoint.request.Workload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #8: a stop must leave exactly one record per dispatched request, in the step results and in
 * {@code requests.jsonl}, even when request threads ignore the cancellation for longer than the grace period
 * (a starved machine, a transport stuck in I/O). The stragglers here never end before the test releases them, so
 * without the tracker's own CANCELLED records they would simply be missing, and when released they would deliver
 * after the step (and the run directory) had ended.
 */
class CancelStragglersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long GRACE = StepRunners.CANCEL_GRACE_NANOS;

    @TempDir
    Path tmp;

    /** Records everything (checking the step contract) and writes the run directory, as a sweep does. */
    static final class Tee extends RecordingListener {
        final RunDirectory dir;

        Tee(RunDirectory dir) {
            this.dir = dir;
        }

        @Override public void stepStarted(StepInfo step, long start, WindowPlan plan) {
            super.stepStarted(step, start, plan);
            dir.stepStarted(step, start, plan);
        }

        @Override public void stepLoadStopping(StepInfo step) {
            dir.stepLoadStopping(step);
        }

        @Override public void requestFinished(RequestRecord record) {
            super.requestFinished(record);
            dir.requestFinished(record);
        }

        @Override public void stepFinished(StepInfo step, StepWindow window, ClientHealth client) {
            super.stepFinished(step, window, client);
            dir.stepFinished(step, window, client);
        }
    }

    private static final Workload WORKLOAD = i -> RequestSpec.of("prompt " + i, 16);

    private static Map<Long, RequestRecord> byIdOnce(List<RequestRecord> records) {
        Map<Long, RequestRecord> m = new HashMap<>();
        for (RequestRecord r : records) {
            assertThat(m.put(r.id(), r)).as("second record for id %d", r.id()).isNull();
        }
        return m;
    }

    /** Ids of {@code requests.jsonl}, each exactly once; the outcome of each. */
    private static Map<Long, String> jsonl(RunDirectory dir) throws IOException {
        Map<Long, String> m = new HashMap<>();
        for (String line : Files.readAllLines(dir.path().resolve("requests.jsonl"))) {
            JsonNode n = JSON.readTree(line);
            assertThat(m.put(n.get("id").asLong(), n.get("outcome").asText())).as("duplicate line %s", line).isNull();
        }
        return m;
    }

    /** Releases the stragglers, waits for their threads, and checks they handed nothing more to anyone. */
    private static void releaseAndCheckNothingLate(StragglingSender sender, Tee tee, int expectedRecords, int expectedLines)
            throws Exception {
        sender.release();
        assertThat(sender.allThreadsEnded(10_000)).as("straggler threads end once released").isTrue();
        assertThat(tee.records).hasSize(expectedRecords);
        assertThat(tee.dir.recordsAfterClose()).isZero();
        assertThat(tee.dir.aggregator().unassignedRecords()).isZero();
        assertThat(jsonl(tee.dir)).hasSize(expectedLines);
    }

    @Test
    @Timeout(60)
    void stoppingAThousandUsersWhoseThreadsIgnoreTheCancellationLeavesOneCancelledRecordEach() throws Exception {
        int users = 1000;
        // Even ids straggle (ignore cancel and interrupts), odd ids honour the cancellation at once; stragglers with
        // ids divisible by 4 publish their progress (one token at dispatch), as Kneepoint's client does.
        StragglingSender sender = new StragglingSender((spec, ctx) -> ctx.id() % 2 == 0, (spec, ctx) -> ctx.id() % 4 == 0);
        RunDirectory dir = RunDirectory.builder(tmp).slug("stragglers").open();
        Tee tee = new Tee(dir);
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(users).duration(Duration.ofSeconds(60)).build();
        RunHandle handle = LoadRun.builder().sender(sender).workload(WORKLOAD).listener(tee).ladder(StepSequence.single(step))
                .build().start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sender.entered.get() < users && System.nanoTime() < deadline) {
            Thread.sleep(5); // a state (every user's first request is in flight), not a time
        }
        assertThat(sender.entered.get()).isEqualTo(users);

        long t0 = System.nanoTime();
        handle.close();
        long took = System.nanoTime() - t0;
        dir.close(false, "stopped");

        assertThat(handle.await().ending()).isEqualTo(LoadResult.Ending.STOPPED);
        // The stop waited both grace periods (the stragglers never end: a hard lower bound), then recorded the
        // stragglers itself; 5 s upper bound: 0.8 s of grace plus 500 records on a loaded 2-core machine.
        assertThat(took).isGreaterThanOrEqualTo(2 * GRACE).isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(tee.violation).as("a record outside its step").isNull();
        Map<Long, RequestRecord> records = byIdOnce(List.copyOf(tee.records));
        // Exactly the requests the server saw, each once, all CANCELLED.
        assertThat(records.keySet()).isEqualTo(sender.dispatchById.keySet());
        assertThat(records).hasSize(users);
        assertThat(records.values()).allMatch(r -> r.outcome().equals(Outcome.CANCELLED) && r.dispatched());
        // The stragglers' records were written by the stop. With published progress: the sender's own dispatch, its
        // token, its first answer and its resend; without: no first byte, t_dispatch = the hand-over to the sender (at or before the sender's
        // own dispatch reading), no tokens.
        for (RequestRecord r : records.values()) {
            if (r.id() % 4 == 0) {
                assertThat(r.timing().dispatchNanos()).isEqualTo(sender.dispatchById.get(r.id()));
                assertThat(r.timing().chunkNanos()).containsExactly(r.timing().dispatchNanos());
                assertThat(r.tokens().outputTokens()).isEqualTo(1);
                assertThat(r.timing().firstAnswerNanos()).as("first answer kept").isEqualTo(r.timing().dispatchNanos());
                assertThat(r.response().retried()).as("the resend kept").isTrue();
            } else if (r.id() % 2 == 0) {
                assertThat(r.timing().firstByteNanos()).isEqualTo(RequestRecord.ABSENT);
                assertThat(r.timing().chunkNanos()).isEmpty();
                assertThat(r.timing().dispatchNanos()).isLessThanOrEqualTo(sender.dispatchById.get(r.id()));
            }
            assertThat(r.timing().endNanos()).isGreaterThanOrEqualTo(r.timing().dispatchNanos());
        }
        StepResult result = dir.aggregator().results().get(0);
        // Cancelled requests are reported apart: not failures of the server.
        assertThat(result.counts().cancelled()).isEqualTo(users);
        assertThat(result.counts().requestsFailed()).isZero();
        assertThat(result.counts().requestsOk()).isZero();
        Map<Long, String> lines = jsonl(dir);
        assertThat(lines.keySet()).isEqualTo(records.keySet());
        assertThat(lines.values()).allMatch("CANCELLED"::equals);

        releaseAndCheckNothingLate(sender, tee, users, users);
    }

    /** Chat sessions of 3 turns; every turn tagged {@code chat}. */
    private static final SessionWorkload SESSIONS = new SessionWorkload() {
        @Override public int turns() { return 3; }

        @Override public RequestSpec turn(long session, int turn, List<Answer> answers) {
            return RequestSpec.of("session " + session + " turn " + turn, 4).withTag("chat");
        }

        @Override public RequestSpec next(long index) {
            return turn(index, 0, List.of());
        }
    };

    @Test
    @Timeout(60)
    void aSessionRunsStragglersKeepTheirTurnsSpecInTheStopsRecord() throws Exception {
        int users = 200;
        StragglingSender sender = new StragglingSender((spec, ctx) -> ctx.id() % 2 == 0);
        RunDirectory dir = RunDirectory.builder(tmp).slug("sessions").open();
        Tee tee = new Tee(dir);
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(users).duration(Duration.ofSeconds(60)).build();
        RunHandle handle = LoadRun.builder().sender(sender).workload(SESSIONS).listener(tee).ladder(StepSequence.single(step))
                .build().start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (sender.entered.get() < users && System.nanoTime() < deadline) {
            Thread.sleep(5); // every user's first turn is in flight
        }
        handle.close();
        dir.close(false, "stopped");

        Map<Long, RequestRecord> records = byIdOnce(List.copyOf(tee.records));
        assertThat(records.keySet()).isEqualTo(sender.dispatchById.keySet());
        assertThat(records).hasSize(users);
        // The stop's records carry the turn's spec (tag, requested lengths) like the workers' own.
        assertThat(records.values()).allMatch(r -> r.outcome().equals(Outcome.CANCELLED) && r.tag().equals("chat")
                && r.tokens().requestedOutputTokens() == 4 && r.response().responseText() == null);
        assertThat(tee.violation).isNull();
        releaseAndCheckNothingLate(sender, tee, users, users);
    }

    @Test
    @Timeout(60)
    void theDrainTimeoutOfAQueueingOpenLoopStepRecordsStragglersAndQueuedRequestsOnce() throws Exception {
        int planned = 400;
        int cap = 100;
        // Every request sent straggles; with a cap of 100 (QUEUE) the other 300 wait for a slot that never frees.
        StragglingSender sender = new StragglingSender((spec, ctx) -> true);
        RunDirectory dir = RunDirectory.builder(tmp).slug("drain").open();
        Tee tee = new Tee(dir);
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(4000)).maxRequests(planned)
                .maxInFlight(cap, CapPolicy.QUEUE).drainTimeout(Duration.ofMillis(100)).build();
        LoadResult result = LoadRun.builder().sender(sender).workload(WORKLOAD).listener(tee).ladder(StepSequence.single(step))
                .build().run();
        dir.close(true, "completed");

        assertThat(result.ending()).isEqualTo(LoadResult.Ending.COMPLETED);
        assertThat(tee.windows.get(0).completed()).isTrue();
        assertThat(tee.violation).isNull();
        Map<Long, RequestRecord> records = byIdOnce(List.copyOf(tee.records));
        assertThat(records).hasSize(planned);
        // The drain gave up: the dispatched ones are UNFINISHED (failures), the queued ones never sent CANCELLED.
        assertThat(records.values()).allMatch(r -> r.outcome().equals(r.dispatched() ? Outcome.UNFINISHED
                : Outcome.CANCELLED));
        // Dispatched exactly when the server saw it: the 100 holding a slot; the queued 300 never went out.
        assertThat(records.values().stream().filter(RequestRecord::dispatched).map(RequestRecord::id).toList())
                .containsExactlyInAnyOrderElementsOf(sender.dispatchById.keySet()).hasSize(cap);
        StepResult step0 = dir.aggregator().results().get(0);
        assertThat(step0.counts().cancelled()).isEqualTo(planned - cap);
        assertThat(step0.counts().requestsFailed()).isEqualTo(cap);
        assertThat(step0.counts().failuresByClass()).containsExactly(java.util.Map.entry("UNFINISHED", (long) cap));
        assertThat(jsonl(dir).keySet()).isEqualTo(records.keySet());

        releaseAndCheckNothingLate(sender, tee, planned, planned);
    }

    @Test
    @Timeout(60)
    void aBackgroundStreamsStragglersAreRecordedOnceBeforeTheRunReturns() throws Exception {
        // Foreground: 2 users for 300 ms against a 20 ms server; background at 200 req/s whose requests straggle.
        StragglingSender bgSender = new StragglingSender((spec, ctx) -> spec.tag().equals("bg"));
        FakeSender fgSender = FakeSender.fixedLatency(FakeSender.ms(20));
        RunDirectory dir = RunDirectory.builder(tmp).slug("bg").open();
        dir.aggregator().trackBackground("bg", 200, "constant"); // as a sweep with a background stream does
        Tee tee = new Tee(dir);
        BackgroundStream bg = new BackgroundStream(i -> RequestSpec.of("bg " + i, 4), ArrivalPlan.constant(200), "bg",
                Duration.ofMillis(50));
        LoadResult result = LoadRun.builder()
                .sender((spec, ctx, c) -> spec.tag().equals("bg") ? bgSender.execute(spec, ctx, c) : fgSender.execute(spec, ctx, c))
                .workload(WORKLOAD).listener(tee).background(bg)
                .ladder(StepSequence.single(ClosedLoopStep.builder().concurrency(2).duration(Duration.ofMillis(300)).build()))
                .build().run();
        dir.close(true, "completed");

        assertThat(result.ending()).isEqualTo(LoadResult.Ending.COMPLETED);
        List<RequestRecord> all = List.copyOf(tee.records);
        byIdOnce(all);
        List<RequestRecord> background = all.stream().filter(r -> r.tag().equals("bg")).toList();
        // 300 ms at 200 req/s: about 60 sent (>= 20 even if the machine is slow to start the stream).
        assertThat(background.size()).isGreaterThanOrEqualTo(20);
        // Cut by the stream's drain: dispatched ones UNFINISHED, any registered but never sent CANCELLED.
        assertThat(background).allMatch(r -> r.outcome().equals(r.dispatched() ? Outcome.UNFINISHED : Outcome.CANCELLED)
                && r.step().equals("bg"));
        assertThat(background.stream().filter(RequestRecord::dispatched).map(RequestRecord::id).toList())
                .containsExactlyInAnyOrderElementsOf(bgSender.dispatchById.keySet());
        assertThat(jsonl(dir)).hasSize(all.size());
        // The background result counts each of them once: the unfinished ones as failures, cancelled ones apart.
        dev.kneepoint.metrics.BackgroundResult bgResult = dir.result(true).background().orElseThrow();
        long unfinished = background.stream().filter(r -> r.outcome().equals(Outcome.UNFINISHED)).count();
        assertThat(unfinished).isEqualTo(bgSender.dispatchById.size()).isPositive();
        assertThat(bgResult.requests()).isEqualTo(background.size());
        assertThat(bgResult.total().counts().cancelled()).isEqualTo(background.size() - unfinished);
        assertThat(bgResult.total().counts().requestsFailed()).isEqualTo(unfinished);

        releaseAndCheckNothingLate(bgSender, tee, all.size(), all.size());
    }
}
