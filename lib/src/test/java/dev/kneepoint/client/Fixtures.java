package dev.kneepoint.client;

import dev.kneepoint.metrics.RequestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Fixture streams under {@code src/test/resources/fixtures/} and a transport-free replay of them. */
final class Fixtures {
    private Fixtures() {
    }

    /** The exact bytes of {@code fixtures/<path>}. */
    static byte[] bytes(String path) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalArgumentException("no fixture " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Replays {@code bytes} as reads ending at each of {@code cuts} (then the rest), read {@code i}
     * stamped {@code i + 1} ns, the way the client does: stop once the stream finished, else
     * finish the framer at end of input. Returns the record the client would build.
     */
    static RequestRecord replay(ApiKind kind, byte[] bytes, int... cuts) {
        StreamState s = new StreamState(kind);
        StreamFramer f = s.framer(1 << 20);
        RequestRecord.Builder b = new RequestRecord.Builder();
        int prev = 0;
        long t = 0;
        boolean stopped = false;
        for (int k = 0; k <= cuts.length && !stopped; k++) {
            int end = k < cuts.length ? cuts[k] : bytes.length;
            if (end <= prev) {
                continue;
            }
            s.onRead(f, ++t, bytes, prev, end - prev);
            prev = end;
            stopped = s.finished();
        }
        b.outcome = stopped ? s.endOutcome(false) : s.endOutcome(f.finish());
        b.endNanos = s.doneNanos >= 0 ? s.doneNanos : t;
        s.tally.settle(b, -1);
        b.finishReason = s.finishReason;
        b.serverTimings = s.timings;
        return b.build();
    }

    /** Cuts for one-byte reads. */
    static int[] everyByte(int length) {
        int[] cuts = new int[length];
        for (int i = 0; i < length; i++) {
            cuts[i] = i + 1;
        }
        return cuts;
    }
}
