package dev.kneepoint.metrics;

/**
 * Receives a run's raw facts as they happen: the seam between the load layer (which produces them)
 * and the recorders, the run directory and live progress (which consume them).
 *
 * <p>Order and threading: {@code stepStarted} and {@code stepFinished} are called on the thread
 * driving the run, in step order, each step's start before any of its requests finish and its
 * finish after all of them. {@code requestFinished} is called exactly once per request (also for
 * dropped and cancelled ones), from request threads, concurrently: implementations must be
 * thread-safe and quick (no blocking I/O beyond a buffered append).
 */
public interface RunListener {
    default void stepStarted(StepInfo step, long stepStartNanos) {}

    void requestFinished(RequestRecord record);

    default void stepFinished(StepInfo step, StepWindow window) {}

    /**
     * The step finished, with the load generator's own health over its window ({@link ClientHealth}). The load
     * layer calls this one; the default forwards to {@link #stepFinished(StepInfo, StepWindow)}, so a listener
     * that does not care about client health overrides only that.
     */
    default void stepFinished(StepInfo step, StepWindow window, ClientHealth client) {
        stepFinished(step, window);
    }
}
