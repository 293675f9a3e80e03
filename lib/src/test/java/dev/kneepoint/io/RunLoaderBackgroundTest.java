package dev.kneepoint.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.BackgroundResult;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a run back measures its background as the records stream past ({@code BackgroundReadBack}), never
 * gathering them: the result equals measuring every background record at once ({@link BackgroundResult#measure}, the
 * loader's former path), and a long background stream is not kept while the run is read.
 */
class RunLoaderBackgroundTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path tmp;

    @Test
    void loadedBackgroundEqualsTheWholeListMeasure() throws Exception {
        SyntheticRun.Dirs dirs = SyntheticRun.write(tmp, 4_000);
        for (Path dir : List.of(dirs.complete(), dirs.crashed())) { // crashed: its last step's window is learnt last
            List<RequestRecord> background = new ArrayList<>();
            StreamedRun run = RunLoader.stream(dir, r -> {
                if (r.tag().equals("bg")) {
                    background.add(r);
                }
            });
            RunResult result = run.result();
            BackgroundResult loaded = result.background().orElseThrow();
            BackgroundResult expected = BackgroundResult.measure("bg", 2.0, "poisson", List.of(),
                    Slo.builder().ttftMs(200).e2eMs(1500).build(), background, result.steps(),
                    result.steps().getFirst().window().stepStartNanos(), run.complete());
            assertThat(background).hasSize(80); // one every 50th foreground request
            assertThat(loaded).as(dir.getFileName().toString()).isEqualTo(expected); // every double bit for bit
            assertThat(loaded.steps()).hasSize(4);
            assertThat(loaded.step("c=8").counts().requestsOk() + loaded.step("c=8").counts().requestsFailed())
                    .isPositive();
        }
    }

    /**
     * A run that crashed in its last step reads its background a second time only from a resume point (the first
     * pass leaves one every 1 MiB of {@code requests.jsonl}) before which every background record ends before the
     * crashed step's window starts: the records before it are counted, not read again, and the result still equals
     * the whole-list measure.
     */
    @Test
    void aCrashedRunsSecondPassReadsOnlyTheCrashedStepsPart() throws Exception {
        SyntheticRun.Dirs dirs = SyntheticRun.write(tmp, 8_000);
        Path dir = dirs.crashed();
        List<Long> passes = new ArrayList<>(); // the byte offset each pass starts at
        List<RequestRecord> background = new ArrayList<>();
        StreamedRun run = RunLoader.stream(dir, r -> {
            if (r.tag().equals("bg")) {
                background.add(r);
            }
        }, (file, from, out, problems) -> {
            passes.add(from);
            return RequestLines.read(file, from, out, problems);
        });
        RunResult result = run.result();
        BackgroundResult expected = BackgroundResult.measure("bg", 2.0, "poisson", List.of(),
                Slo.builder().ttftMs(200).e2eMs(1500).build(), background, result.steps(),
                result.steps().getFirst().window().stepStartNanos(), run.complete());
        assertThat(result.background().orElseThrow()).isEqualTo(expected); // every double bit for bit
        assertThat(result.background().orElseThrow().step("rate=50").counts().requestsOk()).isPositive();
        long size = java.nio.file.Files.size(dir.resolve("requests.jsonl"));
        assertThat(passes).hasSize(2);
        assertThat(passes.getFirst()).isZero();
        // The crashed step holds the last quarter of the foreground requests (and their share of the background):
        // the second pass starts at most 1 MiB + one background record's spacing (50 lines) before its first
        // lines, so it reads less than half the file; it starts after the first pass's first resume point (0).
        assertThat(passes.getLast()).as("second pass from, of %d bytes", size).isPositive().isGreaterThan(size / 2);
    }

    /**
     * 200,000 background records (16 token events 40 ms apart, ~0.7 s each, one every 1.1 ms) under 20 open-loop
     * steps of 11 s, written by a {@link RunDirectory} as a live run writes them ({@link BackgroundSoak}) (in the order they end), tracked live
     * too. Read back on one thread, the heap after a full GC at 9 points of the pass stays small, no record handed
     * 3 s of run time before such a point is still referenced, and the result equals the live one.
     */
    @Test
    void readingBackALongBackgroundStreamKeepsNoRecord() throws Exception {
        final int records = 200_000;
        BackgroundSoak.Written w = BackgroundSoak.write(tmp, records);
        Path dir = w.dir();
        BackgroundResult live = w.live();
        assertThat(live.requests()).isEqualTo(records);

        long baseline = dev.kneepoint.Heap.usedAfterGc();
        List<WeakReference<RequestRecord>> watched = new ArrayList<>();
        List<Long> watchedAt = new ArrayList<>();
        long[] seen = {0, 0}; // background records read, the last one's end
        long[] worst = {0, 0}; // largest heap above the baseline at a check point; records still referenced
        List<Long> heap = new ArrayList<>(); // heap above the baseline at each check point
        int[] checks = {0};
        StreamedRun read = RunLoader.streamOnOneThread(dir, r -> {
            if (!r.tag().equals("bg")) {
                return;
            }
            seen[0]++;
            seen[1] = r.timing().endNanos();
            if (seen[0] % 100 == 0) {
                watched.add(new WeakReference<>(r));
                watchedAt.add(r.timing().endNanos());
            }
            if (seen[0] % 20_000 == 10_000 && seen[0] > 20_000) {
                try {
                    heap.add(dev.kneepoint.Heap.usedAfterGc() - baseline);
                    worst[0] = Math.max(worst[0], heap.getLast());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
                for (int i = 0; i < watched.size(); i++) {
                    if (watchedAt.get(i) < seen[1] - 3_000 * MS && watched.get(i).get() != null) {
                        worst[1]++;
                    }
                }
                checks[0]++;
            }
        });
        BackgroundResult loaded = read.result().background().orElseThrow();
        assertThat(checks[0]).isEqualTo(9);
        assertThat(watched).hasSize(records / 100);
        // Nothing refers to a record handed 3 s before a check point: between steps (a drain and a pause, 2 s) the
        // aggregation holds the records that may still touch the next step, never longer.
        assertThat(worst[1]).as("records still referenced").isZero();
        // Heap after a full GC, above the one before the pass (7.7 MB measured): the background's aggregators of the
        // last two steps and its total as they are (latency histograms of ~0.7 s requests, ~1.2 MB each), the
        // earlier steps' compacted (~25 kB each), the 20 foreground step aggregators (no foreground records here)
        // and the reader's buffers. Bound: twice that. Gathered whole, as the loader did, the records take ~400 B
        // each (16 token events): 78.7 MB at the last check point, and growing with the run.
        assertThat(worst[0]).as("bytes retained").isLessThan(16_000_000L);
        // It does not grow with the records read: from the first check point (30,000 records) to the last (190,000)
        // at most the 16 more compacted steps (~0.4 MB) and GC noise; the gathered records would add ~64 MB.
        assertThat(heap.getLast() - heap.getFirst()).as("growth over 160,000 records").isLessThan(4_000_000L);
        // The same numbers as the live run reported, every double bit for bit.
        assertThat(loaded).isEqualTo(live);
    }
}
