package dev.kneepoint.io;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.TokenSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A generated run directory for the loader's equivalence tests: three closed-loop steps and an open-loop
 * one, a background stream (tag {@code bg}, outside every step), warm-up, every outcome kind (OK, HTTP 503,
 * idle timeout, stream error, cancelled, dropped, empty), non-ASCII and escaped text, and 1-40 chunks per
 * request. {@link #write} returns the complete run and a crashed copy: its last step never finished, it has
 * malformed lines and a truncated last line.
 */
public final class SyntheticRun {
    private SyntheticRun() {}

    /** The complete run and its crashed copy. */
    public record Dirs(Path complete, Path crashed) {}

    public static Dirs write(Path parent, int requests) throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        Slo slo = Slo.builder().ttftMs(200).e2eMs(1500).build();
        Map<String, Object> config = Map.of("background", Map.of("tag", "bg", "rate_rps", 2.0, "arrival", "poisson"));
        String[] labels = {"c=1", "c=8", "c=64", "rate=50"};
        long stepNanos = 20_000_000_000L;
        Path crashed = parent.resolve("crashed");
        Path complete;
        try (RunDirectory run = RunDirectory.builder(parent).slug("synthetic").config(config).slo(slo).open()) {
            complete = run.path();
            long id = 0;
            for (int s = 0; s < labels.length; s++) {
                boolean open = labels[s].startsWith("rate");
                StepInfo info = new StepInfo(s, labels[s], open ? StepInfo.OPEN : StepInfo.CLOSED,
                        open ? -1 : Integer.parseInt(labels[s].substring(2)), open ? 50 : Double.NaN,
                        open ? "poisson" : "", -1, "", stepNanos / 20, stepNanos, -1);
                long start = s * (stepNanos + 1_000_000_000L);
                run.stepStarted(info, start, null);
                int count = requests / labels.length;
                for (int j = 0; j < count; j++, id++) {
                    long intended = start + (long) ((double) j / count * (stepNanos - 2_000_000_000L));
                    run.requestFinished(record(rnd, id, labels[s], s, intended, intended < start + stepNanos / 20));
                    if (j % 50 == 0) {
                        run.requestFinished(record(rnd, 1_000_000 + id, "background", 0, intended, false, "bg"));
                    }
                }
                if (s == labels.length - 1) {
                    run.flush();
                    copy(complete, crashed); // the process "dies" before the last step finishes
                }
                run.stepFinished(info, new StepWindow(start, start + stepNanos / 20, start + stepNanos, true), ClientHealth.NOT_MEASURED);
            }
        }
        Path jsonl = crashed.resolve("requests.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(jsonl));
        lines.add(7, "{\"id\": 99, \"step\": \"c=1\", \"outcome\": \"NOT_AN_OUTCOME\", \"token_source\": \"events\"}");
        lines.add(lines.size() / 2, "not json at all");
        lines.add(lines.size() / 3, "");
        Files.write(jsonl, lines);
        Files.writeString(jsonl, lines.get(20).substring(0, 90), StandardOpenOption.APPEND);
        return new Dirs(complete, crashed);
    }

    private static void copy(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : files.toList()) {
                Files.copy(f, to.resolve(f.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static RequestRecord record(SplittableRandom rnd, long id, String step, int s, long intended,
                                        boolean warmup) {
        return record(rnd, id, step, s, intended, warmup, rnd.nextBoolean() ? "chat" : "résumé");
    }

    private static RequestRecord record(SplittableRandom rnd, long id, String step, int s, long intended,
                                        boolean warmup, String tag) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = step;
        b.tag = tag;
        b.warmup = warmup;
        b.intendedNanos = intended;
        b.dispatchNanos = intended + rnd.nextInt(5_000_000) * (long) (s + 1);
        b.requestedPromptTokens = 100 + rnd.nextInt(900);
        b.promptTokens = rnd.nextInt(20) == 0 ? -1 : b.requestedPromptTokens + 3;
        b.requestedOutputTokens = rnd.nextBoolean() ? -1 : 64;
        b.tokenSource = rnd.nextInt(4) == 0 ? TokenSource.EVENTS : TokenSource.SERVER_USAGE;
        int draw = rnd.nextInt(100);
        if (draw < 3) {
            b.outcome = new Outcome.HttpError(503, draw == 0 ? "queue \"full\"\nretry" : "Service Unavailable");
            b.firstByteNanos = b.dispatchNanos + 2_000_000;
            b.endNanos = b.firstByteNanos + 100_000;
            return b.build();
        }
        if (draw == 3) {
            b.outcome = Outcome.DROPPED;
            b.dispatchNanos = RequestRecord.ABSENT;
            b.endNanos = intended;
            return b.build();
        }
        int chunks = 1 + rnd.nextInt(40);
        int delivered = draw < 8 ? 1 + rnd.nextInt(chunks) : chunks;
        long[] t = new long[delivered];
        int[] k = new int[delivered];
        long at = b.dispatchNanos + 20_000_000L * (s + 1) + rnd.nextInt(30_000_000);
        int tokens = 0;
        for (int q = 0; q < delivered; q++) {
            at += q == 0 ? 0 : rnd.nextInt(12_000_000);
            t[q] = at;
            k[q] = rnd.nextInt(6) == 0 ? rnd.nextInt(4) : 1; // zero-token chunks too
            tokens += k[q];
        }
        b.chunkNanos = t;
        b.chunkTokens = k;
        b.firstByteNanos = t[0] - 500_000;
        b.firstTokenNanos = t[0];
        b.lastTokenNanos = t[delivered - 1];
        b.outputTokens = tokens;
        b.clientCountedTokens = rnd.nextInt(10) == 0 ? tokens + 1 : tokens;
        b.endNanos = b.lastTokenNanos + 200_000;
        b.outcome = switch (draw) {
            case 4, 5 -> new Outcome.Timeout(Outcome.TimeoutKind.IDLE);
            case 6 -> new Outcome.StreamError("reset mid-stream");
            case 7 -> Outcome.CANCELLED;
            default -> Outcome.OK;
        };
        b.finishReason = draw >= 8 ? (rnd.nextInt(5) == 0 ? "length" : "stop") : null;
        return b.build();
    }
}
