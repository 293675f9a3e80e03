package dev.kneepoint.load;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A run in progress on its own platform thread ({@code kneepoint-run}), from {@link LoadRun#start()}.
 * {@link #close()} stops it and waits, so a try-with-resources block never leaves a run behind.
 * Thread-safe.
 */
public final class RunHandle implements AutoCloseable {
    private final CompletableFuture<LoadResult> result = new CompletableFuture<>();
    private final Thread driver;
    private volatile boolean stopRequested;

    private RunHandle(LoadRun run) {
        this.driver = Thread.ofPlatform().name("kneepoint-run").unstarted(() -> {
            try {
                result.complete(run.drive(() -> stopRequested));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
    }

    static RunHandle start(LoadRun run) {
        RunHandle handle = new RunHandle(run);
        handle.driver.start();
        return handle;
    }

    /**
     * Waits for the run to end and returns its result.
     *
     * @throws InterruptedException  if the waiting thread is interrupted (the run goes on; use {@link #stop()})
     * @throws IllegalStateException if the run failed (the listener or gate threw); the cause is attached
     */
    public LoadResult await() throws InterruptedException {
        try {
            return result.get();
        } catch (ExecutionException e) {
            throw failure(e);
        }
    }

    /** Waits up to {@code timeout}; empty if the run is still going. Same failures as {@link #await()}. */
    public Optional<LoadResult> await(Duration timeout) throws InterruptedException {
        try {
            return Optional.of(result.get(timeout.toNanos(), TimeUnit.NANOSECONDS));
        } catch (TimeoutException e) {
            return Optional.empty();
        } catch (ExecutionException e) {
            throw failure(e);
        }
    }

    public boolean isDone() {
        return result.isDone();
    }

    /** Asks the run to stop (returns at once): no new requests, in-flight ones cancelled, result {@code STOPPED}. */
    public void stop() {
        stopRequested = true;
        driver.interrupt();
    }

    /**
     * Stops the run and waits for it to end (about a second at most). If the closing thread is interrupted
     * meanwhile, returns early with its interrupt status set. Does not throw the run's failure; call
     * {@link #await()} for that.
     */
    @Override
    public void close() {
        stop();
        try {
            driver.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static IllegalStateException failure(ExecutionException e) {
        Throwable cause = e.getCause();
        return new IllegalStateException("load run failed: " + cause, cause);
    }

    @Override
    public String toString() {
        return "RunHandle[" + (isDone() ? "done" : stopRequested ? "stopping" : "running") + "]";
    }
}
