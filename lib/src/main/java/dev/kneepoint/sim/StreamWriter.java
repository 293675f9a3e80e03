package dev.kneepoint.sim;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes one streaming response: waits on the request's {@link StreamSink}, writes every output
 * already due as SSE events in one chunk and one write, and records each output's emission lag
 * (write completion minus scheduled time). Injected delays (slow first byte, stream stall) move
 * the lag's reference point to their end, so the lag measures only the simulator's own slowness.
 * Mid-stream faults fire once half of the output (at least one token) has been written.
 */
final class StreamWriter {
    private final CompletionHandler.Response r;
    private final SimExchange ex;
    private final Engine engine;
    private final SimMetrics metrics;

    StreamWriter(CompletionHandler.Response r, SimExchange ex, Engine engine, SimMetrics metrics) {
        this.r = r;
        this.ex = ex;
        this.engine = engine;
        this.metrics = metrics;
    }

    void run() throws IOException, InterruptedException {
        FaultKind pending = r.fault().kind();
        long lagFloor = 0;
        if (pending == FaultKind.SLOW_FIRST_BYTE) {
            Thread.sleep(r.fault().durationNanos() / 1_000_000);
            lagFloor = System.nanoTime();
        }
        ex.startStream(200, "text/event-stream; charset=utf-8");
        CompletionRequest cr = r.request();
        Sse sse = r.sse();
        int prompt = r.promptTokens();
        int faultAt = Math.max(1, (r.seq().targetOutput + 1) / 2);
        boolean roleSent = !cr.chat();
        int sent = 0;
        List<StreamSink.Out> batch = new ArrayList<>();
        StringBuilder sb = new StringBuilder(1024); // reused: one stream's events are built here batch after batch
        while (true) {
            r.sink().takeAll(batch);
            sb.setLength(0);
            boolean finished = false;
            for (StreamSink.Out o : batch) {
                if (!roleSent) {
                    sse.role(sb, usage(cr, prompt, 0));
                    roleSent = true;
                }
                sse.content(sb, r.textSeed(), sent, o.tokens(), usage(cr, prompt, o.generated()));
                sent = o.generated();
                if (pending != null && sent >= faultAt) {
                    switch (pending) {
                        case MALFORMED_EVENT -> sse.malformed(sb);
                        case STREAM_STALL -> {
                            write(sb);
                            sb.setLength(0);
                            Thread.sleep(r.fault().durationNanos() / 1_000_000);
                            lagFloor = System.nanoTime();
                        }
                        case CONNECTION_RESET -> {
                            write(sb);
                            engine.abort(r.seq());
                            ex.reset();
                            return;
                        }
                        case ERROR_IN_STREAM -> {
                            Sse.error(sb, "simulated fault error_in_stream", 500);
                            Sse.done(sb);
                            write(sb);
                            endEarly();
                            return;
                        }
                        case NO_DONE -> {
                            write(sb);
                            endEarly();
                            return;
                        }
                        default -> {
                            // other kinds act before streaming
                        }
                    }
                    pending = null;
                }
                if (o.finished()) {
                    sse.finish(sb, r.finishReason(), cr.continuousUsage() ? Sse.usage(prompt, sent)
                            : cr.includeUsage() ? "null" : null);
                    if (cr.includeUsage()) {
                        sse.usageChunk(sb, prompt, sent);
                    }
                    Sse.done(sb);
                    finished = true;
                }
            }
            write(sb);
            long now = System.nanoTime();
            int tokens = 0;
            for (StreamSink.Out o : batch) {
                metrics.recordLag(now - Math.max(o.scheduledNanos(), lagFloor));
                tokens += o.tokens();
            }
            metrics.tokensWritten.add(tokens);
            if (finished) {
                ex.endStream();
                finishedCount();
                return;
            }
        }
    }

    private void finishedCount() {
        ("length".equals(r.finishReason()) ? metrics.requestsFinishedLength : metrics.requestsFinishedStop).increment();
    }

    private void endEarly() throws IOException {
        engine.abort(r.seq());
        ex.endStream();
        ex.markBroken();
    }

    private void write(StringBuilder sb) throws IOException {
        ex.writeChunk(sb);
    }

    private static String usage(CompletionRequest cr, int prompt, int completion) {
        if (cr.continuousUsage()) {
            return Sse.usage(prompt, completion);
        }
        return cr.includeUsage() ? "null" : null;
    }
}
