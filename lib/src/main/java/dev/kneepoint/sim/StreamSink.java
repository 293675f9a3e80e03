package dev.kneepoint.sim;

import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/** A request's queue of scheduled token outputs: the engine thread adds, the request's writer takes. */
final class StreamSink implements TokenSink {

    /** One step's output for this request. */
    record Out(int tokens, int generated, boolean finished, long scheduledNanos) {
    }

    private final LinkedBlockingQueue<Out> queue = new LinkedBlockingQueue<>();

    @Override
    public void onTokens(int tokens, int generated, boolean finished, long scheduledNanos) {
        queue.add(new Out(tokens, generated, finished, scheduledNanos));
    }

    /** Blocks for at least one output, then takes every output already queued. */
    void takeAll(List<Out> into) throws InterruptedException {
        into.clear();
        into.add(queue.take());
        queue.drainTo(into);
    }
}
