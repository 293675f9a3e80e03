package dev.kneepoint.metrics;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * The result of a run: its steps in order.
 *
 * @param runId     run identifier (the run directory's name when there is one)
 * @param steps     step results in run order
 * @param complete  false when the run did not end cleanly (crash, kill) or was loaded from such a run
 * @param startTime wall-clock start of the run
 * @param target    description of what was measured (URL, model)
 * @param background the background traffic measured apart from the steps (see {@link BackgroundResult}),
 *                   empty when the run had none. {@code steps} are always the foreground's only.
 * @param directory  the run directory this result was written to ({@code RunDirectory}) or loaded from
 *                   ({@code RunLoader}, {@code Kneepoint.load}), as that path was given (relative paths stay
 *                   relative); empty for a run kept in memory only, or a copy made for a chart
 */
public record RunResult(String runId, List<StepResult> steps, boolean complete, Instant startTime, String target,
                        Optional<BackgroundResult> background, Optional<Path> directory) {

    public RunResult {
        Objects.requireNonNull(runId, "runId");
        steps = List.copyOf(steps);
        Objects.requireNonNull(startTime, "startTime");
        target = target == null ? "" : target;
        background = background == null ? Optional.empty() : background;
        directory = directory == null ? Optional.empty() : directory;
    }

    /** A run without a run directory (kept in memory). */
    public RunResult(String runId, List<StepResult> steps, boolean complete, Instant startTime, String target,
                     Optional<BackgroundResult> background) {
        this(runId, steps, complete, startTime, target, background, Optional.empty());
    }

    /** A run without background traffic or run directory. */
    public RunResult(String runId, List<StepResult> steps, boolean complete, Instant startTime, String target) {
        this(runId, steps, complete, startTime, target, Optional.empty());
    }

    /** This result with its run directory set to {@code dir} (e.g. {@code runs/20260101-120000-ladder}). */
    public RunResult withDirectory(Path dir) {
        return new RunResult(runId, steps, complete, startTime, target, background,
                Optional.of(Objects.requireNonNull(dir, "dir")));
    }

    /** Labels of the steps the load generator limited ({@link StepResult#clientBound()}), in run order. */
    public List<String> clientBoundSteps() {
        return steps.stream().filter(StepResult::clientBound).map(s -> s.info().label()).toList();
    }

    /** True when the load generator limited some step: the run's numbers are partly the client's. */
    public boolean clientBound() {
        return steps.stream().anyMatch(StepResult::clientBound);
    }

    /**
     * The step with this label.
     *
     * @throws NoSuchElementException naming the labels that exist
     */
    public StepResult step(String label) {
        return steps.stream().filter(s -> s.info().label().equals(label)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("No step '" + label + "'; steps are "
                        + steps.stream().map(s -> s.info().label()).toList()));
    }
}
