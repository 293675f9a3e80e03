package dev.kneepoint.serve;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.sweep.Sweep;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Measures each configuration of a server-config sweep with a library {@link Sweep}: {@code ladder} shapes a sweep of
 * the configuration's target (its loads, lengths, SLO, durations), and the run is named after the configuration,
 * labelled with its settings and reported ({@code analysis.json}, which the sweep's table reads), as
 * {@code bin/kneepoint serve-sweep} does with the options of {@code run}.
 *
 * @param model  the model each server serves, as requests name it
 * @param ladder what to run against each server, e.g. {@code s -> s.concurrency(1, 4, 16).stepDuration(...)}
 */
public record SweepRunner(String model, UnaryOperator<Sweep> ladder) implements ConfigRunner {
    public SweepRunner {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(ladder, "ladder");
    }

    @Override
    public TargetConfig target(String url) {
        return TargetConfig.builder().baseUrl(url).model(model).build();
    }

    @Override
    public Finished run(String url, String name, Map<String, String> labels, Path out) {
        Sweep sweep = Objects.requireNonNull(ladder.apply(Sweep.of(target(url))), "the ladder returned no sweep");
        labels.forEach(sweep::label);
        RunResult r = sweep.outputDir(out).name(name).run();
        Path dir = r.directory().orElseThrow();
        RunReport.write(dir);
        return new Finished(dir, r.complete() ? 0 : 3);
    }
}
