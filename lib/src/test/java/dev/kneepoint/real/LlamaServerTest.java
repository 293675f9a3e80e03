package dev.kneepoint.real;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.ExecutedStep;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.workload.SyntheticPrompts;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Kneepoint against a real llama.cpp {@code llama-server} serving SmolLM2-135M-Instruct (Q4_1), started by
 * {@code bin/kneepoint-llama start} (4 slots, continuous batching, prompt cache off, 1 thread).
 * Skipped when {@code KNEEPOINT_LLAMA_URL} is unset; failed instead when {@code KNEEPOINT_REQUIRE_REAL_SERVER=1}
 * (CI). Tolerances are justified where they are asserted and in docs/REAL-SERVER.md.
 *
 * <p>Against the fallback ({@code bin/kneepoint-llama start --fallback}: llama-cpp-python's
 * {@code llama_cpp.server}, {@link RealServer.Kind#LLAMA_CPP_PYTHON}) the streaming, TTFT/ITL/TPOT and ladder
 * tests run with the assertions that server supports; the tests of llama.cpp's timings, /tokenize and
 * /metrics are skipped with the reason.
 */
@Tag("real-server")
@Tag("llama-server")
class LlamaServerTest {
    /**
     * Exact lengths, and greedy decoding with a fixed seed: the one-event-per-token checks ({@link LlamaRecords})
     * hold only while no token ends inside a UTF-8 character (llama-server holds such a token back and sends it with
     * the next one). Sampled at llama-server's default temperature 0.8, an answer can wander into CJK or accented
     * text (the tail after the model's natural end, kept going by ignore_eos, especially): 10 of 10 sampled answers
     * to a translation prompt arrived in 15-31 events for 32 tokens. Greedy, each prompt always gets the same answer.
     */
    private static final Map<String, Object> IGNORE_EOS = Map.of("ignore_eos", true, "temperature", 0, "seed", 42);
    /**
     * llama_cpp.server has no {@code ignore_eos}; a -100 logit bias on SmolLM2's end tokens (0
     * {@code <|endoftext|>}, 2 {@code <|im_end|>}, checked through /extras/tokenize in
     * {@link #fallbackEndTokensAreTheBiasedIds}) keeps it generating to {@code max_tokens}.
     */
    private static final Map<String, Object> NO_EOS_BIAS = Map.of("logit_bias", Map.of("0", -100.0, "2", -100.0));
    private static RealServer server;
    /** Gate, clock, request ids and the measured numbers, written to target/real-server-report.txt (not asserted). */
    private static final RealServerSupport.Session<RealServer> SESSION =
            RealServerSupport.llamaSession("real-server-report.txt");

    @BeforeAll
    static void connect() {
        server = SESSION.connect();
    }

    /** Per test, so that every test shows as skipped (with the reason) or failed, never silently absent. */
    @BeforeEach
    void requireServer() {
        SESSION.require();
    }

    @AfterAll
    static void close() throws IOException {
        SESSION.close();
    }

    private static TargetConfig target(ApiKind kind) {
        // On the fallback the end-token bias rides on every request (the ladder's ignore_eos is ignored there).
        return Kneepoint.targetBuilder().baseUrl(server.baseUrl()).model(server.model()).apiKind(kind)
                .extraBody(fallback() ? NO_EOS_BIAS : Map.of())
                .firstTokenTimeout(Duration.ofSeconds(30)).totalTimeout(Duration.ofSeconds(60)).build();
    }

    private static boolean fallback() {
        return server.kind() == RealServer.Kind.LLAMA_CPP_PYTHON;
    }

    /** Skips the calling test on the fallback server, with the reason. */
    private static void requireLlamaServer(String missing) {
        Assumptions.assumeTrue(!fallback(), () -> "the fallback llama_cpp.server has " + missing
                + " (see docs/REAL-SERVER.md, fallback section)");
    }

    private static void requireFallback() {
        Assumptions.assumeTrue(fallback(), "only against the fallback llama_cpp.server");
    }

    private static RequestRecord send(ApiKind kind, String prompt, int maxTokens) {
        RequestSpec spec = new RequestSpec(prompt, List.of(), maxTokens, -1, IGNORE_EOS, "real");
        return SESSION.send(target(kind), spec);
    }

    @Test
    void streamingChatGivesOkRecordsWithServerUsageAndTimings() {
        RequestRecord r = send(ApiKind.CHAT, "Write one sentence about mountains.", 32);
        LlamaRecords.assertStreamedOk(r, 32, fallback());
    }

    @Test
    void streamingCompletionsGiveOkRecordsWithServerUsageAndTimings() {
        RequestRecord r = send(ApiKind.COMPLETIONS, "The history of the bicycle begins", 32);
        LlamaRecords.assertStreamedOk(r, 32, fallback());
    }

    @Test
    void ttftAndTpotAgreeWithLlamaCppTimings() {
        requireLlamaServer("no llama.cpp timings (prompt_ms, predicted_ms) in its streams");
        SyntheticPrompts prompts = new SyntheticPrompts(7);
        int out = 48;
        send(ApiKind.COMPLETIONS, prompts.prompt(0, 200), out); // warm-up: first-use allocations
        List<Double> overheadMs = new ArrayList<>();
        List<Double> tpotRelErr = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            RequestRecord r = send(ApiKind.COMPLETIONS, prompts.prompt(i, 200), out);
            LlamaRecords.assertStreamedOk(r, out, fallback());
            Map<String, Double> t = r.response().serverTimings();
            double ttftMs = r.ttftNanos() / 1e6;
            double promptMs = t.get("prompt_ms");
            // llama.cpp counts predicted_ms from the end of prefill (the first token is sampled from the
            // prefill batch) to the last token: predicted_n tokens but predicted_n - 1 decode steps, which is
            // the same span and divisor as Kneepoint's TPOT = (t_last - t_first) / (N - 1).
            double serverDecodeMs = t.get("predicted_ms") / (t.get("predicted_n") - 1);
            double tpotMs = r.tpotNanos() / 1e6;
            rows.add(String.format(Locale.ROOT, "ttft=%.1f prompt_ms=%.1f tpot=%.2f server=%.2f",
                    ttftMs, promptMs, tpotMs, serverDecodeMs));
            // Causality, no tolerance beyond rounding: the request reaches the server before prefill starts
            // and the first token leaves after it ends, on the same machine's monotonic clock.
            assertThat(ttftMs).as("TTFT >= prompt_ms; %s", rows).isGreaterThanOrEqualTo(promptMs - 0.5);
            overheadMs.add(ttftMs - promptMs);
            tpotRelErr.add(Math.abs(tpotMs - serverDecodeMs) / serverDecodeMs);
        }
        // TTFT - prompt_ms = HTTP request + JSON + tokenization + slot hand-off + first sampling + SSE write
        // + OkHttp read + decode: a few ms on an idle machine. The median of 5 is bounded at 60 ms because
        // this 2-core machine is shared (a descheduled thread costs tens of ms); a client that waited for
        // the wrong event (usage chunk, second token) would exceed it by a full decode time or more.
        SESSION.report("timings (completions, ~200-word prompt, 48 tokens): " + rows);
        assertThat(RealServerSupport.median(overheadMs)).as("median TTFT - prompt_ms (ms); %s", rows).isBetween(0.0, 60.0);
        // TPOT and llama.cpp's decode time per token cover the same span; only the ends differ (SSE write
        // and client read of the first and last token; measured < 1% here). 15% is what a 60 ms client-side
        // delay at one end (the bound above) does to 47 intervals of ~9 ms: noise passes, a client stamping
        // tokens at the wrong event (stream end, buffered reads) does not.
        assertThat(RealServerSupport.median(tpotRelErr)).as("median |TPOT - server| / server; %s", rows).isLessThan(0.15);
    }

    @Test
    void ladderShowsBatchingPerUserRateFallsAndDecodeCallsCarryManyTokens() {
        requireLlamaServer("no slots, no batching and no /metrics (ladderOnFallbackQueuesRequestsOneAtATime runs)");
        // llama.cpp's own counters, read at each step's start and end: output tokens per llama_decode() call
        // is 1 when requests are served one at a time and approaches the number of busy slots when they
        // are batched, whatever the CPU speed.
        Map<String, double[]> tokensPerDecode = new LinkedHashMap<>();
        LoadProgress scrape = new LoadProgress() {
            private double[] at;

            @Override
            public void stepStarting(StepInfo step, int stepCount) {
                at = decodeCounters();
            }

            @Override
            public void stepEnded(ExecutedStep step, GateDecision decision) {
                double[] now = decodeCounters();
                tokensPerDecode.put(step.info().label(), new double[] {now[0] - at[0], now[1] - at[1]});
            }
        };
        RunResult run = Kneepoint.ladder(target(ApiKind.COMPLETIONS), 1, 2, 4)
                .inputTokens(32).outputTokens(32).ignoreEos(true)
                .warmup(Duration.ofSeconds(1)).stepDuration(Duration.ofSeconds(5))
                .outputDir(null).name("llama-ladder").progress(scrape).run();
        assertThat(run.steps()).hasSize(3);
        StepResult c1 = run.steps().get(0);
        StepResult c4 = run.steps().get(2);
        String table = Kneepoint.table(run) + "tokens/decode call: " + tokensPerDecode.entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s %.0f/%.0f", e.getKey(), e.getValue()[0], e.getValue()[1]))
                .toList();
        SESSION.report("ladder:\n" + table);
        for (StepResult s : run.steps()) {
            assertThat(s.counts().requestsFailed()).as("failures in %s%n%s", s.info().label(), table).isZero();
            assertThat(s.counts().requestsOk()).as("requests in %s%n%s", s.info().label(), table).isPositive();
        }
        // Closed loop with 4 users keeps ~4 requests in flight (Little's law; the client is not the limit).
        assertThat(c4.rates().concurrencyMean()).as("in flight at c=4%n%s", table).isBetween(3.0, 4.05);
        // Batching, seen by the server: one request alone gets one token per decode call (its prefill call
        // yields the first token, each later call one more); four users share calls. 2.5 leaves room for
        // ramp-up/drain at the step edges and for prefill calls that join a running batch.
        double[] d1 = tokensPerDecode.get("c=1");
        double[] d4 = tokensPerDecode.get("c=4");
        assertThat(d1[0] / d1[1]).as("tokens per decode call at c=1%n%s", table).isBetween(0.95, 1.05);
        assertThat(d4[0] / d4[1]).as("tokens per decode call at c=4%n%s", table).isGreaterThan(2.5);
        // Each user's own decode rate falls, because every decode call now computes 4 rows (1000 / TPOT p50).
        // The margin (x0.8) keeps it from passing on noise alone.
        double perUser1 = 1000.0 / c1.latency().tpot().p50();
        double perUser4 = 1000.0 / c4.latency().tpot().p50();
        assertThat(perUser4).as("per-user tokens/s c4 vs c1%n%s", table).isLessThan(0.8 * perUser1);
        // Aggregate throughput must not collapse under batching. It does NOT rise on this machine (1.0-1.1x):
        // one request already keeps the VM near a core's compute and its memory bandwidth, so a 4-row decode
        // step costs ~4x a 1-row one (measured and explained in docs/REAL-SERVER.md). 0.6 allows for noise.
        assertThat(c4.rates().outputTokensPerS()).as("aggregate tokens/s c4 vs c1%n%s", table)
                .isGreaterThan(0.6 * c1.rates().outputTokensPerS());
    }

    private static double[] decodeCounters() {
        String text = server.metricsText();
        return new double[] {
            PromText.value(text, "llamacpp:tokens_predicted_total").orElseThrow(),
            PromText.value(text, "llamacpp:n_decode_total").orElseThrow()};
    }

    @Test
    void tokenizeCalibrationGivesExactPromptLengths() {
        requireLlamaServer("no usage in streamed responses, so no server prompt count to calibrate against");
        int n = 100;
        String source = new SyntheticPrompts(11).prompt(0, 300);
        List<Integer> ids = server.tokenize(source, false);
        assertThat(ids.size()).isGreaterThan(n);
        // Detokenize then tokenize can merge across the cut: take the first cut near n whose round trip is n.
        String prompt = null;
        for (int d = 0; d <= 6 && prompt == null; d++) {
            int cut = n + (d % 2 == 0 ? d / 2 : -(d + 1) / 2);
            String text = server.detokenize(ids.subList(0, cut));
            if (server.tokenize(text, false).size() == n) {
                prompt = text;
            }
        }
        assertThat(prompt).as("a text of exactly %d tokens", n).isNotNull();
        assertThat(server.tokenize(prompt, false)).hasSize(n);
        int specials = server.tokenize(prompt, true).size() - n; // BOS etc. the server adds on /v1/completions
        RequestRecord r = send(ApiKind.COMPLETIONS, prompt, 4);
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.tokens().promptTokens()).as("usage.prompt_tokens for a calibrated %d-token prompt", n)
                .isEqualTo(n + specials);
    }

    @Test
    void fallbackCalibrationThroughExtrasTokenizeGivesExactPromptLengths() {
        requireFallback();
        // Prompts calibrated with /extras/tokenize (completions) and with 1-token chat completions' usage
        // (chat: llama_cpp.server has no template endpoint), checked against usage.prompt_tokens of
        // non-streamed requests (the fallback's streams carry no usage). Exact: no tolerance.
        for (ApiKind kind : List.of(ApiKind.COMPLETIONS, ApiKind.CHAT)) {
            var workload = dev.kneepoint.workload.Workloads.synthetic().inputTokens(dev.kneepoint.workload.Lengths
                    .uniform(40, 160)).outputTokens(1).api(kind).calibrate(target(kind)).seed(5).build();
            assertThat(workload.calibrator().counter().describe()).contains("/extras/tokenize");
            for (int i = 0; i < 3; i++) {
                RequestSpec spec = workload.next(i);
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("model", server.model());
                body.put("max_tokens", 1);
                body.put("stream", false);
                if (kind == ApiKind.CHAT) {
                    body.put("messages", spec.chatMessages().stream()
                            .map(m -> Map.of("role", m.role(), "content", m.content())).toList());
                } else {
                    body.put("prompt", spec.prompt());
                }
                var reply = server.postJson(kind == ApiKind.CHAT ? "/v1/chat/completions" : "/v1/completions", body);
                assertThat(reply.path("usage").path("prompt_tokens").asInt(-1))
                        .as("%s prompt %d: usage.prompt_tokens vs requested", kind, i)
                        .isEqualTo(spec.requestedPromptTokens());
            }
        }
    }

    @Test
    void metricsEndpointCountsWhatTheClientSaw() {
        requireLlamaServer("no /metrics endpoint");
        String before = server.metricsText();
        assertThat(before).contains("# TYPE llamacpp:prompt_tokens_total counter");
        double prompt0 = PromText.value(before, "llamacpp:prompt_tokens_total").orElseThrow();
        double predicted0 = PromText.value(before, "llamacpp:tokens_predicted_total").orElseThrow();
        RequestRecord r = send(ApiKind.COMPLETIONS, "Counting tokens for the metrics endpoint:", 16);
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        String after = server.metricsText();
        double prompt1 = PromText.value(after, "llamacpp:prompt_tokens_total").orElseThrow();
        double predicted1 = PromText.value(after, "llamacpp:tokens_predicted_total").orElseThrow();
        // Tests in this class run one at a time, so the counters moved by exactly this request.
        assertThat(predicted1 - predicted0).isEqualTo(r.tokens().outputTokens());
        assertThat(prompt1 - prompt0).isEqualTo(r.tokens().promptTokens());
    }

    @Test
    void fallbackEndTokensAreTheBiasedIds() {
        requireFallback();
        // The ids biased away in NO_EOS_BIAS must be the model's end tokens, else the exact token counts above
        // would pass or fail by luck. /extras/tokenize parses special tokens (special=True).
        assertThat(server.extrasTokenize("<|endoftext|>")).endsWith(0);
        assertThat(server.extrasTokenize("<|im_end|>")).endsWith(2);
    }

    @Test
    void fallbackTtftItlAndTpotAreMeasuredWithoutServerTimings() throws InterruptedException {
        requireFallback();
        String logVar = System.getenv(PerfLog.LOG_VAR);
        PerfLog log = logVar == null || logVar.isBlank() ? null : new PerfLog(Path.of(logVar));
        SyntheticPrompts prompts = new SyntheticPrompts(7);
        int out = 48;
        send(ApiKind.COMPLETIONS, prompts.prompt(0, 200), out); // warm-up: first-use allocations
        List<Double> ttfts = new ArrayList<>();
        List<Double> tpots = new ArrayList<>();
        List<Double> overheadMs = new ArrayList<>();
        List<Double> tpotRatio = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (int i = 1; i <= 5; i++) {
            int before = log == null ? 0 : log.entries().size();
            RequestRecord r = send(ApiKind.COMPLETIONS, prompts.prompt(i, 200), out);
            LlamaRecords.assertStreamedOk(r, out, fallback());
            long[] t = r.timing().chunkNanos();
            List<Double> itlMs = new ArrayList<>();
            for (int k = 1; k < t.length; k++) {
                itlMs.add((t[k] - t[k - 1]) / 1e6);
            }
            double ttftMs = r.ttftNanos() / 1e6;
            double tpotMs = r.tpotNanos() / 1e6;
            // One token per event, so the N-1 ITLs span first to last token and their mean is TPOT (METRICS.md);
            // 0.001 ms covers TPOT's integer-nanosecond division.
            assertThat(itlMs).hasSize(out - 1).allSatisfy(x -> assertThat(x).isNotNegative());
            assertThat(itlMs.stream().mapToDouble(Double::doubleValue).average().orElseThrow())
                    .isCloseTo(tpotMs, org.assertj.core.data.Offset.offset(0.001));
            String row = String.format(Locale.ROOT, "ttft=%.1f tpot=%.2f itl_p50=%.2f", ttftMs, tpotMs,
                    RealServerSupport.median(itlMs));
            if (log != null) {
                PerfLog.Entry e = log.awaitEntry(before);
                row += " " + e;
                // Exact: the first token comes from the prefill batch, each later one from one llama_decode().
                assertThat(e.evalRuns()).as("decode runs for %d tokens; %s", out, row).isEqualTo(out - 1);
                // Causality, as against llama-server's timings: the first token leaves after prefill ends.
                assertThat(ttftMs).as("TTFT >= prompt eval; %s", row).isGreaterThanOrEqualTo(e.promptMs() - 0.5);
                overheadMs.add(ttftMs - e.promptMs());
                tpotRatio.add(tpotMs / e.msPerRun());
            }
            rows.add(row);
            ttfts.add(ttftMs);
            tpots.add(tpotMs);
        }
        SESSION.report("fallback llama_cpp.server (completions, ~200-word prompt, 48 tokens): " + rows);
        // TTFT holds the prefill of a ~200-token prompt (distinct prompts: no shared prefix to reuse), TPOT
        // one decode step: prefill is a batch of ~200 rows, so it costs many decode steps (about 90x on
        // llama-server here). 5x leaves room for prefill's better batching efficiency and noise; a client that
        // stamped the first token at the response headers or a role-only event would fall far below it.
        assertThat(RealServerSupport.median(ttfts)).as("median TTFT vs 5 x median TPOT; %s", rows)
                .isGreaterThan(5 * RealServerSupport.median(tpots));
        if (log != null) {
            // Same bound as for llama-server's prompt_ms: HTTP, JSON, tokenizing, first sampling, SSE, read.
            assertThat(RealServerSupport.median(overheadMs)).as("median TTFT - prompt eval (ms); %s", rows).isBetween(0.0, 60.0);
            // Between the first and the last token the server runs N-1 llama_decode() calls, so TPOT is at
            // least their mean (0.95: jitter of the first/last read). Above it: llama_cpp.server's Python work
            // per token (logits copy for the logit bias, sampling, detokenizing, JSON, the thread hand-off to
            // the event loop): median 1.14-1.25x measured here, single requests up to 1.5x under load. 2.0 leaves
            // room for the shared machine and still fails a client that counted half the tokens.
            assertThat(RealServerSupport.median(tpotRatio)).as("median TPOT / (eval ms / runs); %s", rows).isBetween(0.95, 2.0);
        }
    }

    @Test
    void ladderOnFallbackQueuesRequestsOneAtATime() {
        requireFallback();
        RunResult run = Kneepoint.ladder(target(ApiKind.COMPLETIONS), 1, 2, 4)
                .inputTokens(32).outputTokens(32)
                .warmup(Duration.ofSeconds(1)).stepDuration(Duration.ofSeconds(5))
                .ignoreEos(true).outputDir(null).name("llama-cpp-python-ladder").run();
        assertThat(run.steps()).hasSize(3);
        StepResult c1 = run.steps().get(0);
        StepResult c4 = run.steps().get(2);
        String table = Kneepoint.table(run);
        SESSION.report("fallback ladder:\n" + table);
        for (StepResult s : run.steps()) {
            assertThat(s.counts().requestsFailed()).as("failures in %s%n%s", s.info().label(), table).isZero();
            assertThat(s.counts().requestsOk()).as("requests in %s%n%s", s.info().label(), table).isPositive();
        }
        // The client still keeps ~4 requests in flight (3 of them waiting in the server's lock).
        assertThat(c4.rates().concurrencyMean()).as("in flight at c=4%n%s", table).isBetween(3.0, 4.05);
        // One request at a time: a request that runs decodes alone, so TPOT does not grow like llama-server's
        // (x4 there); [0.5, 2] allows for the machine's noise. The wait shows in TTFT instead: at c=4 each
        // request queues behind ~3 whole requests (each ~TTFT + 31 TPOT), far above 2x an unqueued TTFT.
        assertThat(c4.latency().tpot().p50()).as("TPOT p50 c4 vs c1%n%s", table)
                .isBetween(0.5 * c1.latency().tpot().p50(), 2.0 * c1.latency().tpot().p50());
        assertThat(c4.latency().ttft().p50()).as("TTFT p50 c4 vs c1 (queueing)%n%s", table)
                .isGreaterThan(2.0 * c1.latency().ttft().p50());
        // Served one by one, aggregate throughput stays that of one user (0.6-1.6x for noise).
        assertThat(c4.rates().outputTokensPerS()).as("aggregate tokens/s c4 vs c1%n%s", table)
                .isBetween(0.6 * c1.rates().outputTokensPerS(), 1.6 * c1.rates().outputTokensPerS());
    }
}
