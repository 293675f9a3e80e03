package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.BackgroundResult;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.LatencyTrend;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepFigures;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.Trials;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * The {@code summary.json} format, version {@value #FORMAT_VERSION}. Stable snake_case names; NaN written as
 * {@code null}; numbers rounded to 6 decimals without exponent; maps sorted by key. Top level:
 * {@code format_version, run_id, complete, start_time, target, steps[]}. Each step: {@code label, index, mode,
 * concurrency (null for open loop), rate_rps (null for closed loop), arrival, max_in_flight, cap_policy,
 * warmup_s, window_s, window{step_start_ns, start_ns, end_ns, completed}, requests_ok, requests_failed,
 * cancelled, dropped, warmup_requests, failure_rate, failures_by_class{label: n}}, then for each of
 * {@code ttft_ms, ttft_sched_ms, itl_ms, chunk_gap_ms, tpot_ms, e2e_ms, e2e_sched_ms, schedule_lag_ms} (and
 * {@code ttfat_ms}, the time to the first answer token, only for a step whose requests carried reasoning) an object
 * {@code {count, mean, stddev, min, p50, p90, p95, p99, p999, max}}, then {@code output_tokens_per_s,
 * input_tokens_per_s, requests_per_s, goodput_rps, good_fraction, concurrency_mean, (only for a step of pooling
 * requests: items_per_s) latency_trend{requests, span_s,
 * slope_ms_per_s, rise_ms, mean_ms, t} (see {@link LatencyTrend}), output_len_mismatch,
 * count_discrepancy, retried, reasoning_tokens, mean_reasoning_tokens, (only where some OK request's usage said how
 * many prompt tokens the prefix cache held: cached_prompt_tokens, cached_prompt_share) token_sources{source: n}, slo{...},
 * client_check{...}} ({@code retried}: requests resent on a fresh connection after a stale kept-alive one, among the
 * OK and failed ones, {@link StepResult.Counts#retried()}; the reasoning counts cover the OK requests: output tokens carried as reasoning content, already part of the output
 * tokens; client_check: whether the load generator limited the step, with its evidence and signals, see
 * {@code StepJson.writeCheck}). After {@code steps}, {@code client_bound_steps[]}: the labels of the client-bound steps
 * (empty when the client kept up). The reasoning and client keys were added to version 1 without a version change, as
 * additive keys, and so were {@code retried} and {@code latency_trend} ({@link #retried} reads a summary written before it as 0). Sealed by a
 * golden-file test.
 *
 * <p>A run with background traffic ({@link dev.kneepoint.metrics.BackgroundResult}) has one more top-level
 * key after {@code client_bound_steps}: {@code background{tag, rate_rps, arrival, steps[], total}}, whose steps and total
 * have the step format above (one per foreground step, same labels). A run without background has no such key,
 * so its summary is unchanged; {@code steps} are always the foreground's only.
 */
public final class SummaryJson {
    /** Version of this format. */
    public static final int FORMAT_VERSION = 1;

    private SummaryJson() {}

    /** The summary of {@code run} as a string (ends with a newline). */
    public static String toJson(RunResult run) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(w)) {
            g.useDefaultPrettyPrinter();
            write(g, run);
            g.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /** Writes {@code run} to {@code file} atomically (temporary file, then move). */
    public static void write(Path file, RunResult run) {
        Json.writeAtomically(file, g -> write(g, run));
    }

    /**
     * A step's {@code retried} count from one object of a summary's {@code steps[]} (or of its background's): 0 for a
     * summary written before the count existed, where the key is missing.
     *
     * @throws IllegalArgumentException when the key is there but is not a whole number of at least 0
     */
    public static long retried(JsonNode step) {
        JsonNode n = java.util.Objects.requireNonNull(step, "step").get("retried");
        if (n == null) {
            return 0;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.asLong() < 0) {
            throw new IllegalArgumentException("summary step '" + step.path("label").asText("?")
                    + "': retried must be a whole number >= 0, got " + n);
        }
        return n.asLong();
    }

    static void write(JsonGenerator g, RunResult run) throws IOException {
        g.writeStartObject();
        g.writeNumberField("format_version", FORMAT_VERSION);
        g.writeStringField("run_id", run.runId());
        g.writeBooleanField("complete", run.complete());
        g.writeStringField("start_time", DateTimeFormatter.ISO_INSTANT.format(run.startTime()));
        g.writeStringField("target", run.target());
        writeSteps(g, run.steps());
        Json.strings(g, "client_bound_steps", run.clientBoundSteps());
        writeRepeats(g, Trials.of(run));
        if (run.background().isPresent()) {
            BackgroundResult bg = run.background().get();
            g.writeObjectFieldStart("background");
            g.writeStringField("tag", bg.tag());
            Json.number(g, "rate_rps", bg.rateRps());
            g.writeStringField("arrival", bg.arrival());
            writeSteps(g, bg.steps());
            g.writeFieldName("total");
            writeStep(g, bg.total());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /**
     * The {@code repeats} object of a run whose loads were measured several times: per load, its trials' labels and,
     * per headline metric, the trials' values, mean, 95 % interval of the mean and coefficient of variation
     * ({@link Trials}). Absent when nothing was repeated.
     */
    private static void writeRepeats(JsonGenerator g, List<Trials.Load> loads) throws IOException {
        if (loads.isEmpty()) {
            return;
        }
        g.writeObjectFieldStart("repeats");
        g.writeStringField("interval", "95% Student t of the mean across trials");
        g.writeArrayFieldStart("loads");
        for (Trials.Load l : loads) {
            g.writeStartObject();
            g.writeStringField("load", l.load());
            Json.strings(g, "trials", l.trials());
            g.writeObjectFieldStart("metrics");
            for (var e : l.metrics().entrySet()) {
                Trials.Stat s = e.getValue();
                g.writeObjectFieldStart(e.getKey());
                g.writeNumberField("n", s.n());
                Json.number(g, "mean", s.mean());
                Json.number(g, "ci95_low", s.ciLow());
                Json.number(g, "ci95_high", s.ciHigh());
                Json.number(g, "cv", s.cv());
                g.writeArrayFieldStart("values");
                for (double v : s.values()) {
                    Json.number(g, v);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndObject();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /** The {@code steps} array: the run's, or its background's. */
    private static void writeSteps(JsonGenerator g, List<StepResult> steps) throws IOException {
        g.writeArrayFieldStart("steps");
        for (StepResult s : steps) {
            writeStep(g, s);
        }
        g.writeEndArray();
    }

    private static void writeStep(JsonGenerator g, StepResult s) throws IOException {
        StepInfo info = s.info();
        g.writeStartObject();
        g.writeStringField("label", info.label());
        g.writeNumberField("index", info.index());
        g.writeStringField("mode", info.mode());
        g.writeFieldName("concurrency");
        if (info.concurrency() < 0) {
            g.writeNull();
        } else {
            g.writeNumber(info.concurrency());
        }
        Json.number(g, "rate_rps", info.rateRps());
        g.writeStringField("arrival", info.arrival());
        g.writeNumberField("max_in_flight", info.maxInFlight());
        g.writeStringField("cap_policy", info.capPolicy());
        if (info.isTrial()) {
            g.writeNumberField("trial", info.trial());
        }
        Json.number(g, "warmup_s", info.warmupNanos() / 1e9);
        Json.number(g, "window_s", s.windowS());
        g.writeFieldName("window");
        StepJson.writeWindow(g, s.window());
        writeFigures(g, s, StepFigures.OUTCOMES);
        if (s.counts().abandoned() > 0) {
            writeFigures(g, s, java.util.List.of(StepFigures.ABANDONED));
        }
        if (s.counts().outputInvalid() > 0) {
            writeFigures(g, s, java.util.List.of(StepFigures.OUTPUT_INVALID));
        }
        Json.number(g, "failure_rate", s.rates().failureRate());
        writeCounts(g, "failures_by_class", s.counts().failuresByClass());
        for (Map.Entry<String, Distribution> e : s.distributions().entrySet()) {
            writeDistribution(g, e.getKey(), e.getValue());
        }
        Json.number(g, "output_tokens_per_s", s.rates().outputTokensPerS());
        Json.number(g, "input_tokens_per_s", s.rates().inputTokensPerS());
        Json.number(g, "requests_per_s", s.rates().requestsPerS());
        Json.number(g, "goodput_rps", s.rates().goodputRps());
        Json.number(g, "good_fraction", s.rates().goodFraction());
        Json.number(g, "concurrency_mean", s.rates().concurrencyMean());
        if (s.rates().itemsPerS() > 0) { // pooling steps only (embeddings, rerank, score): others stay as they were
            Json.number(g, "items_per_s", s.rates().itemsPerS());
        }
        writeTrend(g, s.latency().trend());
        writeFigures(g, s, StepFigures.DISCREPANCIES);
        g.writeNumberField("reasoning_tokens", s.tokens().reasoningTokens());
        Json.number(g, "mean_reasoning_tokens", s.tokens().meanReasoningTokens());
        if (s.tokens().cacheReported()) { // only where the server said: other summaries stay as they were
            g.writeNumberField("cached_prompt_tokens", s.tokens().cachedPromptTokens());
            Json.number(g, "cached_prompt_share", s.tokens().cachedShare());
        }
        writeCounts(g, "token_sources", s.counts().tokenSources());
        g.writeFieldName("slo");
        StepJson.writeSlo(g, s.slo());
        g.writeFieldName("client_check");
        StepJson.writeCheck(g, s.clientCheck());
        g.writeEndObject();
    }

    private static void writeTrend(JsonGenerator g, LatencyTrend t) throws IOException {
        g.writeObjectFieldStart("latency_trend");
        g.writeNumberField("requests", t.requests());
        Json.number(g, "span_s", t.spanS());
        Json.number(g, "slope_ms_per_s", t.slopeMsPerS());
        Json.number(g, "rise_ms", t.riseMs());
        Json.number(g, "mean_ms", t.meanMs());
        Json.number(g, "t", t.t());
        g.writeEndObject();
    }

    private static void writeFigures(JsonGenerator g, StepResult s, List<StepFigures.Count> counts) throws IOException {
        for (StepFigures.Count c : counts) {
            g.writeNumberField(c.name(), c.value().applyAsLong(s));
        }
    }

    private static void writeCounts(JsonGenerator g, String name, Map<String, Long> counts) throws IOException {
        g.writeObjectFieldStart(name);
        for (Map.Entry<String, Long> e : counts.entrySet()) {
            g.writeNumberField(e.getKey(), e.getValue());
        }
        g.writeEndObject();
    }

    private static void writeDistribution(JsonGenerator g, String name, Distribution d) throws IOException {
        g.writeObjectFieldStart(name);
        g.writeNumberField("count", d.count());
        Json.number(g, "mean", d.mean());
        Json.number(g, "stddev", d.stddev());
        Json.number(g, "min", d.min());
        Json.number(g, "p50", d.p50());
        Json.number(g, "p90", d.p90());
        Json.number(g, "p95", d.p95());
        Json.number(g, "p99", d.p99());
        Json.number(g, "p999", d.p999());
        Json.number(g, "max", d.max());
        g.writeEndObject();
    }
}
