package dev.kneepoint.io;

import dev.kneepoint.metrics.ClientHealth;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kneepoint.metrics.BackgroundResult;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.TokenSource;
import dev.kneepoint.metrics.WindowPlan;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * A long background stream written by a {@link RunDirectory} as a live run writes it, tracked live too: background
 * records (16 token events 40 ms apart, ~0.7 s each) under 20 open-loop steps of 11 s (1 s warm-up, 8 s window,
 * 1.5 s drain, 0.5 s pause), written in the order they end. For {@link RunLoaderBackgroundTest} and
 * {@link BackgroundReadBackCost}; {@link #crashedCopy} makes the same run as if the process had died before its
 * last step finished.
 */
final class BackgroundSoak {
    private static final long MS = 1_000_000L;

    private BackgroundSoak() {}

    /** The run directory and the background result the live run reported. */
    record Written(Path dir, BackgroundResult live) {}

    /**
     * Writes the soak run under {@code tmp} in its own frame, so that nothing of the writing is reachable while it is
     * read: {@code records} background records, one every 1.1 ms, under 20 open-loop steps.
     */
    static Written write(Path tmp, int records) {
        final long gap = 1_100_000L;
        final int steps = 20;
        SplittableRandom rnd = new SplittableRandom(11);
        try (RunDirectory run = RunDirectory.builder(tmp).slug("soak")
                .config(Map.of("background", Map.of("tag", "bg", "rate_rps", 900.0, "arrival", "poisson")))
                .slo(Slo.none()).open()) {
            run.aggregator().trackBackground("bg", 900, "poisson");
            List<long[]> signals = new ArrayList<>(); // {at, kind, step}
            long t = 50 * MS;
            for (int k = 0; k < steps; k++) {
                signals.add(new long[] {t, 0, k});
                long plannedEnd = t + 5 * MS + 9_000 * MS;
                signals.add(new long[] {plannedEnd + MS, 1, k});
                signals.add(new long[] {plannedEnd + 1_500 * MS, 2, k});
                t = plannedEnd + 2_000 * MS;
            }
            PriorityQueue<RequestRecord> inFlight = new PriorityQueue<>((a, b) -> Long.compare(a.timing().endNanos(),
                    b.timing().endNanos()));
            int next = 0;
            int issued = 0;
            while (next < signals.size() || issued < records || !inFlight.isEmpty()) {
                long arrival = issued < records ? issued * gap : Long.MAX_VALUE;
                long end = inFlight.isEmpty() ? Long.MAX_VALUE : inFlight.peek().timing().endNanos();
                long signal = next < signals.size() ? signals.get(next)[0] : Long.MAX_VALUE;
                if (arrival <= end && arrival <= signal) {
                    inFlight.add(record(rnd, issued++, "bg", "bg", arrival, 16, 40 * MS));
                } else if (end <= signal) {
                    run.requestFinished(inFlight.poll());
                } else {
                    long[] s = signals.get(next++);
                    int k = (int) s[2];
                    StepInfo info = new StepInfo(k, "s" + k, StepInfo.OPEN, -1, 20, "poisson", -1, "", 0, -1, -1);
                    long stepStart = signals.get(3 * k)[0] + 5 * MS;
                    long warmupEnd = stepStart + 1_000 * MS;
                    long plannedEnd = warmupEnd + 8_000 * MS;
                    switch ((int) s[1]) {
                        case 0 -> run.stepStarted(info, stepStart, new WindowPlan(warmupEnd, plannedEnd));
                        case 1 -> run.stepLoadStopping(info);
                        default -> run.stepFinished(info, new StepWindow(stepStart, warmupEnd, plannedEnd, true), ClientHealth.NOT_MEASURED);
                    }
                }
            }
            return new Written(run.path(), run.result(true).background().orElseThrow());
        }
    }

    /** An OK request intended at {@code intended} with {@code events} token events {@code every} ns apart. */
    private static RequestRecord record(SplittableRandom rnd, long id, String step, String tag, long intended,
                                        int events, long every) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = step;
        b.tag = tag;
        b.intendedNanos = intended;
        b.dispatchNanos = intended + 50_000;
        b.firstByteNanos = b.dispatchNanos + 20 * MS;
        long[] t = new long[events];
        int[] k = new int[events];
        long at = b.firstByteNanos;
        for (int i = 0; i < events; i++) {
            at += every + rnd.nextLong(0, 2 * MS);
            t[i] = at;
            k[i] = 4;
        }
        b.chunkNanos = t;
        b.chunkTokens = k;
        b.firstTokenNanos = t[0];
        b.lastTokenNanos = t[events - 1];
        b.endNanos = t[events - 1] + MS;
        b.outputTokens = 4 * events;
        b.promptTokens = 200;
        b.requestedPromptTokens = 200;
        b.tokenSource = TokenSource.SERVER_USAGE;
        b.finishReason = "stop";
        return b.build();
    }

    /**
     * A copy of the run in {@code complete} as a crash before its last step finished leaves it: {@code steps.jsonl}
     * without the last {@code step_finished} line, no {@code summary.json}, the manifest saying not complete. Its
     * last step's window is then learnt at the end of {@code requests.jsonl}, so its background takes the loader's
     * second pass.
     */
    static Path crashedCopy(Path complete, Path to) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(complete)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        Files.deleteIfExists(to.resolve("summary.json"));
        List<String> steps = new ArrayList<>(Files.readAllLines(to.resolve("steps.jsonl")));
        for (int i = steps.size() - 1; i >= 0; i--) {
            if (steps.get(i).contains("\"step_finished\"")) {
                steps.remove(i);
                break;
            }
        }
        Files.write(to.resolve("steps.jsonl"), steps);
        ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(to.resolve("manifest.json").toFile());
        manifest.put("complete", false);
        Json.MAPPER.writeValue(to.resolve("manifest.json").toFile(), manifest);
        return to;
    }
}
