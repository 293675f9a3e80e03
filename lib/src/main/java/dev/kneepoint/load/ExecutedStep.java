package dev.kneepoint.load;

import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import java.util.Objects;

/** A step as it ran: what was planned and its measurement window. */
public record ExecutedStep(StepInfo info, StepWindow window) {
    public ExecutedStep {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(window, "window");
    }
}
