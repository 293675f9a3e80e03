package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Slo;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import tech.tablesaw.api.Table;

/**
 * The answer to "where does the service turn from smooth to sluggish?" for one ladder
 * (see {@link Knee} and docs/ANALYSIS.md).
 *
 * @param runId              the run analysed
 * @param throughputColumn   what T(x) is, e.g. {@code output_tokens_per_s}
 * @param latencyColumn      what L(x) is, e.g. {@code ttft_sched_p99_ms}
 * @param slo                the SLO set the efficient zone was judged against
 * @param steps              one row per step in load order: {@code step, load, throughput, latency,
 *                           latency_ci_low, latency_ci_high, meets_slo, slo_violations, role, client_bound} (the latency
 *                           columns are named after L, e.g. {@code e2e_sched_p99_ms} and {@code e2e_sched_p99_ci_low_ms}:
 *                           its 95 % confidence interval, +inf when open upwards; role: {@code efficient}, {@code knee},
 *                           {@code below knee, misses SLO}, {@code beyond knee}; client_bound: the load generator
 *                           limited the step, see {@code StepResult.clientCheck()})
 * @param elasticity         one row per segment between neighbouring steps: {@code from_step, to_step,
 *                           from_load, to_load, dln_throughput, dln_latency, elasticity, elastic, verdict}
 * @param kneeStep           label of the knee step, null when no knee was found
 * @param kneeLoad           load at the knee, NaN when none
 * @param efficientZone      labels of the steps in the efficient zone, in load order
 * @param recommendedStep    top of the efficient zone (the recommended operating point), null when the zone is empty
 * @param recommendedLoad    load of the recommended operating point, NaN when none
 * @param maxSustainableStep highest step such that it and every lower step meet the SLO set, null when none
 * @param maxSustainableLoad its load, NaN when none
 * @param method             how the verdict was reached, with the numbers
 * @param readings           plain-language readings with their evidence
 * @param answer             the plain answer and the adequacy caveats that open the report
 * @param refineLoads        loads that would place the knee closer, between it and the next step (empty when there is
 *                           no knee below the top step or the ladder is already fine there); the answer's caveats
 *                           name them
 * @param operatingPoints    where to run for each goal: latency-first and throughput-first ({@link OperatingPoints})
 * @param sloCapacity        the SLO capacity search's answer when the run was one ({@link KneeOptions#sloSearch()}),
 *                           else null
 */
public record KneeReport(String runId, String throughputColumn, String latencyColumn, Slo slo, Table steps,
                         Table elasticity, String kneeStep, double kneeLoad, List<String> efficientZone,
                         String recommendedStep, double recommendedLoad, String maxSustainableStep,
                         double maxSustainableLoad, String method, List<Reading> readings,
                         Answer answer, List<Double> refineLoads, OperatingPoints operatingPoints,
                         SloCapacity sloCapacity) {

    public KneeReport {
        Objects.requireNonNull(runId, "runId");
        efficientZone = List.copyOf(efficientZone);
        readings = List.copyOf(readings);
        Objects.requireNonNull(answer, "answer");
        refineLoads = List.copyOf(refineLoads);
        Objects.requireNonNull(operatingPoints, "operatingPoints");
    }

    /** The knee step, if the ladder has one. */
    public Optional<String> knee() {
        return Optional.ofNullable(kneeStep);
    }

    /**
     * The recommended operating point, if the efficient zone is not empty: the top of the efficient zone. For the
     * point to run at by goal (an SLO capacity less headroom, the highest sustainable step), see
     * {@link #operatingPoints()}.
     */
    public Optional<String> recommended() {
        return Optional.ofNullable(recommendedStep);
    }

    /** The readings that apply. */
    public List<Reading> applicableReadings() {
        return readings.stream().filter(r -> r.status() == Reading.Status.APPLIES).toList();
    }

    /** Method, verdict and readings as plain text. */
    public String summary() {
        StringBuilder sb = new StringBuilder(method);
        sb.append("\nReadings:");
        for (Reading r : readings) {
            sb.append("\n- ").append(r);
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "KneeReport[run=" + runId + ", knee=" + kneeStep + ", efficientZone=" + efficientZone
                + ", recommended=" + recommendedStep + ", maxSustainable=" + maxSustainableStep + "]";
    }
}
