package dev.kneepoint.sweep;

import dev.kneepoint.workload.DescribedWorkload;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A {@link Sweep}'s configuration as written to the run directory's {@code manifest.json}. */
final class SweepManifest {
    private SweepManifest() {
    }

    /** The run's configuration as written to {@code manifest.json} (no secrets). */
    static Map<String, Object> describe(Sweep s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", s.name);
        m.put("target", s.target.describe());
        m.put("mode", s.sweepsRates() ? "rate-sweep" : s.concurrency.isEmpty() ? "open" : "closed");
        if (s.sweepsRates()) {
            m.put("rate_sweep", SweepRates.describe(s)); // mutable: the run adds what it measured and planned
            m.put("arrival", s.arrival);
            if (s.arrival.equals("gamma")) {
                m.put("burstiness_cv", s.burstCv);
            }
            m.put("max_in_flight", s.maxInFlight);
            m.put("cap_policy", s.maxInFlight > 0 ? s.capPolicy.name().toLowerCase(Locale.ROOT) : "");
        } else if (s.trace != null) {
            m.put("rates_rps", s.rates);
            m.put("arrival", "trace");
            m.put("time_scale", s.rates.isEmpty() ? s.timeScale : null);
            m.put("trace", s.trace.describe());
            m.put("max_in_flight", s.maxInFlight);
            m.put("cap_policy", s.maxInFlight > 0 ? s.capPolicy.name().toLowerCase(Locale.ROOT) : "");
        } else if (s.concurrency.isEmpty()) {
            m.put("rates_rps", s.rates);
            m.put("arrival", s.arrival);
            if (s.arrival.equals("gamma")) {
                m.put("burstiness_cv", s.burstCv);
            }
            m.put("max_in_flight", s.maxInFlight);
            m.put("cap_policy", s.maxInFlight > 0 ? s.capPolicy.name().toLowerCase(Locale.ROOT) : "");
        } else {
            m.put("concurrency", s.concurrency);
            m.put("think_time_s", s.thinkTime.toNanos() / 1e9);
        }
        m.put("workload", s.calibratedSynthetic != null ? s.calibratedSynthetic.describe() : s.workload == null
                ? Map.of("kind", "synthetic", "input_tokens", s.inputTokens, "output_tokens", s.outputTokens,
                        "ignore_eos", s.ignoreEos)
                : s.workload instanceof DescribedWorkload d ? d.describe() : Map.of("kind", s.workload.getClass().getName()));
        m.put("seed", s.seed);
        m.put("prompt_calibration", s.calibration != null ? s.calibration.description()
                : s.workload != null ? "the workload's own" : "off: synthetic words, one token each on the embedded simulator");
        boolean wholeTrace = s.trace != null && !s.stepDurationSet;
        m.put("step_duration_s", wholeTrace ? null : (Object) (s.stepDuration.toNanos() / 1e9));
        m.put("warmup_s", (s.trace != null ? SweepTrace.warmup(s) : s.warmup).toNanos() / 1e9);
        m.put("pause_s", s.pause.toNanos() / 1e9);
        m.put("max_requests_per_step", s.maxRequestsPerStep);
        m.put("baseline", s.baseline);
        m.put("slo", s.slo.toString());
        m.put("concurrent_runs_allowed", s.allowConcurrent);
        m.put("telemetry", s.telemetry.describe());
        if (s.background != null) {
            Map<String, Object> bg = new LinkedHashMap<>();
            bg.put("tag", s.background.tag());
            bg.put("rate_rps", s.background.perStep() ? null : s.background.rateRps());
            if (s.background.perStep()) {
                bg.put("step_rates_rps", s.background.stepRatesRps());
            }
            bg.put("arrival", s.background.arrival().label());
            bg.put("seed", s.background.arrival().seed());
            bg.put("workload", s.background.workload() instanceof DescribedWorkload d ? d.describe()
                    : Map.of("kind", s.background.workload().getClass().getName()));
            m.put("background", bg);
        }
        return m;
    }
}
