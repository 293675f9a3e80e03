package dev.kneepoint.cli.peers;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.kneepoint.cli.peers.PeerComparison.ToolSummary;
import dev.kneepoint.io.PeerPoint;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Formats a {@link PeerComparison} and its runs as markdown tables and as JSON (NaN written as null). */
public final class PeerReport {
    /** Records under snake_case names, every double as {@link #num(JsonGenerator, double)} writes it. */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .registerModule(new SimpleModule().addSerializer(double.class, new StdSerializer<>(Double.class) {
                @Override
                public void serialize(Double v, JsonGenerator g, SerializerProvider p) throws IOException {
                    num(g, v);
                }
            }));

    private PeerReport() {}

    /** Markdown: the machine, the summary with ratios to Kneepoint, agreement, the rate ladder, every run. */
    public static String markdown(Map<String, String> env, List<PeerRun> runs, PeerComparison c) {
        StringBuilder b = new StringBuilder();
        b.append("Machine: ").append(env.getOrDefault("cpus", "?")).append(" CPUs (")
                .append(env.getOrDefault("cpu_model", "?")).append("), ").append(env.getOrDefault("mem_total", "?"))
                .append(", Linux ").append(env.getOrDefault("kernel", "?")).append("; load average at start ")
                .append(env.getOrDefault("loadavg_start", "?")).append(", at end ").append(env.getOrDefault("loadavg_end", "?"))
                .append(". ").append(env.getOrDefault("python", "")).append(", AIPerf ").append(env.getOrDefault("aiperf", "-"))
                .append(", GuideLLM ").append(env.getOrDefault("guidellm", "-")).append(", vLLM ")
                .append(env.getOrDefault("vllm", "-")).append(". Workload: ")
                .append(env.getOrDefault("workload", "?")).append(".\n\n");
        ToolSummary kp = c.tool("kneepoint");
        b.append("| tool | client CPU µs/token | × Kneepoint | method | marginal µs/token (cross-check) | start-up CPU s "
                + "| open-loop µs/token | max sustained rate req/s "
                + "| × Kneepoint | first higher rate not sustained | max rate dispatched ≥ 95 % (lag ignored) "
                + "| max concurrent streams held | × Kneepoint |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (ToolSummary t : c.tools()) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n", t.tool(),
                    f(t.cpuNsPerToken() / 1e3, 1), x(t.cpuNsPerToken(), kp == null ? Double.NaN : kp.cpuNsPerToken()),
                    t.cpuMethod(), f(t.marginalCpuNsPerToken() / 1e3, 1), f(t.startupCpuS(), 1), f(t.openCpuNsPerToken() / 1e3, 1), f(t.maxSustainedRps(), 0),
                    x(t.maxSustainedRps(), kp == null ? Double.NaN : kp.maxSustainedRps()), f(t.firstUnsustainedRps(), 0),
                    f(t.maxDispatchedRps(), 0), f(t.maxStreamsHeld(), 0),
                    x(t.maxStreamsHeld(), kp == null ? Double.NaN : kp.maxStreamsHeld())));
        }
        b.append("\nAgreement at the closed-loop point (longest run; ratio to Kneepoint in brackets; TPOT = AIPerf's and GuideLLM's ITL, vLLM's TPOT):\n\n");
        b.append("| tool | concurrency | requests | TTFT p50 ms | TTFT p99 ms | TPOT p50 ms | output tok/s | req/s |\n");
        b.append("|---|---|---|---|---|---|---|---|\n");
        PeerPoint ref = kp == null ? null : kp.closed();
        for (ToolSummary t : c.tools()) {
            PeerPoint p = t.closed();
            if (p == null) {
                continue;
            }
            b.append(String.format(Locale.ROOT, "| %s | %.0f | %d | %s | %s | %s | %s | %s |%n", t.tool(), p.load(), p.requestsOk(),
                    vr(p.ttftP50Ms(), ref == null ? Double.NaN : ref.ttftP50Ms(), 2),
                    vr(p.ttftP99Ms(), ref == null ? Double.NaN : ref.ttftP99Ms(), 2),
                    vr(p.tpotP50Ms(), ref == null ? Double.NaN : ref.tpotP50Ms(), 3),
                    vr(p.outputTokensPerS(), ref == null ? Double.NaN : ref.outputTokensPerS(), 0),
                    vr(p.requestsPerS(), ref == null ? Double.NaN : ref.requestsPerS(), 1)));
        }
        if (c.tools().stream().anyMatch(t -> !t.open().isEmpty())) {
            b.append("\nOpen loop, constant arrivals (dispatch rate from per-request start times; lag = the tool's own dispatch lag; ")
                    .append("sustained = no failure, dispatch ≥ 95 % of target, lag p99 ≤ ")
                    .append(f(PeerComparison.MAX_LAG_P99_MS, 0)).append(" ms):\n\n");
            b.append("| tool | target req/s | dispatched req/s | achieved / target | completed req/s | lag p50 ms | lag p99 ms | TTFT p50 ms | failed | sustained |\n");
            b.append("|---|---|---|---|---|---|---|---|---|---|\n");
            for (ToolSummary t : c.tools()) {
                for (PeerPoint p : t.open()) {
                    b.append(String.format(Locale.ROOT, "| %s | %.0f | %s | %s | %s | %s | %s | %s | %d | %s |%n", t.tool(), p.load(),
                            f(p.dispatchRps(), 1), f(PeerComparison.ratio(p.dispatchRps(), p.load()), 3), f(p.requestsPerS(), 1),
                            f(p.lagP50Ms(), 3), f(p.lagP99Ms(), 2), f(p.ttftP50Ms(), 2), p.requestsFailed(),
                            p.sustained(PeerComparison.MAX_LAG_P99_MS) ? "yes" : "**no**"));
                }
            }
        }
        if (c.tools().stream().anyMatch(t -> !t.streams().isEmpty())) {
            b.append("\nConcurrent streams (closed loop at each concurrency, 2 × c requests of 40 tokens; the engine steps every ")
                    .append(f(PeerComparison.STREAM_STEP_MS, 0)).append(" ms whatever the batch, so a client that keeps up sees TPOT "
                    + "p50 at that pace; implied concurrency = req/s × (TTFT p50 + 39 × TPOT p50), Little's law; held = all "
                    + "requests completed, none failed, TPOT p50 ≤ 1.1 × step, implied concurrency ≥ "
                    + f(PeerComparison.MIN_IMPLIED_SHARE, 1) + " × c):\n\n");
            b.append("| tool | concurrency | completed | failed | TTFT p50 ms | TPOT p50 ms | req/s | implied concurrency | held |\n");
            b.append("|---|---|---|---|---|---|---|---|---|\n");
            for (ToolSummary t : c.tools()) {
                for (PeerPoint p : t.streams()) {
                    double implied = PeerComparison.impliedConcurrency(p);
                    b.append(String.format(Locale.ROOT, "| %s | %.0f | %d | %d | %s | %s | %s | %s | %s |%n", t.tool(), p.load(),
                            p.requestsOk(), p.requestsFailed(), f(p.ttftP50Ms(), 1), f(p.tpotP50Ms(), 1), f(p.requestsPerS(), 1),
                            f(implied, 0), PeerComparison.held(p, 2 * Math.round(p.load())) ? "yes" : "**no**")); // 2 x c asked
                }
            }
        }
        b.append("\nRuns (CPU = user + sys of the tool's process tree, /usr/bin/time; load phase = the tree's CPU while the "
                + "simulator generated tokens for it, bench/cpu_sampler.py):\n\n");
        b.append("| run | tool | asked | exit | CPU s (user + sys) | wall s | output tokens | load phase: CPU s / tokens / s "
                + "| load avg | error |\n");
        b.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (PeerRun r : runs) {
            LoadPhase lp = r.loadPhase();
            b.append(String.format(Locale.ROOT, "| %s | %s | %s %s | %d | %s (%s + %s) | %s | %d | %s | %s | %s |%n", r.name(), r.tool(),
                    r.kind(), r.load(), r.exitCode(), f(r.cpuS(), 2), f(r.userS(), 2), f(r.sysS(), 2), f(r.wallS(), 1),
                    r.outputTokens(), lp == null ? "-" : f(lp.cpuS(), 2) + " / " + lp.tokens() + " / " + f(lp.seconds(), 1),
                    r.loadAverage(), r.error() == null ? "" : r.error().replace('|', '/')));
        }
        return b.toString();
    }

    /**
     * JSON: {@code env}, {@code tools[]} (the summaries, with ratios to Kneepoint) and {@code runs[]}. A point
     * ({@link PeerPoint}) and a load phase ({@link LoadPhase}) are written as their records, components in order
     * under their snake_case names.
     */
    public static String json(Map<String, String> env, List<PeerRun> runs, PeerComparison c) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = MAPPER.getFactory().createGenerator(w)) {
            g.useDefaultPrettyPrinter();
            g.writeStartObject();
            g.writeObjectField("env", env);
            ToolSummary kp = c.tool("kneepoint");
            g.writeArrayFieldStart("tools");
            for (ToolSummary t : c.tools()) {
                g.writeStartObject();
                g.writeStringField("tool", t.tool());
                num(g, "cpu_ns_per_token", t.cpuNsPerToken());
                g.writeStringField("cpu_method", t.cpuMethod());
                num(g, "marginal_cpu_ns_per_token", t.marginalCpuNsPerToken());
                num(g, "startup_cpu_s", t.startupCpuS());
                num(g, "open_cpu_ns_per_token", t.openCpuNsPerToken());
                num(g, "cpu_per_token_vs_kneepoint", PeerComparison.ratio(t.cpuNsPerToken(), kp == null ? Double.NaN : kp.cpuNsPerToken()));
                num(g, "max_sustained_rps", t.maxSustainedRps());
                num(g, "max_sustained_rps_vs_kneepoint", PeerComparison.ratio(t.maxSustainedRps(), kp == null ? Double.NaN : kp.maxSustainedRps()));
                num(g, "first_unsustained_rps", t.firstUnsustainedRps());
                num(g, "max_dispatched_rps", t.maxDispatchedRps());
                num(g, "max_streams_held", t.maxStreamsHeld());
                num(g, "max_streams_held_vs_kneepoint", PeerComparison.ratio(t.maxStreamsHeld(), kp == null ? Double.NaN : kp.maxStreamsHeld()));
                g.writeObjectField("closed", t.closed());
                g.writeObjectField("open", t.open());
                g.writeObjectField("streams", t.streams());
                g.writeObjectField("errors", t.errors());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("runs");
            for (PeerRun r : runs) {
                g.writeStartObject();
                g.writeStringField("name", r.name());
                g.writeStringField("tool", r.tool());
                g.writeStringField("kind", r.kind());
                g.writeStringField("load", r.load());
                g.writeNumberField("exit_code", r.exitCode());
                num(g, "user_s", r.userS());
                num(g, "sys_s", r.sysS());
                num(g, "wall_s", r.wallS());
                g.writeNumberField("output_tokens", r.outputTokens());
                g.writeStringField("loadavg", r.loadAverage());
                if (r.loadPhase() != null) {
                    g.writeObjectField("load_phase", r.loadPhase());
                }
                g.writeStringField("error", r.error());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w + "\n";
    }

    private static void num(JsonGenerator g, String name, double v) throws IOException {
        g.writeFieldName(name);
        num(g, v);
    }

    /** {@code v} rounded to 6 decimals, or {@code null} when not finite. */
    private static void num(JsonGenerator g, double v) throws IOException {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            g.writeNull();
        } else {
            g.writeNumber(Math.round(v * 1e6) / 1e6);
        }
    }

    static String f(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    /** {@code 2.50×}, or {@code -}. */
    static String x(double v, double ref) {
        double r = PeerComparison.ratio(v, ref);
        return Double.isNaN(r) ? "-" : String.format(Locale.ROOT, "%.2f×", r);
    }

    private static String vr(double v, double ref, int decimals) {
        String r = x(v, ref);
        return f(v, decimals) + (r.equals("-") ? "" : " (" + r + ")");
    }
}
