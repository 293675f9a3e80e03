package dev.kneepoint.client;

import static dev.kneepoint.client.ScriptedBody.content;
import static dev.kneepoint.client.ScriptedBody.finish;
import static dev.kneepoint.client.ScriptedBody.role;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.workload.RequestSpec;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;

/**
 * Every outcome class against a scripted server. Timeout tolerances: a deadline cannot fire
 * early, so the lower bound is the configured value minus a few ms of clock jitter; the upper
 * slack (400 ms) covers okio's watchdog wake-up plus a noisy shared machine. Stalls last 5 s, so a
 * deadline that never fired would blow the upper bound.
 */
class OpenAiClientOutcomeTest extends ClientFixture {

    private static Duration ms(int m) {
        return Duration.ofMillis(m);
    }

    @Test
    void http429And500WithBodies() {
        server.enqueue(new MockResponse.Builder().code(429).body("{\"error\":{\"message\":\"rate limited\"}}").build());
        RequestRecord r = send(target(b -> b));
        assertThat(r.outcome()).isInstanceOf(Outcome.HttpError.class);
        assertThat(r.outcome().label()).isEqualTo("HTTP_ERROR(429)");
        assertThat(r.outcome().detail()).contains("rate limited");
        assertThat(r.firstTokenNanos()).isEqualTo(RequestRecord.ABSENT);

        server.enqueue(new MockResponse.Builder().code(500).body("x".repeat(5000)).build());
        RequestRecord r2 = send(target(b -> b));
        assertThat(r2.outcome().label()).isEqualTo("HTTP_ERROR(500)");
        assertThat(r2.outcome().detail()).hasSize(503).endsWith("...");
    }

    @Test
    void connectionRefusedOnAClosedPort() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        int p = port;
        TargetConfig t = TargetConfig.builder().baseUrl("http://127.0.0.1:" + p).model("m").transport(transport).build();
        RequestRecord r = send(t);
        assertThat(r.outcome()).isInstanceOf(Outcome.ConnectionError.class);
        assertThat(r.outcome().detail()).contains("127.0.0.1:" + p).contains("refused");
        assertThat(r.dispatchNanos()).isNotEqualTo(RequestRecord.ABSENT);
    }

    @Test
    void unknownHost() {
        TargetConfig t = TargetConfig.builder().baseUrl("http://no-such-host.invalid:8000").model("m").transport(transport)
                .build();
        RequestRecord r = send(t);
        assertThat(r.outcome()).isInstanceOf(Outcome.ConnectionError.class);
        assertThat(r.outcome().detail()).contains("unknown host 'no-such-host.invalid'");
    }

    @Test
    void resetMidStreamIsAConnectionError() {
        enqueueSse(body().event(content("a")).event(content("b")).fail());
        RequestRecord r = send(target(b -> b));
        assertThat(r.outcome()).isInstanceOf(Outcome.ConnectionError.class);
        assertThat(r.outcome().detail()).contains("mid-stream after 2 token events");
        assertThat(r.chunkNanos()).hasSize(2);
        assertThat(r.firstTokenNanos()).isGreaterThan(0);
    }

    @Test
    void streamWithoutDoneNorFinishReasonIsTruncated() {
        enqueueSse(body().event(role()).event(content("a")).event(content("b")));
        RequestRecord r = send(target(b -> b));
        assertThat(r.outcome()).isEqualTo(Outcome.TRUNCATED);
        assertThat(r.outputTokens()).isEqualTo(2);
    }

    @Test
    void finishReasonWithoutDoneIsOk() {
        enqueueSse(body().event(content("a")).event(finish("b")));
        assertThat(send(target(b -> b)).outcome()).isEqualTo(Outcome.OK);
    }

    @Test
    void zeroTokensIsEmpty() {
        enqueueSse(body().event(role()).event(finish("")).write("data: [DONE]\n\n"));
        RequestRecord r = send(target(b -> b));
        assertThat(r.outcome()).isEqualTo(Outcome.EMPTY);
        assertThat(r.firstTokenNanos()).isEqualTo(RequestRecord.ABSENT);
    }

    @Test
    void errorObjectInStream() {
        enqueueSse(body().event(content("a")).event("{\"error\":{\"message\":\"CUDA out of memory\",\"code\":500}}"));
        RequestRecord r = send(target(b -> b));
        assertThat(r.outcome()).isInstanceOf(Outcome.StreamError.class);
        assertThat(r.outcome().detail()).contains("CUDA out of memory");
        assertThat(r.chunkNanos()).hasSize(1);
    }

    @Test
    void malformedJsonInvalidUtf8AndOversize() {
        enqueueSse(body().event(content("a")).event("{\"choices\":[{\"delta\":"));
        RequestRecord r = send(target(b -> b));
        assertThat(r.outcome()).isInstanceOf(Outcome.StreamError.class);
        assertThat(r.outcome().detail()).contains("malformed stream event");

        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                .body(new okio.Buffer().write(new byte[] {'d', 'a', 't', 'a', ':', (byte) 0xFF, '\n', '\n'})).build());
        RequestRecord r2 = send(target(b -> b));
        assertThat(r2.outcome()).isInstanceOf(Outcome.StreamError.class);
        assertThat(r2.outcome().detail()).contains("invalid_utf8");

        enqueueSse(body().event(content("x".repeat(500))));
        RequestRecord r3 = send(target(b -> b.maxEventBytes(200)));
        assertThat(r3.outcome()).isInstanceOf(Outcome.StreamError.class);
        assertThat(r3.outcome().detail()).contains("oversize");
    }

    @Test
    void idleTimeoutWhileTokensFlow() {
        enqueueSse(body().event(content("a")).pause(5000).event(finish("b")));
        RequestRecord r = send(target(b -> b.idleTimeout(ms(300)).firstTokenTimeout(ms(4000))));
        assertThat(r.outcome()).isEqualTo(new Outcome.Timeout(Outcome.TimeoutKind.IDLE));
        assertThat(r.chunkNanos()).hasSize(1);
        assertThat(ms(r.endNanos() - r.firstTokenNanos())).isBetween(295.0, 300.0 + 400);
    }

    @Test
    void firstTokenTimeoutIgnoresTheShorterIdleLimitBeforeTheFirstToken() {
        enqueueSse(body().event(role()).pause(5000).event(finish("b")));
        RequestRecord r = send(target(b -> b.idleTimeout(ms(100)).firstTokenTimeout(ms(400))));
        assertThat(r.outcome()).isEqualTo(new Outcome.Timeout(Outcome.TimeoutKind.FIRST_TOKEN));
        assertThat(r.firstTokenNanos()).isEqualTo(RequestRecord.ABSENT);
        assertThat(ms(r.endNanos() - r.dispatchNanos())).isBetween(395.0, 400.0 + 400);
    }

    @Test
    void firstTokenTimeoutWhileWaitingForHeaders() {
        server.enqueue(new MockResponse.Builder().headersDelay(5, java.util.concurrent.TimeUnit.SECONDS)
                .body("data: [DONE]\n\n").build());
        RequestRecord r = send(target(b -> b.firstTokenTimeout(ms(300))));
        assertThat(r.outcome().label()).isEqualTo("TIMEOUT(first_token)");
        assertThat(r.firstByteNanos()).isEqualTo(RequestRecord.ABSENT);
        assertThat(ms(r.endNanos() - r.dispatchNanos())).isBetween(295.0, 300.0 + 400);
    }

    @Test
    void totalTimeoutWhileTokensKeepFlowing() {
        ScriptedBody body = body();
        for (int i = 0; i < 100; i++) {
            body.event(content("t")).pause(50);
        }
        enqueueSse(body);
        RequestRecord r = send(target(b -> b.totalTimeout(ms(500)).idleTimeout(ms(300))));
        assertThat(r.outcome().label()).isEqualTo("TIMEOUT(total)");
        // ~10 events in 500 ms at one per 50 ms; at least a few must have arrived. The server writes at most one
        // per 50 ms from its start (after dispatch), and the request ends <= 900 ms after dispatch (below), so
        // <= 19 even when noise delays the timeout's firing (a tighter count would race it); a client that
        // ignored the total timeout while tokens flow would read all 100.
        assertThat(r.chunkNanos().length).isBetween(3, 19);
        assertThat(ms(r.endNanos() - r.dispatchNanos())).isBetween(495.0, 500.0 + 400);
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
        assertThat(r.chunkNanos()).hasSize(1); // what was measured is kept
        assertThat(ms(r.endNanos() - r.dispatchNanos())).isBetween(200.0, 200.0 + 400);
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
