package dev.kneepoint.metrics;

import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The result of a run: its steps in order.
 *
 * @param runId     run identifier (the run directory's name when there is one)
 * @param steps     step results in run order
 * @param complete  false when the run did not end cleanly (crash, kill) or was loaded from such a run
 * @param startTime wall-clock start of the run
 * @param target    description of what was measured (URL, model)
 */
public record RunResult(String runId, List<StepResult> steps, boolean complete, Instant startTime, String target) {

    public RunResult {
        Objects.requireNonNull(runId, "runId");
        steps = List.copyOf(steps);
        Objects.requireNonNull(startTime, "startTime");
        target = target == null ? "" : target;
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
