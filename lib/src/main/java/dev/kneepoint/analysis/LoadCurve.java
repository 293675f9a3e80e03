package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.Comparator;
import java.util.List;

/**
 * A run's steps in load order with T(x) and L(x) (steps with a NaN load are left out). A run mixing closed- and
 * open-loop steps (a rate sweep's {@code synchronous} and {@code throughput} probes, a rate ladder's
 * {@code baseline}) keeps its open-loop steps only: a concurrency and a rate are not points of one load axis.
 */
record LoadCurve(List<StepResult> steps, double[] throughput, double[] latency, LatencyMetric metric,
              double percentile, KneeOptions.Throughput measure) {

    static LoadCurve of(RunResult run, KneeOptions o) {
        List<StepResult> sorted = loadSteps(run).stream().filter(s -> !Double.isNaN(s.info().load()))
                .sorted(Comparator.comparingDouble(s -> s.info().load())).toList();
        LatencyMetric m = o.latencyFor(run);
        double[] t = sorted.stream().mapToDouble(o.throughput()::of).toArray();
        double[] l = sorted.stream().mapToDouble(s -> m.of(s).percentile(o.percentile())).toArray();
        return new LoadCurve(sorted, t, l, m, o.percentile(), o.throughput());
    }

    /** The steps on the run's load axis: its open-loop steps when it has any, else all of them (closed loop). */
    static List<StepResult> loadSteps(RunResult run) {
        boolean anyOpen = run.steps().stream().anyMatch(s -> s.info().isOpenLoop());
        return anyOpen ? run.steps().stream().filter(s -> s.info().isOpenLoop()).toList() : run.steps();
    }

    int size() {
        return steps.size();
    }

    String label(int i) {
        return steps.get(i).info().label();
    }

    double load(int i) {
        return steps.get(i).info().load();
    }

    /** True when every step has the same load (a batch-size ladder at one concurrency level) and there are several. */
    boolean oneLoad() {
        return steps.size() > 1 && steps.stream().allMatch(s -> s.info().load() == steps.get(0).info().load());
    }

    boolean openLoop() {
        return !steps.isEmpty() && steps.get(0).info().isOpenLoop();
    }
}
