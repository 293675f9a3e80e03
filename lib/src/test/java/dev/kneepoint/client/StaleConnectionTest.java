package dev.kneepoint.client;

import static dev.kneepoint.client.KeepAliveServer.send;
import static dev.kneepoint.client.KeepAliveServer.sseResponse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Connection;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Kept-alive connections the server closes, scripted deterministically (docs/RELIABILITY.md, "Stale keep-alive
 * connections"): {@code Connection: close} after N requests, a quiet close after an idle time, a close or reset
 * exactly as the next request arrives, a close right after every complete response without
 * {@code Connection: close} (what llama-server does after each streamed response), HTTP/1.0 and close-delimited
 * bodies. Every request must end {@code OK}; a request resent after meeting a stale connection says so in its
 * record ({@code retried}), and at most one request per client is ever resent. Runs on NIO; the subclass
 * {@code StaleConnectionOkHttpTest} runs the same scenarios on OkHttp.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StaleConnectionTest {
    /** The transport under test. */
    Transport transport = Transport.NIO;
    private final RunClock clock = RunClock.system();

    /** Sends {@code n} requests one after another through one client (so its pooled connections can be reused). */
    private List<RequestRecord> sequence(KeepAliveServer server, int n) {
        return sequence(server, n, null);
    }

    private List<RequestRecord> sequence(KeepAliveServer server, int n, Runnable between) {
        TargetConfig t = TargetConfig.builder().baseUrl(server.url()).model("m").transport(transport).build();
        List<RequestRecord> records = new ArrayList<>();
        try (StreamingClient client = new StreamingClient(t)) {
            for (int i = 0; i < n; i++) {
                if (i > 0 && between != null) {
                    between.run();
                }
                records.add(client.execute(RequestSpec.of("hello", 4),
                        new RequestContext(i, "s", false, clock.now(), clock), new Cancellation()));
            }
        }
        return records;
    }

    private static List<String> outcomes(List<RequestRecord> rs) {
        return rs.stream().map(r -> r.outcome().label() + (r.response().retried() ? "+retried" : "")).toList();
    }

    /**
     * Per record: "new" when it says a connection was opened for it (with a connect time, and no DNS lookup or TLS
     * handshake: the URL is an IP address over plain HTTP), "reused" when it says it was sent on a kept-alive one
     * (no phase at all).
     */
    private static List<String> connections(List<RequestRecord> rs) {
        return rs.stream().map(r -> {
            Connection c = r.response().connection();
            if (!c.fresh()) {
                assertThat(c).isEqualTo(Connection.UNKNOWN);
                return "reused";
            }
            assertThat(c.connectNanos()).as("connect ns").isBetween(0L, 5_000_000_000L);
            assertThat(c.dnsNanos()).as("no lookup for an IP address").isEqualTo(RequestRecord.ABSENT);
            assertThat(c.tlsNanos()).as("no TLS over http").isEqualTo(RequestRecord.ABSENT);
            assertThat(r.ttfbNanos()).as("TTFB includes the connect").isGreaterThanOrEqualTo(c.connectNanos());
            return "new";
        }).toList();
    }

    private static long retried(List<RequestRecord> rs) {
        return rs.stream().filter(r -> r.response().retried()).count();
    }

    @Test
    void aHostNameIsLookedUpForANewConnection() throws Exception {
        try (KeepAliveServer s = new KeepAliveServer((n, sock, out) -> {
            send(out, sseResponse(""));
            return true;
        })) {
            TargetConfig t = TargetConfig.builder().baseUrl(s.url().replace("127.0.0.1", "localhost")).model("m")
                    .transport(transport).build();
            try (StreamingClient client = new StreamingClient(t)) {
                RequestRecord first = client.execute(RequestSpec.of("hello", 4),
                        new RequestContext(0, "s", false, clock.now(), clock), new Cancellation());
                RequestRecord second = client.execute(RequestSpec.of("hello", 4),
                        new RequestContext(1, "s", false, clock.now(), clock), new Cancellation());
                assertThat(first.response().connection().fresh()).isTrue();
                assertThat(first.response().connection().dnsNanos()).isBetween(0L, 5_000_000_000L);
                assertThat(first.response().connection().setupNanos())
                        .isEqualTo(first.response().connection().dnsNanos() + first.response().connection().connectNanos());
                assertThat(second.response().connection()).isEqualTo(Connection.UNKNOWN);
                assertThat(s.connections.get()).isEqualTo(1);
            }
        }
    }

    @Test
    void connectionCloseAfterTwoRequestsIsHonoured() throws Exception {
        try (KeepAliveServer s = new KeepAliveServer((n, sock, out) -> {
            send(out, sseResponse(n == 1 ? "Connection: close\r\n" : ""));
            return n != 1; // cpp-httplib's CPPHTTPLIB_KEEPALIVE_MAX_COUNT, with a maximum of 2
        })) {
            List<RequestRecord> rs = sequence(s, 6);
            assertThat(outcomes(rs)).containsOnly("OK");
            // exactly: each connection carries its 2 requests, none is reused after Connection: close
            assertThat(s.connections.get()).as("connections").isEqualTo(3);
            assertThat(connections(rs)).containsExactly("new", "reused", "new", "reused", "new", "reused");
        }
    }

    @Test
    void connectionClosedWhileIdleIsNotReusedOnNioAndVisiblyResentOnOkHttp() throws Exception {
        idleClose(false);
    }

    @Test
    void connectionResetWhileIdleIsNotReusedOnNioAndVisiblyResentOnOkHttp() throws Exception {
        idleClose(true);
    }

    private void idleClose(boolean reset) throws Exception {
        try (KeepAliveServer s = new KeepAliveServer((n, sock, out) -> {
            send(out, sseResponse(""));
            Thread.sleep(50); // an idle timeout of 50 ms: then a quiet close (FIN) or a reset
            if (reset) {
                RawServer.reset(sock);
            }
            return false;
        })) {
            List<RequestRecord> rs = sequence(s, 2, () -> awaitClosed(s, 1));
            // NIO saw the FIN (selector or the check before reuse) and opened a fresh connection; OkHttp does not
            // check a connection idle under 10 s, so it wrote on the closed one and resent, which the record shows
            assertThat(outcomes(rs)).containsExactly("OK", transport == Transport.NIO ? "OK" : "OK+retried");
            assertThat(s.connections.get()).as("connections").isEqualTo(2);
        }
    }

    @Test
    void resetAsTheNextRequestArrivesIsResentOnceThenConnectionsAreNotReused() throws Exception {
        raceOnReuse(true);
    }

    @Test
    void closeAsTheNextRequestArrivesIsResentOnceThenConnectionsAreNotReused() throws Exception {
        raceOnReuse(false);
    }

    /** Every connection answers one request and drops the next one as it arrives, by reset or FIN. */
    private void raceOnReuse(boolean reset) throws Exception {
        try (KeepAliveServer s = new KeepAliveServer(server -> (n, sock, out) -> {
            send(out, sseResponse(""));
            if (server.readNextRequest(sock) && reset) {
                RawServer.reset(sock);
            }
            return false;
        })) {
            List<RequestRecord> rs = sequence(s, 4);
            // request 2 met the stale connection and was resent once on a fresh one; from then on the client
            // knows this server closes kept-alive connections and no longer reuses them
            assertThat(outcomes(rs)).containsExactly("OK", "OK+retried", "OK", "OK");
            // exactly: the lost attempt was on request 1's connection, the resend and requests 3 and 4 on new ones
            assertThat(s.connections.get()).as("connections").isEqualTo(4);
            assertThat(s.requests.get()).as("requests read: 4 answered, 1 dropped").isEqualTo(5);
            // the resent request says the connection it was answered on was new
            assertThat(connections(rs)).containsExactly("new", "new", "new", "new");
            RequestRecord r = rs.get(1);
            assertThat(r.timing().firstTokenNanos()).as("TTFT counts from the first attempt")
                    .isGreaterThan(r.timing().dispatchNanos());
        }
    }

    @Test
    void closeRightAfterEachCompleteResponseLikeLlamaServer() throws Exception {
        try (KeepAliveServer s = new KeepAliveServer((n, sock, out) -> {
            send(out, sseResponse("")); // no Connection: close, then FIN at once (cpp-httplib after a stream)
            return false;
        })) {
            List<RequestRecord> rs = sequence(s, 8);
            assertThat(outcomes(rs)).allMatch(o -> o.startsWith("OK"));
            // whether the FIN beat the next request is a race: either way at most the first reuse is resent,
            // then the client stops reusing connections to this server
            assertThat(retried(rs)).as("resent requests").isLessThanOrEqualTo(1);
            // exactly one per request: a lost attempt happens on a reused connection, its resend on a new one
            assertThat(s.connections.get()).as("connections").isEqualTo(8);
        }
    }

    @Test
    void http10AndCloseDelimitedBodiesEndAtEofAndAreNotReused() throws Exception {
        try (KeepAliveServer s = new KeepAliveServer((n, sock, out) -> {
            String status = n % 2 == 0 ? "HTTP/1.0 200 OK" : "HTTP/1.1 200 OK";
            send(out, status + "\r\nContent-Type: text/event-stream\r\n\r\ndata: " + ScriptedBody.content("a")
                    + "\n\ndata: " + ScriptedBody.finish("b") + "\n\ndata: [DONE]\n\n");
            return false; // the body ends at EOF
        })) {
            List<RequestRecord> rs = sequence(s, 4);
            assertThat(outcomes(rs)).containsOnly("OK");
            assertThat(rs).allMatch(r -> r.tokens().outputTokens() == 2);
            assertThat(s.connections.get()).as("connections").isEqualTo(4);
        }
    }

    @Test
    void aReusedConnectionLostAfterResponseBytesIsAFailureNotResent() throws Exception {
        try (KeepAliveServer s = new KeepAliveServer((n, sock, out) -> {
            if (n == 0) {
                send(out, sseResponse(""));
                return true;
            }
            send(out, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
            RawServer.reset(sock); // the response had begun: the server failed this request, resending would hide it
            return false;
        })) {
            List<RequestRecord> rs = sequence(s, 2);
            assertThat(outcomes(rs)).containsExactly("OK", "CONNECTION_ERROR");
            assertThat(rs.get(1).outcome()).isInstanceOf(Outcome.ConnectionError.class);
            assertThat(s.connections.get()).as("connections").isEqualTo(1);
        }
    }

    /** Waits (bounded by the test's timeout) until the server closed {@code n} connections. */
    private static void awaitClosed(KeepAliveServer s, int n) {
        while (s.closedConnections.get() < n) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
