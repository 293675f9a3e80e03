package dev.kneepoint.scenario;

import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.metrics.RunResult;
import java.nio.file.Path;
import java.util.Optional;

/**
 * One scenario as it ran.
 *
 * @param scenario  the preset (or variant) that ran
 * @param run       its run result (foreground steps; background apart for E)
 * @param knee      knee analysis of its ladder
 * @param directory its run directory, when one was written
 */
public record ScenarioRun(Scenario scenario, RunResult run, KneeReport knee, Optional<Path> directory) {}
