package dev.kneepoint.client;

import static dev.kneepoint.client.ScriptedBody.content;
import static dev.kneepoint.client.ScriptedBody.finish;
import static dev.kneepoint.client.ScriptedBody.role;
import static dev.kneepoint.client.ScriptedBody.usage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * The same scripted responses through {@link Transport#OKHTTP} and {@link Transport#NIO} give the same
 * record: outcome (label and detail), token counts and their source, chunk count and token split, finish
 * reason, server timings, streamed and retried flags and which timestamps exist. Timestamps themselves are not
 * compared (two runs never take the same instants); the timing tests run on both transports instead.
 */
class TransportEquivalenceTest extends ClientFixture {
    private static final String TIMED = "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"z\"},\"finish_reason\":\"length\"}],"
            + "\"timings\":{\"prompt_ms\":12.5,\"predicted_ms\":40.0}}";

    /** What must match between transports. */
    static Map<String, Object> signature(RequestRecord r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("outcome", r.outcome().label());
        // ports differ between two servers of one scenario, ids and creation seconds between two responses
        m.put("detail", r.outcome().detail().replaceAll(":\\d{2,5}\\b", ":PORT")
                .replaceAll("chatcmpl-[0-9a-f]+", "chatcmpl-ID").replaceAll("\"created\":\\d+", "\"created\":T"));
        m.put("output", r.tokens().outputTokens());
        m.put("prompt", r.tokens().promptTokens());
        m.put("reasoning", r.tokens().reasoningTokens());
        m.put("client_counted", r.tokens().clientCountedTokens());
        m.put("token_source", r.tokens().tokenSource());
        m.put("chunks", r.timing().chunkNanos().length);
        m.put("chunk_tokens", Arrays.toString(r.timing().chunkTokens()));
        m.put("finish", r.response().finishReason());
        m.put("streamed", r.response().streamed());
        m.put("retried", r.response().retried());
        m.put("timings", r.response().serverTimings());
        m.put("dispatched", r.dispatched());
        m.put("first_byte", r.timing().firstByteNanos() != RequestRecord.ABSENT);
        m.put("first_token", r.timing().firstTokenNanos() != RequestRecord.ABSENT);
        return m;
    }

    /** Runs {@code scenario} once per transport (it enqueues its own responses) and compares the records. */
    private Map<String, Object> same(Function<Transport, RequestRecord> scenario) {
        Map<String, Object> ok = signature(scenario.apply(Transport.OKHTTP));
        Map<String, Object> nio = signature(scenario.apply(Transport.NIO));
        assertThat(nio).isEqualTo(ok);
        return nio;
    }

    private RequestRecord mock(Transport t, Runnable enqueue, UnaryOperator<TargetConfig.Builder> custom) {
        enqueue.run();
        return send(target(b -> custom.apply(b.transport(t))));
    }

    private RequestRecord raw(Transport t, List<Object> parts, UnaryOperator<TargetConfig.Builder> custom) {
        try (PartsServer s = new PartsServer(parts)) {
            TargetConfig target = custom.apply(TargetConfig.builder().baseUrl(s.url()).model("m").transport(t)).build();
            RequestRecord r = send(target);
            assertThat(s.connections.get()).as("one connection, no retry").isEqualTo(1);
            return r;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Duration ms(int m) {
        return Duration.ofMillis(m);
    }

    @Test
    void okChunkedStreamWithUsageAndServerTimings() {
        Map<String, Object> s = same(t -> mock(t, () -> enqueueSse(body().event(role()).event(content("a"))
                .event(content("b")).event(TIMED).event(usage(11, 3)).write("data: [DONE]\n\n")), b -> b));
        assertThat(s).containsEntry("outcome", "OK").containsEntry("output", 3).containsEntry("prompt", 11)
                .containsEntry("finish", "length").containsEntry("chunks", 3);
        assertThat(s.get("timings").toString()).contains("prompt_ms");
    }

    @Test
    void contentLengthStreamAndWholeJsonResponse() {
        String sse = "data: " + content("a") + "\n\ndata: " + finish("b") + "\n\ndata: [DONE]\n\n";
        Map<String, Object> s = same(t -> mock(t, () -> server.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream").body(sse).build()), b -> b));
        assertThat(s).containsEntry("outcome", "OK").containsEntry("output", 2);
        String json = "{\"choices\":[{\"index\":0,\"message\":{\"content\":\"hello there\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,\"total_tokens\":7}}";
        Map<String, Object> w = same(t -> mock(t, () -> server.enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "application/json").body(json).build()), b -> b.stream(false)));
        assertThat(w).containsEntry("outcome", "OK").containsEntry("streamed", false).containsEntry("output", 2);
    }

    @Test
    void httpErrorsWithBodySnippets() {
        Map<String, Object> s = same(t -> mock(t, () -> server.enqueue(new MockResponse.Builder().code(503)
                .body("  overloaded\n\n  try   later ").build()), b -> b));
        assertThat(s).containsEntry("outcome", "HTTP_ERROR(503)").containsEntry("detail", "overloaded try later");
        Map<String, Object> big = same(t -> mock(t, () -> server.enqueue(new MockResponse.Builder().code(500)
                .body("y".repeat(100_000)).build()), b -> b));
        assertThat(big.get("detail").toString()).hasSize(503);
    }

    @Test
    void resetTruncationAndBrokenStreams() {
        Map<String, Object> reset = same(t -> mock(t, () -> enqueueSse(body().event(content("a")).fail()), b -> b));
        assertThat(reset.get("outcome")).isEqualTo("CONNECTION_ERROR");
        assertThat(reset.get("detail").toString()).contains("mid-stream after 1 token events");
        Map<String, Object> trunc = same(t -> mock(t, () -> enqueueSse(body().event(content("a"))), b -> b));
        assertThat(trunc).containsEntry("outcome", "TRUNCATED");
        Map<String, Object> err = same(t -> mock(t, () -> enqueueSse(body().event(content("a"))
                .event("{\"error\":{\"message\":\"boom\"}}")), b -> b));
        assertThat(err.get("outcome")).isEqualTo("STREAM_ERROR");
    }

    @Test
    void closeDelimitedBodiesAndCutChunkedBodiesByteForByte() {
        String head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n";
        // no length, no chunking: the body ends at close; without [DONE] nor finish reason it is truncated
        Map<String, Object> close = same(t -> raw(t, List.of(head + "\r\n", "data: " + content("a") + "\n\n"), b -> b));
        assertThat(close).containsEntry("outcome", "TRUNCATED").containsEntry("output", 1);
        // a chunked body cut inside a chunk: the connection was lost mid-stream
        String chunk = "data: " + content("a") + "\n\n";
        Map<String, Object> cut = same(t -> raw(t, List.of(head + "Transfer-Encoding: chunked\r\n\r\n",
                Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n", "40\r\ndata: {\"choi"), b -> b));
        assertThat(cut).containsEntry("outcome", "CONNECTION_ERROR");
        // a length-delimited body cut short
        Map<String, Object> fixed = same(t -> raw(t, List.of(head + "Content-Length: 500\r\n\r\n", chunk), b -> b));
        assertThat(fixed).containsEntry("outcome", "CONNECTION_ERROR");
        // the server closes before any response
        Map<String, Object> none = same(t -> raw(t, List.of(), b -> b));
        assertThat(none.get("detail").toString()).contains("failed before response headers");
        // interim 100 Continue, then a normal stream split at odd places (CR of CRLF alone, chunk extensions)
        String a = "data: " + content("a") + "\r\n\r\n";
        String f = "data: " + finish("b") + "\n\ndata: [DONE]\n\n";
        Map<String, Object> odd = same(t -> raw(t, List.of("HTTP/1.1 100 Continue\r\n\r\n",
                head + "Transfer-Encoding: chunked\r\n\r\n", Integer.toHexString(a.length()) + ";x=1\r\n" + a + "\r",
                "\n" + Integer.toHexString(f.length()) + "\r\n" + f + "\r\n0\r\n\r\n"), b -> b));
        assertThat(odd).containsEntry("outcome", "OK").containsEntry("output", 2);
    }

    @Test
    void eachTimeoutKind() {
        Map<String, Object> first = same(t -> mock(t, () -> enqueueSse(body().event(role()).pause(3000)
                .event(finish("b"))), b -> b.firstTokenTimeout(ms(200))));
        assertThat(first).containsEntry("outcome", "TIMEOUT(first_token)");
        Map<String, Object> idle = same(t -> mock(t, () -> enqueueSse(body().event(content("a")).pause(3000)
                .event(finish("b"))), b -> b.idleTimeout(ms(200))));
        assertThat(idle).containsEntry("outcome", "TIMEOUT(idle)").containsEntry("chunks", 1);
        // The second token is written 150 ms in and must be read before the total deadline: 600 ms leaves 450 ms for a
        // loaded machine (300 ms left 150), and still fires long before the 1 s idle limit and the 3 s pause.
        Map<String, Object> total = same(t -> mock(t, () -> enqueueSse(body().event(content("a")).pause(150)
                .event(content("b")).pause(3000).event(finish("c"))), b -> b.idleTimeout(ms(1000)).totalTimeout(ms(600))));
        assertThat(total).containsEntry("outcome", "TIMEOUT(total)").containsEntry("chunks", 2);
        // an error body that never ends keeps its HTTP error on both transports
        Map<String, Object> slowError = same(t -> raw(t, List.of("HTTP/1.1 500 Oops\r\nContent-Length: 5000\r\n\r\nbad",
                3000L), b -> b.firstTokenTimeout(ms(200))));
        assertThat(slowError.get("outcome")).isEqualTo("HTTP_ERROR(500)");
    }

    @Test
    void connectTimeoutAgainstAFullAcceptQueue() throws Exception {
        // a listening socket that never accepts, with its backlog filled, drops further SYNs: connect hangs
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            java.util.List<java.net.Socket> fill = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    java.net.Socket c = new java.net.Socket();
                    try {
                        c.connect(s.getLocalSocketAddress(), 200);
                        fill.add(c);
                    } catch (java.io.IOException e) {
                        c.close();
                        break;
                    }
                }
                String url = "http://127.0.0.1:" + s.getLocalPort();
                Map<String, Object> sig = same(t -> send(TargetConfig.builder().baseUrl(url).model("m").transport(t)
                        .connectTimeout(ms(300)).build()));
                assertThat(sig).containsEntry("outcome", "TIMEOUT(connect)").containsEntry("first_byte", false);
            } finally {
                for (java.net.Socket c : fill) {
                    c.close();
                }
            }
        }
    }

    @Test
    void cancellationKeepsWhatWasMeasured() {
        same(t -> {
            enqueueSse(body().event(content("a")).pause(3000).event(finish("b")));
            Cancellation c = new Cancellation();
            Thread.ofVirtual().start(() -> {
                try {
                    server.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS);
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    return;
                }
                c.cancel();
            });
            RequestRecord r = send(target(b -> b.transport(t)), RequestSpec.of("hi", 8), c);
            assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
            return r;
        });
    }

    @Test
    void tenMegabyteEvent() {
        String big = "x".repeat(10 << 20);
        Map<String, Object> s = same(t -> mock(t, () -> enqueueSse(body().event(content(big)).event(finish("b"))
                .write("data: [DONE]\n\n")), b -> b));
        assertThat(s).containsEntry("outcome", "OK").containsEntry("chunks", 2);
        Map<String, Object> over = same(t -> mock(t, () -> enqueueSse(body().event(content(big))),
                b -> b.maxEventBytes(1 << 20)));
        assertThat(over.get("detail").toString()).contains("oversize");
    }

    @Test
    void aConnectionTheServerClosedWhileIdleIsNotReused() throws Exception {
        for (Transport t : List.of(Transport.OKHTTP, Transport.NIO)) {
            try (StreamingClient client = new StreamingClient(target(b -> b.transport(t)))) {
                for (int i = 0; i < 3; i++) {
                    // keep-alive as far as the headers say, but the server shuts the socket after the body
                    server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                            .body("data: " + finish("a") + "\n\ndata: [DONE]\n\n")
                            .onResponseEnd(mockwebserver3.SocketEffect.ShutdownConnection.INSTANCE).build());
                    RequestRecord r = client.execute(RequestSpec.of("hi", 8),
                            new RequestContext(i, "s", false, clock.now(), clock), new Cancellation());
                    assertThat(r.outcome()).as(t + " request " + i).isEqualTo(Outcome.OK);
                    Thread.sleep(50); // the FIN reaches the idle connection before the next request
                }
            }
            assertThat(server.takeRequest().getConnectionIndex()).isZero();
            assertThat(server.takeRequest().getConnectionIndex()).as(t + " opened a fresh connection").isEqualTo(1);
            assertThat(server.takeRequest().getConnectionIndex()).isEqualTo(2);
            server.close();
            startServer();
        }
    }

    @Test
    void keepAliveConnectionsAreReused() throws Exception {
        for (Transport t : List.of(Transport.OKHTTP, Transport.NIO)) {
            try (StreamingClient client = new StreamingClient(target(b -> b.transport(t)))) {
                for (int i = 0; i < 3; i++) {
                    server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                            .body("data: " + finish("a") + "\n\ndata: [DONE]\n\n").build());
                    RequestRecord r = client.execute(RequestSpec.of("hi", 8),
                            new RequestContext(i, "s", false, clock.now(), clock), new Cancellation());
                    assertThat(r.outcome()).isEqualTo(Outcome.OK);
                }
            }
            RecordedRequest first = server.takeRequest();
            RecordedRequest second = server.takeRequest();
            RecordedRequest third = server.takeRequest();
            assertThat(second.getConnectionIndex()).as(t + " reuses the connection").isEqualTo(first.getConnectionIndex());
            assertThat(third.getConnectionIndex()).isEqualTo(first.getConnectionIndex());
            assertThat(third.getExchangeIndex()).isEqualTo(first.getExchangeIndex() + 2);
            assertThat(third.getHeaders().get("Accept")).isEqualTo("text/event-stream");
            assertThat(third.getHeaders().get("Content-Type")).isEqualTo("application/json; charset=utf-8");
            HttpClients.evictIdleConnections();
            server.close();
            startServer();
        }
    }
}
