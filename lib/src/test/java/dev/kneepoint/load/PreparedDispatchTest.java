package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * An open-loop request is prepared (spec and bytes, {@link RequestSender#prepare}) before its planned instant and
 * sent at it, never before; one whose instant had not come when the step stopped was never due and has no record.
 */
class PreparedDispatchTest {
    /** {@link FakeSender} that notes when each request was prepared, on the run clock. */
    static final class PreparingSender implements RequestSender {
        final FakeSender server;
        final Map<Long, Long> preparedAt = new ConcurrentHashMap<>();
        volatile Consumer<RequestContext> onPrepare = c -> { };

        PreparingSender(FakeSender server) {
            this.server = server;
        }

        @Override
        public RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation) {
            return server.execute(spec, context, cancellation);
        }

        @Override
        public Prepared prepare(RequestSpec spec, RequestContext context) {
            preparedAt.put(context.id(), context.clock().now());
            onPrepare.accept(context);
            return cancellation -> server.execute(spec, context, cancellation);
        }
    }

    @Test
    void requestsArePreparedBeforeTheirInstantAndSentAtIt() {
        PreparingSender sender = new PreparingSender(FakeSender.fixedLatency(ms(5)));
        RecordingListener listener = new RecordingListener();
        LoadRun.builder().sender(sender).workload(ClosedLoopTest.WORKLOAD).listener(listener).clock(RunClock.system())
                .step(OpenLoopStep.builder().arrival(ArrivalPlan.constant(50)).duration(Duration.ofSeconds(1)).build())
                .build().run();

        List<RequestRecord> rs = listener.of("rate=50");
        assertThat(rs).hasSize(50).allMatch(RequestRecord::isOk);
        // Never sent early: the fake server stamps t_dispatch when the prepared request is sent.
        assertThat(rs).allMatch(r -> r.scheduleLagNanos() >= 0);
        assertThat(rs).allMatch(r -> sender.preparedAt.get(r.id()) <= r.timing().dispatchNanos());
        // Prepared ahead (the lead is 5 ms): a runner that prepared at the instant would have none. A loaded machine
        // can delay the scheduler thread past a request's instant, so not all of them: at least half.
        long ahead = rs.stream().filter(r -> sender.preparedAt.get(r.id()) < r.timing().intendedNanos()).count();
        assertThat(ahead).as("requests prepared before their instant").isGreaterThanOrEqualTo(25);
    }

    @Test
    void aRequestPreparedForAnInstantAfterTheStopIsNotRecorded() throws InterruptedException {
        AtomicReference<RunHandle> handle = new AtomicReference<>();
        // Once request 1 is being prepared (≈ 5 ms before its instant at 100 ms) the run clock stands still and the
        // run is stopped: on the run clock the stop comes before request 1's instant, however slow this machine is.
        long[] frozenAt = {-1};
        RunClock clock = RunClock.of(() -> {
            synchronized (frozenAt) {
                return frozenAt[0] >= 0 ? frozenAt[0] : System.nanoTime();
            }
        });
        PreparingSender sender = new PreparingSender(FakeSender.fixedLatency(ms(10_000)));
        sender.onPrepare = context -> {
            if (context.id() == 1) {
                synchronized (frozenAt) {
                    frozenAt[0] = System.nanoTime();
                }
                handle.get().stop();
            }
        };
        RecordingListener listener = new RecordingListener();
        handle.set(LoadRun.builder().sender(sender).workload(ClosedLoopTest.WORKLOAD).listener(listener).clock(clock)
                .step(OpenLoopStep.builder().arrival(ArrivalPlan.constant(10)).duration(Duration.ofSeconds(60)).build())
                .build().start());

        assertThat(handle.get().await(Duration.ofSeconds(10))).isPresent();
        List<RequestRecord> rs = listener.of("rate=10");
        // Request 0 was sent and cancelled by the stop; request 1, prepared but not due, was never sent nor recorded.
        assertThat(rs).extracting(RequestRecord::id).containsExactly(0L);
        assertThat(rs.get(0).outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(rs.get(0).dispatched()).isTrue();
        assertThat(sender.preparedAt).containsKey(1L);
        assertThat(sender.server.threads).hasSize(1);
    }
}
