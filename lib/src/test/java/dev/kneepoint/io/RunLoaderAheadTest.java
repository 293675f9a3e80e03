package dev.kneepoint.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.analysis.SummaryText;
import dev.kneepoint.metrics.RequestRecord;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two-thread loader (parsing ahead on its own thread) against the one-thread reference. */
class RunLoaderAheadTest {
    @TempDir
    static Path tmp;
    static SyntheticRun.Dirs dirs;

    @BeforeAll
    static void write() throws Exception {
        dirs = SyntheticRun.write(tmp, 20_000);
    }

    private record Read(StreamedRun run, List<RequestRecord> records) {}

    private static Read read(Path dir, BiFunction<Path, Consumer<RequestRecord>, StreamedRun> loader) {
        List<RequestRecord> records = new ArrayList<>();
        return new Read(loader.apply(dir, records::add), records);
    }

    @Test
    void theGeneratedRunsHaveWhatTheEquivalenceNeeds() throws Exception {
        // Larger than the auto threshold, so RunLoader.stream itself takes the two-thread path.
        assertThat(Files.size(dirs.complete().resolve("requests.jsonl"))).isGreaterThan(RequestLines.AHEAD_MIN_BYTES);
        Read crashed = read(dirs.crashed(), RunLoader::streamOnOneThread);
        assertThat(crashed.run().complete()).isFalse();
        assertThat(crashed.run().truncatedLastLine()).isTrue();
        assertThat(crashed.run().problems()).hasSize(2);
        assertThat(crashed.run().result().steps()).hasSize(4);
        assertThat(crashed.run().result().steps().get(3).window().completed()).isFalse();
        assertThat(crashed.run().result().background()).isPresent();
        Read complete = read(dirs.complete(), RunLoader::streamOnOneThread);
        assertThat(complete.run().complete()).isTrue();
        assertThat(complete.records()).hasSize(20_000 + 400); // 400 background requests
        assertThat(complete.run().result().steps()).allSatisfy(s -> {
            assertThat(s.counts().requestsFailed()).isPositive();
            assertThat(s.counts().cancelled()).isPositive();
            assertThat(s.counts().warmupRequests()).isPositive();
        });
    }

    @Test
    void readingAheadGivesExactlyTheOneThreadResult() {
        for (Path dir : List.of(dirs.complete(), dirs.crashed())) {
            Read one = read(dir, RunLoader::streamOnOneThread);
            for (Read two : List.of(read(dir, RunLoader::streamReadingAhead), read(dir, RunLoader::stream))) {
                assertThat(two.records()).isEqualTo(one.records()); // same records, same order
                assertThat(two.run().records()).isEqualTo(one.run().records());
                assertThat(two.run().problems()).isEqualTo(one.run().problems());
                assertThat(two.run().truncatedLastLine()).isEqualTo(one.run().truncatedLastLine());
                // Every number: StepResult and BackgroundResult are records (doubles compared bit for bit,
                // histograms by their counts).
                assertThat(two.run().result()).isEqualTo(one.run().result());
                assertThat(SummaryText.format(two.run().result())).isEqualTo(SummaryText.format(one.run().result()));
            }
            LoadedRun listed = RunLoader.load(dir);
            assertThat(listed.records()).isEqualTo(one.records());
            assertThat(listed.result()).isEqualTo(one.run().result());
        }
    }

    @Test
    void aFailingSinkStopsTheParsingThread() {
        int[] seen = {0};
        assertThatThrownBy(() -> RunLoader.streamReadingAhead(dirs.complete(), r -> {
            if (++seen[0] == 3000) {
                throw new IllegalStateException("sink failed");
            }
        })).isInstanceOf(IllegalStateException.class).hasMessage("sink failed");
        assertThat(seen[0]).isEqualTo(3000);
        assertThat(parsingThreads()).isZero(); // ended before the call returned, not leaked
    }

    @Test
    void anInterruptedLoadStopsTheParsingThreadAndKeepsTheFlag() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> RunLoader.streamReadingAhead(dirs.complete(), r -> { }))
                    .isInstanceOf(UncheckedIOException.class).hasCauseInstanceOf(InterruptedIOException.class);
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(parsingThreads()).isZero();
    }

    private static long parsingThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("kneepoint-parse") && t.isAlive()).count();
    }
}
