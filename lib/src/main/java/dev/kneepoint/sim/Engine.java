package dev.kneepoint.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the {@link EngineModel} in real time on one platform thread: each step's duration comes
 * from its batch, the thread parks until the step's absolute deadline ({@code stepStart +
 * duration}, never "now + sleep", so there is no drift) and then hands that step's tokens to each
 * sequence's {@link TokenSink} with the deadline as their scheduled time. The next step starts at
 * the previous deadline; an engine that is behind catches up and the emission lag shows it. Streaming
 * sinks ({@link EmitStream}) write their chunk to the socket inside {@code onTokens}, without blocking,
 * so each output leaves at (never before) its due time with no per-token thread wake-up.
 */
final class Engine implements AutoCloseable {
    private final EngineModel model;
    private final SimMetrics metrics;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Sequence> incoming = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Sequence> aborts = new ConcurrentLinkedQueue<>();
    private final AtomicInteger resetsPending = new AtomicInteger();
    private final AtomicInteger pendingIncoming = new AtomicInteger();
    private final AtomicLong extraStallNanos = new AtomicLong();
    private final List<FaultConfig.Scheduled> engineStalls;
    private final long startNanos;
    private final long emitNanosPerSeq;
    private int nextStall;
    private volatile EngineGauges gauges = EngineGauges.EMPTY;
    private volatile boolean closed;

    Engine(SimConfig config, SimMetrics metrics, long startNanos) {
        this.model = new EngineModel(config);
        this.metrics = metrics;
        this.startNanos = startNanos;
        this.emitNanosPerSeq = config.emitNanosPerSeq();
        this.engineStalls = new ArrayList<>(config.faults().schedule().stream()
                .filter(s -> s.kind() == FaultKind.ENGINE_STALL).sorted(Comparator.comparing(FaultConfig.Scheduled::at))
                .toList());
        this.thread = Thread.ofPlatform().name("kneepoint-sim-engine").daemon(true).unstarted(this::run);
        thread.setPriority(Thread.MAX_PRIORITY);
        thread.start();
    }

    /** Queues a sequence for admission (any thread). */
    void submit(Sequence s) {
        s.arrivalNanos = System.nanoTime();
        pendingIncoming.incrementAndGet();
        incoming.add(s);
        LockSupport.unpark(thread);
    }

    /** Forgets the idle cached prefixes at the engine's next turn (any thread): vLLM's {@code /reset_prefix_cache}. */
    void resetPrefixCache() {
        resetsPending.incrementAndGet();
        LockSupport.unpark(thread);
    }

    /** Removes a sequence whose client went away (any thread). */
    void abort(Sequence s) {
        aborts.add(s);
        LockSupport.unpark(thread);
    }

    /** Adds a stall to the next step (any thread). */
    void stall(long nanos) {
        extraStallNanos.addAndGet(nanos);
        LockSupport.unpark(thread);
    }

    /** Waiting requests, including those submitted but not yet seen by the engine thread. */
    int waitingApprox() {
        return gauges.waiting() + pendingIncoming.get();
    }

    EngineGauges gauges() {
        return gauges;
    }

    private void run() {
        long stepStart = System.nanoTime();
        boolean idle = true;
        while (!closed) {
            boolean hadWork = !model.idle();
            drain();
            if (model.idle()) {
                publish();
                idle = true;
                LockSupport.park(this);
                continue;
            }
            if (idle || !hadWork) {
                // Work that arrived while nothing was running starts its step now, not at the last step's
                // deadline: when this thread ran late, that deadline lies before the arrival, and chaining on it
                // emitted the first token less than a prefill step after the request arrived.
                stepStart = Math.max(stepStart, System.nanoTime());
                idle = false;
            }
            EngineStep r = model.step();
            // the gauges show the step being computed, as vLLM's scheduler stats do: sequences admitted for their
            // prefill count as running from the step's start, those finishing in it are gone (published after the
            // step's tokens instead, an admitted request read as waiting for its whole prefill step)
            publish();
            long deadline = stepStart + r.durationNanos() + stallNanos(stepStart);
            if (!parkUntil(deadline)) {
                return;
            }
            if (!deliver(r, deadline)) {
                return;
            }
            stepStart = deadline;
        }
    }

    private long stallNanos(long stepStart) {
        long extra = extraStallNanos.getAndSet(0);
        while (nextStall < engineStalls.size()
                && stepStart - startNanos >= engineStalls.get(nextStall).at().toNanos()) {
            extra += engineStalls.get(nextStall++).duration().toNanos();
            metrics.fault(FaultKind.ENGINE_STALL);
        }
        return extra;
    }

    private boolean parkUntil(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            if (closed) {
                return false;
            }
            LockSupport.parkNanos(this, left);
        }
        return !closed;
    }

    private void drain() {
        Sequence s;
        while ((s = aborts.poll()) != null) {
            model.abort(s);
        }
        if (resetsPending.getAndSet(0) > 0) {
            model.resetPrefixCache();
        }
        while ((s = incoming.poll()) != null) {
            pendingIncoming.decrementAndGet();
            if (s.state != Sequence.State.ABORTED) {
                model.add(s);
            }
        }
    }

    /**
     * Hands out a step's tokens; with a front-end cost per sequence, each at its own due time. A pooling sequence's
     * output counts its prompt tokens only: no TTFT, ITL, e2e or generation tokens (it generates nothing).
     */
    private boolean deliver(EngineStep r, long deadline) {
        List<EngineStep.Emission> emissions = r.emissions();
        for (int i = 0; i < emissions.size(); i++) {
            EngineStep.Emission e = emissions.get(i);
            long at = deadline + i * emitNanosPerSeq;
            // never early: a streaming sink writes to its socket right here (EmitStream); a timed park oversleeps
            // by ~50-100 us, so the outputs that fall due meanwhile go out together after one wake-up
            if (emitNanosPerSeq > 0 && at - System.nanoTime() > 0 && !parkUntil(at)) {
                return false;
            }
            Sequence s = e.seq();
            if (s.pooling) { // its prefill was the work; its output is no generated token
                metrics.promptTokens.add(s.promptTokens);
                s.firstTokenNanos = at;
                s.lastTokenNanos = at;
                ((TokenSink) s.attachment).onTokens(e.tokens(), s.generated, e.finished(), at);
                continue;
            }
            if (s.firstTokenNanos < 0) {
                s.firstTokenNanos = at;
                metrics.ttft.observe((at - s.arrivalNanos) / 1e9);
                metrics.promptTokens.add(s.promptTokens);
            } else {
                metrics.itl.observe((at - s.lastTokenNanos) / 1e9 / e.tokens());
            }
            s.lastTokenNanos = at;
            metrics.generationTokens.add(e.tokens());
            if (e.finished()) {
                metrics.e2e.observe((at - s.arrivalNanos) / 1e9);
            }
            ((TokenSink) s.attachment).onTokens(e.tokens(), s.generated, e.finished(), at);
        }
        return true;
    }

    private void publish() {
        gauges = new EngineGauges(model.numRunning(), model.numWaiting(), model.kvUsage(), model.preemptions(),
                model.prefixQueries(), model.prefixHits(), model.steps());
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
