package dev.kneepoint.sweep;

import dev.kneepoint.load.LoadResult;
import dev.kneepoint.load.RunHandle;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepProgress;
import java.time.Duration;
import java.util.Optional;

/**
 * A sweep running on its own thread. {@link #close()} stops it (in-flight requests end as
 * {@code CANCELLED}) and waits, keeping everything measured; {@link #await()} waits for the end.
 * Thread-safe.
 */
public final class SweepHandle implements AutoCloseable {
    private final RunHandle handle;
    private final SweepExecution execution;
    private RunResult result;

    SweepHandle(RunHandle handle, SweepExecution execution) {
        this.handle = handle;
        this.execution = execution;
    }

    /** Progress of the step now running (requests done and failed, tokens/s, p99 TTFT so far). */
    public Optional<StepProgress> progress() {
        return execution.progress();
    }

    /** Where the sweep is: step N of M, the running step's snapshot and the time left by the plan. */
    public SweepProgress sweepProgress() {
        return execution.sweepProgress();
    }

    public boolean isDone() {
        return handle.isDone();
    }

    /** Waits for the sweep to end and returns its result. */
    public synchronized RunResult await() throws InterruptedException {
        if (result == null) {
            LoadResult load = handle.await();
            result = execution.finish(load);
        }
        return result;
    }

    /** Waits up to {@code timeout}; empty while the sweep is still running. */
    public synchronized Optional<RunResult> await(Duration timeout) throws InterruptedException {
        if (result == null) {
            Optional<LoadResult> load = handle.await(timeout);
            if (load.isEmpty()) {
                return Optional.empty();
            }
            result = execution.finish(load.get());
        }
        return Optional.of(result);
    }

    /** Stops the sweep without waiting. */
    public void stop() {
        handle.stop();
    }

    /** Stops the sweep, waits for it and writes its (partial) result. */
    @Override
    public synchronized void close() {
        handle.close();
        if (result == null) {
            try {
                result = execution.finish(handle.await());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** The result once the sweep ended, else empty. */
    public synchronized Optional<RunResult> result() {
        return Optional.ofNullable(result);
    }
}
