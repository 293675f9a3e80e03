package dev.kneepoint.client;

import static dev.kneepoint.client.ScriptedBody.content;
import static dev.kneepoint.client.ScriptedBody.finish;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestSpec;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Cancellation of a request in flight (the server faults and their outcomes are in {@link FaultMatrixTest}).
 */
class StreamingClientOutcomeTest extends ClientFixture {

    private static Duration ms(int m) {
        return Duration.ofMillis(m);
    }

    @Test
    void cancellationFromAnotherThreadIsQuick() throws Exception {
        enqueueSse(body().event(content("a")).pause(5000).event(finish("b")));
        Cancellation c = new Cancellation();
        // The 200 ms count starts once the server has the request, so after the dispatch stamp: the cancel
        // comes >= 200 ms after dispatch (hard). (Counting from before send() let a slow client set-up on a
        // loaded machine eat into it.) Above: the cancel is quick, so 400 ms covers scheduling noise and still
        // fails a client that waits for the 5 s pause.
        Thread canceller = Thread.ofVirtual().start(() -> {
            try {
                if (server.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS) != null) {
                    Thread.sleep(200);
                }
            } catch (InterruptedException e) {
                return;
            }
            c.cancel();
        });
        RequestRecord r = send(target(b -> b), RequestSpec.of("hi", 8), c);
        canceller.join();
        assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(r.timing().chunkNanos()).hasSize(1); // what was measured is kept
        assertThat(ms(r.timing().endNanos() - r.timing().dispatchNanos())).isBetween(200.0, 200.0 + 400);
    }

    @Test
    void alreadyCancelledIsNotDispatched() {
        Cancellation c = new Cancellation();
        c.cancel();
        RequestRecord r = send(target(b -> b), RequestSpec.of("hi", 8), c);
        assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(r.dispatched()).isFalse();
        assertThat(server.getRequestCount()).isZero();
    }

    @Test
    void interruptingTheVirtualThreadCancels() throws Exception {
        enqueueSse(body().event(content("a")).pause(5000).event(finish("b")));
        TargetConfig t = target(b -> b);
        AtomicReference<RequestRecord> out = new AtomicReference<>();
        Thread worker = Thread.ofVirtual().start(() -> out.set(send(t)));
        Thread.sleep(200);
        worker.interrupt();
        worker.join(2000);
        assertThat(worker.isAlive()).isFalse();
        assertThat(out.get().outcome()).isEqualTo(Outcome.CANCELLED);
    }
}
