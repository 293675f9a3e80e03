package dev.kneepoint.load;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import java.util.Objects;

/**
 * A step as it ran: what was planned, its measurement window and the load generator's own health over it.
 *
 * @param info   the step as planned
 * @param window its measurement window
 * @param client the client's self-measurement over the window ({@link ClientHealth#NOT_MEASURED} when none)
 */
public record ExecutedStep(StepInfo info, StepWindow window, ClientHealth client) {
    public ExecutedStep {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(client, "client");
    }

    /** A step without client health. */
    public ExecutedStep(StepInfo info, StepWindow window) {
        this(info, window, ClientHealth.NOT_MEASURED);
    }
}
