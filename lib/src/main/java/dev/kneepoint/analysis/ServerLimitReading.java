package dev.kneepoint.analysis;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.telemetry.TelemetryData;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which server limit the top of the ladder ran into, from the server's own gauges in each step's window
 * (docs/TELEMETRY.md names them): requests waiting with the KV cache full, or preempted, are held by <em>KV
 * memory</em>; requests waiting with KV cache to spare are held by the <em>batch slots</em> (a server queues
 * for a lasting while only when its batch is capped; a per-step prefill budget delays requests by a step or two,
 * which averages well below one waiting request). No queue at the top step means queueing is not what slowed
 * it.
 */
final class ServerLimitReading {
    /** A queue: at least this many requests waiting, on average over the step's window. */
    static final double QUEUED = 1.0;
    /** KV cache "full": its usage reached this fraction in the window (or any preemption happened). */
    static final double KV_FULL = 0.95;

    private static final String WAITING = "server:waiting_mean";
    private static final String RUNNING = "server:running_max";
    private static final String KV = "server:kv_cache_usage_max";
    private static final String PREEMPTIONS = "server:preemptions_total_per_s";

    private ServerLimitReading() {}

    static Reading of(LoadCurve l, List<Integer> data, TelemetryData telemetry) {
        if (telemetry.isEmpty()) {
            return none("No telemetry in this analysis: the server's side cannot tell batch slots from KV cache.",
                    "give the run's telemetry (KneeOptions.builder().telemetry(RunTables.load(dir).telemetry())); "
                            + "the run reports do");
        }
        Map<String, double[]> m = TelemetryTables.perStep(l.steps(), telemetry);
        double[] waiting = m.get(WAITING);
        if (waiting == null) {
            List<String> server = telemetry.keys().stream().filter(k -> k.startsWith("server:")).toList();
            return none("The server exposes no queue gauge (requests waiting): cannot tell which limit it hit.",
                    server.isEmpty() ? "no server series in the telemetry (its /metrics was not scraped or absent)"
                            : "server series without a waiting gauge: " + String.join(", ", server.subList(0,
                                    Math.min(8, server.size()))));
        }
        List<Integer> judged = new ArrayList<>();
        for (int i : data) {
            if (!Double.isNaN(waiting[i])) {
                judged.add(i);
            }
        }
        if (judged.isEmpty()) {
            return none("No server samples inside any step's window.",
                    "scrape the server more often than once a step (--telemetry-interval)");
        }
        int top = judged.get(judged.size() - 1);
        int below = judged.size() > 1 ? judged.get(judged.size() - 2) : -1;
        double[] running = m.getOrDefault(RUNNING, nan(l.size()));
        double[] kv = m.getOrDefault(KV, nan(l.size()));
        double[] pre = m.getOrDefault(PREEMPTIONS, nan(l.size()));
        StringBuilder ev = new StringBuilder("server gauges per step (waiting mean, running max, kv cache max, "
                + "preemptions/s):");
        for (int i : judged) {
            ev.append(' ').append(l.label(i)).append(' ').append(Format.num(waiting[i])).append(", ")
                    .append(Format.num(running[i])).append(", ").append(Format.num(kv[i])).append(", ")
                    .append(Format.num(pre[i])).append(';');
        }
        ev.setLength(ev.length() - 1);
        ev.append(". A queue means waiting >= ").append(Format.num(QUEUED)).append("; KV full means usage >= ")
                .append(Format.num(KV_FULL)).append(" or any preemption.");
        String at = l.label(top);
        if (waiting[top] < QUEUED) {
            return new Reading(Kind.SERVER_LIMIT, Status.DOES_NOT_APPLY,
                    "The server queued no requests even at " + at + " (waiting " + Format.num(waiting[top])
                            + " on average): its slowdown is not admission; each step did more work (bigger "
                            + "batches, longer contexts).", ev.toString());
        }
        String queue = "requests wait at " + at + " (" + Format.num(waiting[top]) + " on average)";
        if (kv[top] >= KV_FULL || pre[top] > 0) {
            return new Reading(Kind.SERVER_LIMIT, Status.APPLIES,
                    "KV-cache memory is the server's limit: " + queue + " with the KV cache "
                            + (Double.isNaN(kv[top]) ? "preempting" : "at up to " + Format.pct(kv[top]))
                            + (pre[top] > 0 ? " and " + Format.num(pre[top]) + " preemptions/s" : "")
                            + ", the batch at " + Format.num(running[top]) + ". More KV memory "
                            + "(--gpu-memory-utilization, a quantized KV cache, tensor parallelism), shorter contexts "
                            + "(--max-model-len) or fewer users.", ev.toString());
        }
        if (Double.isNaN(kv[top]) && Double.isNaN(pre[top])) {
            return new Reading(Kind.SERVER_LIMIT, Status.APPLIES,
                    "The server queues requests: " + queue + ", the batch at " + Format.num(running[top])
                            + "; it exposes no KV-cache gauge, so batch slots and KV memory cannot be told apart.",
                    ev.toString());
        }
        return new Reading(Kind.SERVER_LIMIT, Status.APPLIES,
                "Batch slots are the server's limit: " + queue + " while the batch holds at most "
                        + Format.num(running[top]) + (below >= 0 ? " (" + Format.num(running[below]) + " at "
                        + l.label(below) + ")" : "") + " with the KV cache at most " + Format.pct(kv[top])
                        + ". More slots (vLLM --max-num-seqs, llama.cpp --parallel), paid for with slower steps (ITL).",
                ev.toString());
    }

    private static Reading none(String finding, String evidence) {
        return new Reading(Kind.SERVER_LIMIT, Status.INSUFFICIENT_DATA, finding, evidence);
    }

    private static double[] nan(int n) {
        double[] a = new double[n];
        java.util.Arrays.fill(a, Double.NaN);
        return a;
    }
}
