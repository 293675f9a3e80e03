package dev.kneepoint.kernel;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import com.google.gson.reflect.TypeToken;
import io.github.spencerpark.jupyter.kernel.ExpressionValue;
import io.github.spencerpark.jupyter.kernel.history.HistoryEntry;
import io.github.spencerpark.jupyter.messages.HMACGenerator;
import io.github.spencerpark.jupyter.messages.Header;
import io.github.spencerpark.jupyter.messages.KernelTimestamp;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.MessageType;
import io.github.spencerpark.jupyter.messages.ReplyType;
import io.github.spencerpark.jupyter.messages.adapters.ExpressionValueAdapter;
import io.github.spencerpark.jupyter.messages.adapters.HeaderAdapter;
import io.github.spencerpark.jupyter.messages.adapters.HistoryEntryAdapter;
import io.github.spencerpark.jupyter.messages.adapters.HistoryRequestAdapter;
import io.github.spencerpark.jupyter.messages.adapters.KernelTimestampAdapter;
import io.github.spencerpark.jupyter.messages.adapters.MessageTypeAdapter;
import io.github.spencerpark.jupyter.messages.adapters.PublishStatusAdapter;
import io.github.spencerpark.jupyter.messages.adapters.ReplyTypeAdapter;
import io.github.spencerpark.jupyter.messages.publish.PublishStatus;
import io.github.spencerpark.jupyter.messages.reply.ErrorReply;
import io.github.spencerpark.jupyter.messages.request.HistoryRequest;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.zeromq.ZMQ;

/**
 * Reads one Jupyter wire message and verifies its HMAC signature in constant time.
 *
 * <p>The base kernel's {@code JupyterSocket.readMessage()} compares the computed and the received signature
 * with {@code String.equals}, which returns at the first differing character: the time a rejection takes
 * tells a client on the same host how many leading hex digits of a forged signature were right, one digit at
 * a time. This is that method with the comparison replaced by {@link MessageDigest#isEqual} on the bytes
 * (its time depends on the length only); the parsing is the base kernel's, with the same Gson adapters, so a
 * correctly signed message reads exactly as before. The channels that read requests ({@link
 * BlockingShellChannel} for shell and control, {@link VerifiedStdinChannel} for stdin) use it.
 */
final class SignedMessages {
    private static final byte[] DELIMITER = "<IDS|MSG>".getBytes(StandardCharsets.US_ASCII);
    private static final Type JSON_OBJECT_AS_MAP = new TypeToken<Map<String, Object>>() { }.getType();
    private static final Gson REPLY_GSON = new GsonBuilder()
            .registerTypeAdapter(HistoryEntry.class, HistoryEntryAdapter.INSTANCE)
            .registerTypeAdapter(ExpressionValue.class, ExpressionValueAdapter.INSTANCE)
            .create();
    /** The base kernel's reading Gson ({@code JupyterSocket.gson}): the same adapters, in the same order. */
    private static final Gson GSON = new GsonBuilder()
            .registerTypeAdapter(KernelTimestamp.class, KernelTimestampAdapter.INSTANCE)
            .registerTypeAdapter(Header.class, HeaderAdapter.INSTANCE)
            .registerTypeAdapter(MessageType.class, MessageTypeAdapter.INSTANCE)
            .registerTypeAdapter(PublishStatus.class, PublishStatusAdapter.INSTANCE)
            .registerTypeAdapter(HistoryRequest.class, HistoryRequestAdapter.INSTANCE)
            .registerTypeHierarchyAdapter(ReplyType.class, new ReplyTypeAdapter(REPLY_GSON))
            .create();

    private SignedMessages() {}

    /**
     * True when {@code received} is the signature {@code expected}; compared in time that depends only on the
     * lengths. {@code expected} null means the connection has no key (signing off): everything passes, as in
     * the base kernel. A missing {@code received} never matches a key.
     */
    static boolean signatureMatches(String expected, String received) {
        if (expected == null) {
            return true;
        }
        byte[] want = expected.getBytes(StandardCharsets.US_ASCII);
        byte[] got = received == null ? new byte[0] : received.getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(want, got);
    }

    /**
     * Receives one message from {@code socket} (identities, delimiter, signature, header, parent header,
     * metadata, content, blobs) and returns it parsed.
     *
     * @throws SecurityException when the signature does not match (the message is consumed and dropped)
     */
    static Message<?> read(ZMQ.Socket socket, HMACGenerator hmac) {
        List<byte[]> identities = new ArrayList<>();
        byte[] frame = socket.recv();
        while (!Arrays.equals(DELIMITER, frame)) {
            identities.add(frame);
            frame = socket.recv();
        }
        String signature = socket.recvStr();
        byte[] header = socket.recv();
        byte[] parent = socket.recv();
        byte[] metadata = socket.recv();
        byte[] content = socket.recv();
        List<byte[]> blobs = new ArrayList<>();
        while (socket.hasReceiveMore()) {
            blobs.add(socket.recv());
        }
        if (!signatureMatches(hmac.calculateSignature(header, parent, metadata, content), signature)) {
            throw new SecurityException("Message received had invalid signature");
        }
        return parse(identities, header, parent, metadata, content, blobs);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Message<?> parse(List<byte[]> identities, byte[] headerBytes, byte[] parentBytes,
                                    byte[] metadataBytes, byte[] contentBytes, List<byte[]> blobs) {
        Header<?> header = GSON.fromJson(utf8(headerBytes), Header.class);
        Header<?> parent = null;
        JsonElement p = new JsonParser().parse(utf8(parentBytes));
        if (p.isJsonObject() && p.getAsJsonObject().size() > 0) {
            parent = GSON.fromJson(p, Header.class);
        }
        Map<String, Object> metadata = GSON.fromJson(utf8(metadataBytes), JSON_OBJECT_AS_MAP);
        Object content = GSON.fromJson(utf8(contentBytes), header.getType().getContentType());
        if (content instanceof ErrorReply) {
            header = new Header(header.getId(), header.getUsername(), header.getSessionId(), header.getTimestamp(),
                    header.getType().error(), header.getVersion());
        }
        return new Message(identities, header, parent, metadata, content, blobs);
    }

    private static String utf8(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
