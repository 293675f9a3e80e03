package dev.kneepoint.metrics;

/**
 * Receives a run's raw facts as they happen: the seam between the load layer (which produces them)
 * and the recorders, the run directory and live progress (which consume them).
 *
 * <p>Order and threading: {@code stepStarted}, {@code stepLoadStopping} and {@code stepFinished} are called
 * on the thread driving the run, in step order, each step's start before any of its requests finish and its
 * finish after all of them. {@code requestFinished} is called exactly once per request (also for
 * dropped and cancelled ones), from request threads, concurrently: implementations must be
 * thread-safe and quick (no blocking I/O beyond a buffered append).
 */
public interface RunListener {
    /**
     * The step started, with what is known of its window ({@link WindowPlan}: where it starts, the planned end it
     * may be set back to), or a null {@code plan} when the driver knows nothing of it in advance. The load layer
     * always gives a plan, and later calls {@link #stepLoadStopping} before it reads the clock for the window's end.
     * A listener that aggregates as records arrive uses the plan to keep constant memory ({@link RunAggregator}).
     * The default does nothing.
     */
    default void stepStarted(StepInfo step, long stepStartNanos, WindowPlan plan) {}

    /**
     * The step is about to stop issuing load (called once or more on the driving thread, after
     * {@code stepStarted} and before {@code stepFinished}): every clock reading the load layer takes from now on
     * may become the window's end, so records handed over after this call (the drain) may carry times after that
     * end, while those handed over before it carry only times the window's end will not be below (see
     * {@link WindowPlan}). The default does nothing.
     */
    default void stepLoadStopping(StepInfo step) {}

    void requestFinished(RequestRecord record);

    /**
     * The step finished, with the load generator's own health over its window ({@link ClientHealth}, or
     * {@link ClientHealth#NOT_MEASURED} when the driver did not measure it). The default does nothing.
     */
    default void stepFinished(StepInfo step, StepWindow window, ClientHealth client) {}
}
