package dev.kneepoint.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.spencerpark.jupyter.channels.StdinChannel;
import io.github.spencerpark.jupyter.messages.HMACGenerator;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.request.ExecuteRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.zeromq.SocketType;
import org.zeromq.ZMQ;

/**
 * Signature checks of the channels that read requests: real ZeroMQ sockets (in-process transport), a client
 * DEALER sending Jupyter wire frames to the kernel side's ROUTER.
 */
class SignedMessagesTest {
    private static final AtomicInteger PORT = new AtomicInteger();
    private static final String HEADER = "{\"msg_id\":\"m1\",\"username\":\"u\",\"session\":\"s1\","
            + "\"date\":\"2026-11-29T14:00:00.000000Z\",\"msg_type\":\"execute_request\",\"version\":\"5.3\"}";
    private static final String PARENT = "{\"msg_id\":\"p0\",\"username\":\"u\",\"session\":\"s1\","
            + "\"date\":\"2026-11-29T13:59:59.000000Z\",\"msg_type\":\"kernel_info_request\",\"version\":\"5.3\"}";
    private static final String METADATA = "{\"cell\":\"c7\"}";
    private static final String CONTENT = "{\"code\":\"1 + 1\",\"silent\":false,\"store_history\":true,"
            + "\"user_expressions\":{},\"allow_stdin\":false,\"stop_on_error\":true}";

    private ZMQ.Context ctx;
    private HMACGenerator hmac;
    private VerifiedStdinChannel kernelSide;
    private ZMQ.Socket client;

    @BeforeEach
    void connect() throws Exception {
        ctx = ZMQ.context(1);
        hmac = new HMACGenerator("hmac-sha256", "a-secret-key");
        kernelSide = new VerifiedStdinChannel(ctx, hmac);
        String address = "inproc://signed-" + PORT.incrementAndGet();
        kernelSide.bind(address);
        client = ctx.socket(SocketType.DEALER);
        client.connect(address);
    }

    @AfterEach
    void close() {
        client.close();
        kernelSide.close();
        ctx.close();
    }

    private void send(String signature, String header, String parent, String metadata, String content) {
        client.sendMore("<IDS|MSG>");
        client.sendMore(signature);
        client.sendMore(header);
        client.sendMore(parent);
        client.sendMore(metadata);
        client.send(content);
    }

    private String sign(String header, String parent, String metadata, String content) {
        return hmac.calculateSignature(bytes(header), bytes(parent), bytes(metadata), bytes(content));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void comparisonIsByBytesAndRejectsEveryNearMiss() {
        String good = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        assertThat(SignedMessages.signatureMatches(good, good)).isTrue();
        assertThat(SignedMessages.signatureMatches(good, new String(good))).isTrue();
        assertThat(SignedMessages.signatureMatches(good, "0" + good.substring(1))).isFalse();
        assertThat(SignedMessages.signatureMatches(good, good.substring(0, 63) + "9")).isFalse();
        assertThat(SignedMessages.signatureMatches(good, good.substring(0, 63))).isFalse();
        assertThat(SignedMessages.signatureMatches(good, good + "0")).isFalse();
        assertThat(SignedMessages.signatureMatches(good, good.toUpperCase(java.util.Locale.ROOT))).isFalse();
        assertThat(SignedMessages.signatureMatches(good, "")).isFalse();
        assertThat(SignedMessages.signatureMatches(good, null)).isFalse();
        // No key (the connection file's key is empty): the base kernel signs nothing and checks nothing.
        assertThat(SignedMessages.signatureMatches(null, "")).isTrue();
    }

    @Test
    void aCorrectlySignedRequestReadsAsTheBaseKernelReadsIt() throws Exception {
        send(sign(HEADER, PARENT, METADATA, CONTENT), HEADER, PARENT, METADATA, CONTENT);
        Message<?> ours = kernelSide.readMessage();
        // The same bytes through the base kernel's own reader (String.equals), for comparison.
        StdinChannel base = new StdinChannel(ctx, hmac);
        String address = "inproc://signed-base-" + PORT.incrementAndGet();
        base.bind(address);
        ZMQ.Socket baseClient = ctx.socket(SocketType.DEALER);
        baseClient.connect(address);
        try {
            for (String f : List.of("<IDS|MSG>", sign(HEADER, PARENT, METADATA, CONTENT), HEADER, PARENT, METADATA)) {
                baseClient.sendMore(f);
            }
            baseClient.send(CONTENT);
            Message<?> theirs = base.readMessage();
            assertThat(ours.getHeader().getType()).isEqualTo(ExecuteRequest.MESSAGE_TYPE)
                    .isEqualTo(theirs.getHeader().getType());
            assertThat(ours.getHeader().getId()).isEqualTo("m1").isEqualTo(theirs.getHeader().getId());
            assertThat(ours.getHeader().getSessionId()).isEqualTo(theirs.getHeader().getSessionId());
            assertThat(ours.getHeader().getTimestamp().getDateString()).isEqualTo("2026-11-29T14:00:00.000000Z")
                    .isEqualTo(theirs.getHeader().getTimestamp().getDateString());
            assertThat(ours.getParentHeader().getId()).isEqualTo("p0").isEqualTo(theirs.getParentHeader().getId());
            assertThat(ours.getMetadata()).isEqualTo(Map.of("cell", "c7")).isEqualTo(theirs.getMetadata());
            assertThat(((ExecuteRequest) ours.getContent()).getCode()).isEqualTo("1 + 1")
                    .isEqualTo(((ExecuteRequest) theirs.getContent()).getCode());
            // The ROUTER's identity frame of the sender is kept, as the base kernel keeps it for the reply.
            assertThat(ours.getIdentities()).hasSize(1);
            assertThat(theirs.getIdentities()).hasSize(1);
            assertThat(ours.getBlobs()).isEmpty();
        } finally {
            baseClient.close();
            base.close();
        }
    }

    @Test
    void forgedSignaturesAreRejectedAndTheChannelKeepsReading() {
        String good = sign(HEADER, PARENT, METADATA, CONTENT);
        String wrongKey;
        try {
            wrongKey = new HMACGenerator("hmac-sha256", "another-key").calculateSignature(bytes(HEADER), bytes(PARENT),
                    bytes(METADATA), bytes(CONTENT));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        String tampered = CONTENT.replace("1 + 1", "System.exit(0)");
        send(wrongKey, HEADER, PARENT, METADATA, CONTENT);
        send("", HEADER, PARENT, METADATA, CONTENT);
        send(good.substring(0, 63) + (good.charAt(63) == '0' ? '1' : '0'), HEADER, PARENT, METADATA, CONTENT);
        send(good, HEADER, PARENT, METADATA, tampered);
        send(good, HEADER, PARENT, METADATA, CONTENT);
        for (int i = 0; i < 4; i++) {
            assertThatThrownBy(kernelSide::readMessage).isInstanceOf(SecurityException.class)
                    .hasMessageContaining("invalid signature");
        }
        // Each rejected message was consumed whole: the next read is the correctly signed one.
        assertThat(((ExecuteRequest) kernelSide.readMessage().getContent()).getCode()).isEqualTo("1 + 1");
    }

    @Test
    void withoutAKeyUnsignedRequestsAreRead() {
        VerifiedStdinChannel open = new VerifiedStdinChannel(ctx, HMACGenerator.NO_AUTH_INSTANCE);
        String address = "inproc://signed-open-" + PORT.incrementAndGet();
        open.bind(address);
        ZMQ.Socket c = ctx.socket(SocketType.DEALER);
        c.connect(address);
        try {
            for (String f : List.of("<IDS|MSG>", "", HEADER, "{}", "{}")) {
                c.sendMore(f);
            }
            c.send(CONTENT);
            Message<?> m = open.readMessage();
            assertThat(m.hasParentHeader()).isFalse();
            assertThat(((ExecuteRequest) m.getContent()).getCode()).isEqualTo("1 + 1");
        } finally {
            c.close();
            open.close();
        }
    }
}
