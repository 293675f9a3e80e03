package dev.kneepoint.client;

import static dev.kneepoint.client.RawServer.SSE_HEAD;
import static dev.kneepoint.client.RawServer.send;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Cancellation#progress()}: what the client has measured of a request still in flight, read from another
 * thread (the load step's, when it stops waiting for a request whose thread did not end in time). It must hold the
 * same token events, with the same timestamps, as the record the request ends with.
 */
class InFlightProgressTest {
    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"OKHTTP", "NIO"})
    @Timeout(30)
    void anotherThreadReadsTheTokensSoFarWithTheirTimestamps(Transport transport) throws Exception {
        RunClock clock = RunClock.system();
        // Three content events, then silence until the server is closed.
        try (RawServer server = new RawServer((srv, s, out) -> {
            send(out, SSE_HEAD + FaultMatrixTest.event(ScriptedBody.role()));
            for (String t : new String[] {"a", "b", "c"}) {
                send(out, FaultMatrixTest.event(ScriptedBody.content(t)));
            }
            srv.pause(20_000);
        }); StreamingClient client = new StreamingClient(TargetConfig.builder().baseUrl(server.url()).model("m")
                .transport(transport).build())) {
            Cancellation cancellation = new Cancellation();
            AtomicReference<RequestRecord> finalRecord = new AtomicReference<>();
            Thread request = Thread.ofVirtual().start(() -> finalRecord.set(client.execute(RequestSpec.of("hi", 16),
                    new RequestContext(7, "s", false, clock.now(), clock), cancellation)));

            RequestRecord progress = null;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (System.nanoTime() < deadline) { // a state (three tokens read), not a time
                progress = cancellation.progress();
                if (progress != null && progress.timing().chunkNanos().length == 3) {
                    break;
                }
                Thread.sleep(2);
            }
            assertThat(progress).isNotNull();
            assertThat(progress.id()).isEqualTo(7);
            assertThat(progress.step()).isEqualTo("s");
            assertThat(progress.outcome()).isEqualTo(Outcome.CANCELLED);
            assertThat(progress.dispatched()).isTrue();
            assertThat(progress.timing().firstByteNanos()).isGreaterThanOrEqualTo(progress.timing().dispatchNanos());
            assertThat(progress.timing().chunkNanos()).hasSize(3);
            assertThat(progress.tokens().outputTokens()).isEqualTo(3);
            assertThat(progress.timing().firstTokenNanos()).isEqualTo(progress.timing().chunkNanos()[0]);
            assertThat(progress.timing().lastTokenNanos()).isEqualTo(progress.timing().chunkNanos()[2]);
            assertThat(progress.timing().firstTokenNanos()).isGreaterThanOrEqualTo(progress.timing().firstByteNanos());

            cancellation.cancel();
            request.join(10_000);
            RequestRecord end = finalRecord.get();
            assertThat(end.outcome()).isEqualTo(Outcome.CANCELLED);
            // The same events at the same instants, the same dispatch and first byte as the record it ended with.
            assertThat(progress.timing().chunkNanos()).isEqualTo(end.timing().chunkNanos());
            assertThat(progress.timing().chunkTokens()).isEqualTo(end.timing().chunkTokens());
            assertThat(progress.timing().dispatchNanos()).isEqualTo(end.timing().dispatchNanos());
            assertThat(progress.timing().firstByteNanos()).isEqualTo(end.timing().firstByteNanos());
        }
    }
}
