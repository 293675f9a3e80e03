package dev.kneepoint.sweep;

import dev.kneepoint.load.Abandonment;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.sweep.SweepSpec.Mode;
import dev.kneepoint.analysis.SloCapacity;
import dev.kneepoint.workload.DescribedWorkload;
import dev.kneepoint.workload.LengthDistribution;
import dev.kneepoint.client.Preflight;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A {@link SweepSpec}'s configuration as written to the run directory's {@code manifest.json}. */
final class SweepManifest {
    private SweepManifest() {
    }

    /** The run's configuration as written to {@code manifest.json} (no secrets). */
    static Map<String, Object> describe(SweepSpec spec, SweepInputs in) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", spec.name());
        m.put("target", spec.target().describe());
        boolean wholeTrace = false;
        boolean baseline = false;
        switch (spec.mode()) { // what only the mode has; a rate sweep has no baseline (its synchronous probe is one)
            case Mode.SloSearch s -> {
                m.put("mode", s.dimension().equals(SloCapacity.RATE) ? "open" : "closed");
                m.put("slo_search", SweepSloSearch.describe(s));
                if (s.dimension().equals(SloCapacity.RATE)) {
                    arrival(m, s.arrival());
                    cap(m, s.cap());
                } else {
                    m.put("think_time_s", s.thinkTime().toNanos() / 1e9);
                    m.put("ramp_up_s", s.rampUp().toNanos() / 1e9);
                }
            }
            case Mode.RateSweep r -> {
                m.put("mode", "rate-sweep");
                m.put("rate_sweep", SweepRates.describe(r)); // mutable: the run adds what it measured and planned
                arrival(m, r.arrival());
                cap(m, r.cap());
            }
            case Mode.Trace t -> {
                m.put("mode", "open");
                m.put("rates_rps", t.ratesRps());
                m.put("arrival", "trace");
                m.put("time_scale", t.ratesRps().isEmpty() ? t.timeScale() : null);
                m.put("trace", in.trace().describe());
                cap(m, t.cap());
                wholeTrace = t.wholeTrace();
                baseline = t.baseline();
            }
            case Mode.Open o -> {
                m.put("mode", "open");
                m.put("rates_rps", o.ratesRps());
                arrival(m, o.arrival());
                cap(m, o.cap());
                baseline = o.baseline();
            }
            case Mode.Closed c -> {
                m.put("mode", "closed");
                m.put("concurrency", c.concurrency());
                m.put("think_time_s", c.thinkTime().toNanos() / 1e9);
                m.put("ramp_up_s", c.rampUp().toNanos() / 1e9);
                baseline = c.baseline();
            }
        }
        SweepSpec.Prompts p = spec.prompts();
        m.put("workload", in.calibratedSynthetic() != null && p.mix().isEmpty()
                ? calibrated(in.calibratedSynthetic().describe(), p)
                : p.workload() == null
                ? synthetic(p)
                : p.workload() instanceof DescribedWorkload d ? d.describe() : Map.of("kind", p.workload().getClass().getName()));
        if (p.shape().tools() != null) {
            m.put("tools", p.shape().tools().describe());
        }
        if (p.shape().structured() != null) {
            m.put("structured_output", p.shape().structured().describe());
        }
        if (p.shape().media() != null) {
            m.put("media", p.shape().media().seed(spec.seed()).describe());
        }
        if (p.shape().models() != null) {
            m.put("models", p.shape().models().describe());
        }
        if (spec.target().apiKind().isPooling()) {
            m.put("batch", p.shape().batch());
            m.put("batch_query", spec.target().apiKind().takesQuery()); // rerank, score: each batch has a query
        }
        if (spec.abandonment() != null) {
            Abandonment a = spec.abandonment();
            m.put("abandonment", a.after() != null ? Map.of("rate", a.rate(), "after_ms", a.after().toNanos() / 1e6)
                    : Map.of("rate", a.rate(), "after_tokens", a.afterTokens()));
        }
        m.put("seed", spec.seed());
        Map<String, Object> cost = new LinkedHashMap<>();
        cost.put("gpus", spec.cost().gpus() > 0 ? spec.cost().gpus() : null);
        cost.put("price_per_hour_usd", Double.isNaN(spec.cost().pricePerHourUsd()) ? null : spec.cost().pricePerHourUsd());
        m.put("cost", cost);
        m.put("labels", new java.util.TreeMap<>(spec.labels()));
        m.put("server", in.server());
        m.put("prompt_calibration", in.calibration() != null ? (in.calibration().exact() ? ""
                : "estimate: synthetic words, no tokenizer answered; ") + in.calibration().description()
                : p.workload() != null ? "the workload's own" : "off: synthetic words, one token each on the embedded simulator");
        SweepSpec.Steps steps = spec.steps();
        m.put("step_duration_s", wholeTrace ? null : (Object) (steps.duration().toNanos() / 1e9));
        m.put("warmup_s", steps.warmup().toNanos() / 1e9);
        m.put("pause_s", steps.pause().toNanos() / 1e9);
        m.put("max_requests_per_step", steps.maxRequests());
        m.put("repeat", steps.repeat());
        m.put("prefix_cache_reset", "off"); // the run replaces it with what it reset, when it does
        m.put("baseline", baseline);
        m.put("slo", spec.slo().toString());
        m.put("concurrent_runs_allowed", spec.allowConcurrentRuns());
        m.put("preflight", in.preflight() == null ? "off" : preflight(in.preflight()));
        m.put("telemetry", spec.telemetry().describe());
        if (spec.background() != null) {
            m.put("background", background(spec.background()));
        }
        return m;
    }

    /** The calibrated prompts' description, its lengths written as an uncalibrated sweep's are. */
    /** The uncalibrated synthetic prompts: their lengths, output setting and shared prefix. */
    private static Map<String, Object> synthetic(SweepSpec.Prompts p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", p.sharedPrefix() != null ? "shared_prefix" : "synthetic"); // as SyntheticWorkload says
        m.put("input_tokens", length(p.inputTokens()));
        m.put("output_tokens", length(p.outputTokens()));
        m.put("ignore_eos", p.ignoreEos());
        if (p.sharedPrefix() != null) {
            m.put("prefix_tokens", p.sharedPrefix().tokens());
            m.put("prefix_groups", p.sharedPrefix().groups());
        }
        if (p.turns() > 1) {
            m.put("kind", "multi_turn"); // as MultiTurnWorkload says
            m.put("turns", p.turns());
        }
        if (!p.mix().isEmpty()) {
            m.put("kind", "mix");
            m.remove("input_tokens");
            m.remove("output_tokens");
            m.put("classes", p.mix().stream().map(c -> {
                Map<String, Object> k = new LinkedHashMap<>();
                k.put("tag", c.tag());
                k.put("weight", c.weight());
                k.put("input_tokens", c.inputTokens());
                k.put("output_tokens", c.outputTokens());
                return k;
            }).toList());
        }
        return m;
    }

    private static Map<String, Object> calibrated(Map<String, Object> described, SweepSpec.Prompts p) {
        Map<String, Object> m = new LinkedHashMap<>(described);
        m.put("input_tokens", length(p.inputTokens()));
        m.put("output_tokens", length(p.outputTokens()));
        return m;
    }

    /** A fixed length as its number (as manifests have always written it), any other as its description. */
    private static Object length(LengthDistribution d) {
        return d instanceof LengthDistribution.Fixed f ? (Object) f.tokens() : d.describe();
    }

    private static Map<String, Object> preflight(Preflight.Result p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("served_models", p.servedModels());
        m.put("request_ms", Double.isFinite(p.requestMs()) ? p.requestMs() : null);
        m.put("outcome", p.outcome());
        return m;
    }

    private static void arrival(Map<String, Object> m, SweepSpec.Arrival arrival) {
        m.put("arrival", arrival.process());
        if (arrival.process().equals("gamma")) {
            m.put("burstiness_cv", arrival.burstinessCv());
        }
    }

    private static void cap(Map<String, Object> m, SweepSpec.InFlightCap cap) {
        m.put("max_in_flight", cap.max());
        m.put("cap_policy", cap.bounded() ? cap.policy().name().toLowerCase(Locale.ROOT) : "");
    }

    private static Map<String, Object> background(BackgroundStream stream) {
        Map<String, Object> bg = new LinkedHashMap<>();
        bg.put("tag", stream.tag());
        bg.put("rate_rps", stream.perStep() ? null : stream.rateRps());
        if (stream.perStep()) {
            bg.put("step_rates_rps", stream.stepRatesRps());
        }
        bg.put("arrival", stream.arrival().label());
        bg.put("seed", stream.arrival().seed());
        bg.put("workload", stream.workload() instanceof DescribedWorkload d ? d.describe()
                : Map.of("kind", stream.workload().getClass().getName()));
        return bg;
    }
}
