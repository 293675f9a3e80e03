package dev.kneepoint.sim;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One streaming response, written at each output's due time by the engine thread itself: the engine
 * calls {@link #onTokens} when the output is due, which formats its SSE events straight into bytes and
 * writes them as one HTTP chunk to the socket without blocking. No thread wakes up per token.
 *
 * <p>The connection's virtual thread ({@link #run}) is the stream's controller: it writes the headers
 * (after a slow-first-byte delay), sleeps through a stream stall, and whenever the socket's send buffer
 * is full (a slow reader) it takes the stream's unwritten bytes (the {@link Backlog}) and writes them
 * blocking, parking only itself; meanwhile the engine appends this stream's later outputs to the backlog
 * in order and goes on with the other streams. When the backlog is empty the controller hands writing
 * back to the engine. The lock decides who owns the socket: the engine only while {@code direct}.
 *
 * <p>Emission lag = write completion − scheduled time, per output, recorded by the thread whose write
 * completed it (for a backlog, when the whole backlog is written). Injected delays (slow first byte,
 * stream stall) move the reference point to their end. Mid-stream faults fire once half of the output
 * (at least one token) has been formatted. A write error (the client went away) ends the stream; the
 * controller then aborts the sequence so the engine frees it.
 */
final class EmitStream implements TokenSink {
    /** How a stream ended once all of its bytes were written. */
    private enum End { OK, EARLY, RESET }

    private CompletionHandler.Response r;
    private final SimExchange ex;
    private final SimMetrics metrics;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ByteText sb = new ByteText(1024);
    private int faultAt;
    private Backlog backlog = new Backlog();
    private Backlog inFlight = new Backlog();
    private FaultKind pending;
    private boolean roleSent;
    private int sent;
    /** The engine may write to the socket itself (else it appends to the backlog). */
    private boolean direct;
    /** The engine gave up writing (send buffer full): the controller must flush. */
    private boolean needFlush;
    private boolean stallRequested;
    private End end;
    /** All bytes are written, or writing failed: the controller finishes the exchange. */
    private boolean ended;
    private IOException failure;
    private long lagFloor;

    EmitStream(SimExchange ex, SimMetrics metrics) {
        this.ex = ex;
        this.metrics = metrics;
    }

    /** Binds the request (whose sequence carries this sink); before the sequence is submitted. */
    void bind(CompletionHandler.Response response) {
        this.r = response;
        this.pending = response.fault().kind();
        this.faultAt = Math.max(1, (response.seq().targetOutput + 1) / 2);
        this.roleSent = !response.request().chat();
    }

    // ---- engine thread ----

    @Override
    public void onTokens(int tokens, int generated, boolean finished, long scheduledNanos) {
        lock.lock();
        try {
            if (end != null || failure != null) {
                return; // ended early by a fault or a write error: the sequence's abort is on its way
            }
            sb.clear();
            int split = format(tokens, generated, finished);
            backlog.addOut(scheduledNanos, tokens);
            boolean last = end == End.OK;
            if (split < 0) {
                emit(ex.encodeChunk(sb.array(), 0, sb.length(), last));
                if (end == End.EARLY && failure == null) {
                    // the terminal chunk of a stream cut short goes in its own write, as before this design: a
                    // client that read it with the last data could pool the connection that is about to close
                    emit(ByteBuffer.wrap(SimExchange.LAST_CHUNK));
                }
            } else {
                // stream stall: what came before the fault goes out now, the rest after the stall
                emit(ex.encodeChunk(sb.array(), 0, split, false));
                direct = false;
                stallRequested = true;
                if (failure == null) {
                    backlog.append(ex.encodeChunk(sb.array(), split, sb.length(), last));
                }
                changed.signal();
            }
            if (end != null && direct && !backlog.hasBytes()) {
                ended = true;
                if (end != End.OK) {
                    // close at once, as a server does right after its last write: a client that pooled the
                    // connection must see it closed before it sends the next request on it
                    ex.closeNow(end == End.RESET);
                }
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Writes {@code b} now if the engine owns the socket and nothing is queued before it, else queues it. */
    private void emit(ByteBuffer b) {
        if (!direct || backlog.hasBytes()) {
            backlog.append(b);
            return;
        }
        try {
            ex.writeNow(b);
        } catch (IOException e) {
            failure = e;
            ended = true;
            changed.signal();
            return;
        }
        if (b.hasRemaining()) {
            backlog.append(b); // send buffer full: the outputs stay in the backlog until the controller wrote them
            direct = false;
            needFlush = true;
            metrics.slowWrites.increment();
            changed.signal();
            return;
        }
        recordWritten(backlog);
        backlog.clearOuts();
    }

    /**
     * Appends this output's events to {@code sb}; returns the index where a stream stall splits them, or -1.
     * Sets {@link #end} when this output ends the stream.
     */
    private int format(int tokens, int generated, boolean finished) {
        CompletionRequest cr = r.request();
        Sse sse = r.sse();
        int prompt = r.promptTokens();
        int split = -1;
        if (r.function() != null) {
            sse.toolCall(sb, r.callId(), r.function(), !roleSent, finished, r.textSeed(), sent, tokens, usage(cr),
                    prompt, generated);
            roleSent = true;
        } else {
            if (!roleSent) {
                sse.role(sb, usage(cr), prompt, 0);
                roleSent = true;
            }
            List<String> json = cr.jsonKeys();
            // a JSON answer opens on its first chunk and closes only where the model stopped: cut by max_tokens it
            // stays open, as a real server's guided decoding leaves it
            sse.content(sb, r.textSeed(), sent, tokens, usage(cr), prompt, generated,
                    json != null && sent == 0 ? JsonText.escape(Sse.jsonOpen(json)) : null,
                    json != null && finished && r.finishReason().equals("stop") ? JsonText.escape(Sse.JSON_CLOSE) : null);
        }
        sent = generated;
        if (pending != null && sent >= faultAt) {
            FaultKind kind = pending;
            pending = null;
            switch (kind) {
                case MALFORMED_EVENT -> sse.malformed(sb);
                case STREAM_STALL -> split = sb.length();
                case CONNECTION_RESET -> {
                    end = End.RESET;
                    return -1;
                }
                case ERROR_IN_STREAM -> {
                    Sse.error(sb, "simulated fault error_in_stream", 500);
                    Sse.done(sb);
                    end = End.EARLY;
                    return -1;
                }
                case NO_DONE -> {
                    end = End.EARLY;
                    return -1;
                }
                default -> {
                    // other kinds act before streaming
                }
            }
        }
        if (finished) {
            sse.finish(sb, r.finishReason(), usage(cr), prompt, sent);
            if (cr.includeUsage()) {
                sse.usageChunk(sb, prompt, sent, r.seq().cachedTokens);
            }
            Sse.done(sb);
            end = End.OK;
        }
        return split;
    }

    private void recordWritten(Backlog b) {
        long now = System.nanoTime();
        int tokens = 0;
        for (int i = 0; i < b.outs(); i++) {
            metrics.recordLag(now - Math.max(b.scheduled(i), lagFloor));
            tokens += b.tokens(i);
        }
        metrics.tokensWritten.add(tokens);
    }

    // ---- connection (controller) thread ----

    /**
     * Runs the stream's control on the connection's thread until every byte is written, then finishes
     * the exchange (keep-alive, broken connection or reset). The sequence must already be submitted.
     *
     * @throws IOException when the client went away (the sequence is aborted first)
     */
    void run(Engine engine) throws IOException, InterruptedException {
        try {
            if (r.fault().kind() == FaultKind.SLOW_FIRST_BYTE) {
                Thread.sleep(r.fault().durationNanos() / 1_000_000);
                setLagFloor();
            }
            ex.startStream(200, "text/event-stream; charset=utf-8");
            flushAndHandBack();
            while (true) {
                boolean stall;
                lock.lock();
                try {
                    while (!ended && !stallRequested && !needFlush) {
                        changed.await();
                    }
                    if (ended) {
                        break;
                    }
                    stall = stallRequested;
                    stallRequested = false;
                    needFlush = false;
                } finally {
                    lock.unlock();
                }
                if (stall) {
                    Thread.sleep(r.fault().durationNanos() / 1_000_000);
                    setLagFloor();
                }
                flushAndHandBack();
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            abandon();
            engine.abort(r.seq());
            throw e;
        }
        finish(engine);
    }

    private void setLagFloor() {
        lock.lock();
        try {
            lagFloor = System.nanoTime();
        } finally {
            lock.unlock();
        }
    }

    /** Writes the backlog (blocking) until it is empty, then lets the engine write again (or ends). */
    private void flushAndHandBack() throws IOException {
        while (true) {
            lock.lock();
            try {
                if (failure != null || stallRequested) {
                    // a stall fired while this thread owned the socket: nothing more goes out before the stall
                    // (the events formatted before the fault then wait with the rest; an edge case: the stalled
                    // output was the first one, or it came while a slow reader's backlog was being written)
                    return;
                }
                if (!backlog.hasBytes() && backlog.outs() == 0) {
                    if (end != null) {
                        ended = true;
                    } else {
                        direct = true;
                    }
                    return;
                }
                backlog.moveTo(inFlight);
            } finally {
                lock.unlock();
            }
            ex.writeAll(inFlight.buffer());
            lock.lock();
            try {
                recordWritten(inFlight);
            } finally {
                lock.unlock();
            }
        }
    }

    /** Stops the engine from writing to this stream (the controller leaves early). */
    private void abandon() {
        lock.lock();
        try {
            if (end == null) {
                end = End.EARLY;
            }
            direct = false;
            ended = true;
        } finally {
            lock.unlock();
        }
    }

    private void finish(Engine engine) throws IOException {
        End how;
        IOException failed;
        lock.lock();
        try {
            how = end;
            failed = failure;
        } finally {
            lock.unlock();
        }
        if (failed != null) {
            engine.abort(r.seq());
            throw failed;
        }
        switch (how) {
            case OK -> {
                ex.streamEnded();
                metrics.finished(r.finishReason());
            }
            case EARLY -> {
                engine.abort(r.seq());
                ex.streamEnded();
                ex.markBroken();
            }
            case RESET -> {
                engine.abort(r.seq());
                ex.reset();
            }
        }
    }

    private static int usage(CompletionRequest cr) {
        if (cr.continuousUsage()) {
            return Sse.COUNT_USAGE;
        }
        return cr.includeUsage() ? Sse.NULL_USAGE : Sse.NO_USAGE;
    }
}
