package dev.kneepoint.cli.peers;

import dev.kneepoint.io.PeerPoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The figures of each tool, derived from its runs, and their ratios to Kneepoint's.
 *
 * <ul>
 *   <li><b>Client CPU per token</b>: preferably the <em>load-phase</em> cost of the longest closed-loop run
 *       ({@link LoadPhase}: the tool's CPU while the server generated tokens for it, sampled beside the
 *       simulator's token counter). Without samples, with two closed-loop runs of different lengths, the <em>marginal</em> cost
 *       (CPU of the long run − CPU of the short run) / (tokens of the long run − tokens of the short run), so
 *       interpreter or JVM start-up, dataset preparation and report writing cancel out; the fixed cost
 *       left is reported as start-up CPU. With one run, CPU / tokens (start-up included).</li>
 *   <li><b>Max sustained rate</b>: the highest open-loop target rate the tool kept up with
 *       ({@link PeerPoint#sustained(double)} with {@value #MAX_LAG_P99_MS} ms). A lower rate may have failed the
 *       lag test (a cold first step, a burst of load from other processes): the table shows every rate.
 *       <b>Max dispatched rate</b> drops the lag test: the highest rate dispatched at ≥ 95 % of target
 *       without failures.</li>
 *   <li><b>Open-loop CPU per token</b>: the load-phase CPU of the open-loop runs / their tokens, or without
 *       samples (CPU of the open-loop runs − the start-up CPU above, once per invocation) / their tokens. Not comparable between tools that fall behind
 *       (they read several events per syscall and pay less per token), shown for the record.</li>
 *   <li><b>Agreement</b>: the closed-loop point of the longest run, each figure divided by Kneepoint's.</li>
 *   <li><b>Concurrent streams held</b>: the highest concurrency of the streams runs (an engine stepping every
 *       {@value #STREAM_STEP_MS} ms whatever the batch) at which every request completed, none failed, TPOT
 *       p50 stayed within 10 % of the engine's step and the tool kept at least {@value #MIN_IMPLIED_SHARE} of the
 *       streams in flight: the client, not the server, would otherwise set the pace.</li>
 * </ul>
 *
 * @param tools one summary per tool, Kneepoint first, then in the order the runs name them
 */
public record PeerComparison(List<ToolSummary> tools) {
    /** Dispatch lag p99 above which a rate counts as not sustained, ms (Kneepoint's own late-dispatch rule). */
    public static final double MAX_LAG_P99_MS = 10;
    /** The streams simulator's engine step, ms ({@code bench/peers.sh} STREAM_STEP_MS). */
    public static final double STREAM_STEP_MS = 100;

    public PeerComparison {
        tools = List.copyOf(tools);
    }

    /**
     * What one tool measured.
     *
     * @param tool tool name
     * @param cpuNsPerToken client CPU per output token, ns
     * @param cpuMethod {@code load phase} (samples), {@code marginal} (two runs) or {@code total} (one run, start-up
     *        included), or {@code none}
     * @param startupCpuS fixed CPU per invocation implied by the marginal fit, s (NaN with one run)
     * @param openCpuNsPerToken open-loop CPU per token after start-up, ns (NaN without samples or a marginal fit, or
     *        without open runs)
     * @param closed the closed-loop point of the tool's longest closed run, or null
     * @param open the open-loop points, by target rate
     * @param maxSustainedRps highest target rate sustained (NaN when none was, or none was run)
     * @param maxDispatchedRps highest target rate dispatched at ≥ 95 % without failures, lag ignored (NaN when none)
     * @param firstUnsustainedRps lowest target rate above {@code maxSustainedRps} (or of all, when none was
     *        sustained) that was not sustained (NaN when there is none)
     * @param errors errors reading the tool's outputs, by run name
     * @param marginalCpuNsPerToken the marginal closed-loop cost, ns (NaN with fewer than two closed runs), kept
     *        beside the load-phase figure as a cross-check
     * @param streams the points of the concurrent-streams runs, by concurrency
     * @param maxStreamsHeld the highest concurrency held ({@link #held}); NaN when none was, or none was run
     */
    public record ToolSummary(String tool, double cpuNsPerToken, String cpuMethod, double startupCpuS,
            double openCpuNsPerToken, PeerPoint closed, List<PeerPoint> open, double maxSustainedRps, double maxDispatchedRps,
            double firstUnsustainedRps,
            Map<String, String> errors, double marginalCpuNsPerToken, List<PeerPoint> streams, double maxStreamsHeld) {
        public ToolSummary {
            open = List.copyOf(open);
            streams = List.copyOf(streams);
            errors = Map.copyOf(errors);
        }
    }

    /** Summarises {@code runs} per tool. */
    public static PeerComparison of(List<PeerRun> runs) {
        Map<String, List<PeerRun>> byTool = new LinkedHashMap<>();
        byTool.put("kneepoint", new ArrayList<>());
        for (PeerRun r : runs) {
            byTool.computeIfAbsent(r.tool(), k -> new ArrayList<>()).add(r);
        }
        List<ToolSummary> out = new ArrayList<>();
        byTool.forEach((tool, list) -> {
            if (!list.isEmpty()) {
                out.add(summarise(tool, list));
            }
        });
        return new PeerComparison(out);
    }

    static ToolSummary summarise(String tool, List<PeerRun> runs) {
        Map<String, String> errors = new LinkedHashMap<>();
        for (PeerRun r : runs) {
            if (r.error() != null) {
                errors.put(r.name(), r.error());
            } else if (r.exitCode() != 0 && r.points().isEmpty()) {
                errors.put(r.name(), "exit status " + r.exitCode());
            }
        }
        List<PeerRun> closed = runs.stream()
                .filter(r -> r.kind().equals("closed") && r.error() == null && r.outputTokens() > 0 && !Double.isNaN(r.cpuS()))
                .sorted(Comparator.comparingLong(PeerRun::outputTokens)).toList();
        double cpuNs = Double.NaN;
        double marginalNs = Double.NaN;
        double startup = Double.NaN;
        String method = "none";
        if (closed.size() >= 2) {
            PeerRun small = closed.get(0);
            PeerRun large = closed.get(closed.size() - 1);
            long dTokens = large.outputTokens() - small.outputTokens();
            if (dTokens > 0) {
                double perToken = (large.cpuS() - small.cpuS()) / dTokens;
                cpuNs = perToken * 1e9;
                marginalNs = cpuNs;
                startup = small.cpuS() - perToken * small.outputTokens();
                method = "marginal";
            }
        } else if (closed.size() == 1) {
            cpuNs = closed.get(0).cpuS() * 1e9 / closed.get(0).outputTokens();
            method = "total";
        }
        LoadPhase phase = closed.isEmpty() ? null : closed.get(closed.size() - 1).loadPhase();
        if (phase != null && !Double.isNaN(phase.cpuNsPerToken())) {
            cpuNs = phase.cpuNsPerToken();
            method = "load phase";
        }
        PeerPoint closedPoint = closed.isEmpty() ? null : closed.get(closed.size() - 1).points().stream()
                .filter(p -> p.mode().equals("closed")).findFirst().orElse(null);
        List<PeerPoint> open = runs.stream().filter(r -> r.kind().equals("open")).flatMap(r -> r.points().stream())
                .filter(p -> p.mode().equals("open")).sorted(Comparator.comparingDouble(PeerPoint::load)).toList();
        double max = Double.NaN;
        double maxDispatched = Double.NaN;
        for (PeerPoint p : open) {
            if (p.sustained(MAX_LAG_P99_MS)) {
                max = p.load();
            }
            if (p.sustained(Double.POSITIVE_INFINITY)) {
                maxDispatched = p.load();
            }
        }
        double openNs = openLoadPhaseNs(runs);
        if (Double.isNaN(openNs)) {
            double openCpu = 0;
            long openTokens = 0;
            for (PeerRun r : runs) {
                if (r.kind().equals("open") && r.error() == null && !Double.isNaN(r.cpuS())) {
                    openCpu += r.cpuS() - startup;
                    openTokens += r.outputTokens();
                }
            }
            openNs = Double.isNaN(startup) || openTokens == 0 ? Double.NaN : openCpu * 1e9 / openTokens;
        }
        double floor = Double.isNaN(max) ? Double.NEGATIVE_INFINITY : max;
        double firstFail = open.stream().filter(p -> p.load() > floor && !p.sustained(MAX_LAG_P99_MS))
                .mapToDouble(PeerPoint::load).findFirst().orElse(Double.NaN);
        List<PeerPoint> streams = new ArrayList<>();
        double maxHeld = Double.NaN;
        for (PeerRun r : runs) {
            if (r.kind().equals("streams") && r.error() == null) {
                long asked = requestsAsked(r.load());
                for (PeerPoint p : r.points()) {
                    streams.add(p);
                    if (held(p, asked) && (Double.isNaN(maxHeld) || p.load() > maxHeld)) {
                        maxHeld = p.load();
                    }
                }
            }
        }
        streams.sort(Comparator.comparingDouble(PeerPoint::load));
        return new ToolSummary(tool, cpuNs, method, startup, openNs, closedPoint, open, max, maxDispatched, firstFail, errors,
                marginalNs, streams, maxHeld);
    }

    /**
     * Whether a tool held a streams level: every one of the {@code asked} requests completed (when known), none
     * failed, TPOT p50 is within 10 % of the engine's {@value #STREAM_STEP_MS} ms step, and the streams it kept in
     * flight ({@link #impliedConcurrency}) reach {@value #MIN_IMPLIED_SHARE} of the level.
     */
    static boolean held(PeerPoint p, long asked) {
        return p.requestsFailed() == 0 && p.requestsOk() > 0 && (asked < 0 || p.requestsOk() >= asked)
                && !Double.isNaN(p.tpotP50Ms()) && p.tpotP50Ms() <= 1.1 * STREAM_STEP_MS
                && impliedConcurrency(p) >= MIN_IMPLIED_SHARE * p.load();
    }

    /**
     * Share of the asked concurrency a tool must have kept in flight, by Little's law on its own figures: with
     * two rounds of requests, the ramp up and the drain keep even a perfect client below 1 (0.88–0.94 measured for
     * Kneepoint at 1,000–4,000 streams); a client that cannot open or serve the connections falls far below.
     */
    public static final double MIN_IMPLIED_SHARE = 0.8;

    /** Streams in flight by Little's law: req/s × (TTFT p50 + 39 TPOT p50), the 40-token answers of the streams runs. */
    public static double impliedConcurrency(PeerPoint p) {
        return p.requestsPerS() * (p.ttftP50Ms() + 39 * p.tpotP50Ms()) / 1e3;
    }

    /** The request count of a {@code c:n} load, or -1. */
    static long requestsAsked(String load) {
        int colon = load.indexOf(':');
        try {
            return colon < 0 ? -1 : Long.parseLong(load.substring(colon + 1).strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Load-phase CPU of every open-loop run / their tokens, ns; NaN unless every open run has samples. */
    private static double openLoadPhaseNs(List<PeerRun> runs) {
        double cpu = 0;
        long tokens = 0;
        for (PeerRun r : runs) {
            if (r.kind().equals("open") && r.error() == null) {
                if (r.loadPhase() == null) {
                    return Double.NaN;
                }
                cpu += r.loadPhase().cpuS();
                tokens += r.loadPhase().tokens();
            }
        }
        return tokens < LoadPhase.MIN_TOKENS ? Double.NaN : cpu * 1e9 / tokens;
    }

    /** The summary of {@code tool}, or null. */
    public ToolSummary tool(String tool) {
        return tools.stream().filter(t -> t.tool().equals(tool)).findFirst().orElse(null);
    }

    /** {@code value / reference}; NaN when either is NaN or the reference is 0. */
    public static double ratio(double value, double reference) {
        return Double.isNaN(value) || Double.isNaN(reference) || reference == 0 ? Double.NaN : value / reference;
    }
}
