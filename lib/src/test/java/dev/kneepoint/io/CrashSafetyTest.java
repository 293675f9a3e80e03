package dev.kneepoint.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.RequestRecord;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Kills a child JVM that is writing a run (SIGKILL) and checks what survived on disk. */
class CrashSafetyTest {

    @TempDir
    Path tmp;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void recordsFinishedMoreThanASecondBeforeAKillAreOnDisk() throws Exception {
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        Process child = new ProcessBuilder(javaBin, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
                CrashChild.class.getName(), tmp.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ConcurrentMap<Long, Long> receivedAt = new ConcurrentHashMap<>(); // id -> parent nanoTime on receipt
        AtomicReference<Path> dir = new AtomicReference<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.startsWith("DIR ")) {
                        dir.set(Path.of(line.substring(4)));
                    } else if (line.startsWith("DONE ")) {
                        receivedAt.put(Long.parseLong(line.substring(5)), System.nanoTime());
                    }
                }
            } catch (java.io.IOException e) {
                // stream closed by the kill
            }
        }, "crash-child-stdout");
        reader.start();
        long firstSeen = 0;
        while (true) {
            assertThat(child.isAlive()).as("child still running").isTrue();
            if (!receivedAt.isEmpty() && firstSeen == 0) {
                firstSeen = System.nanoTime();
            }
            // Let it write for 3 s after its first record so that some records are well older than 1 s.
            if (firstSeen != 0 && System.nanoTime() - firstSeen > 3_000_000_000L && receivedAt.size() >= 20) {
                break;
            }
            Thread.sleep(20);
        }
        long killedAt = System.nanoTime();
        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        reader.join(10_000);

        // Receipt follows completion, so "received > 1 s before the kill" implies "completed > 1 s before".
        // 1 s is the contract: the writer flushes every 200 ms, leaving 800 ms for a busy machine.
        Set<Long> mustSurvive = receivedAt.entrySet().stream()
                .filter(e -> killedAt - e.getValue() > 1_000_000_000L).map(java.util.Map.Entry::getKey)
                .collect(Collectors.toSet());
        assertThat(mustSurvive).isNotEmpty();
        LoadedRun loaded = RunLoader.load(dir.get());
        assertThat(loaded.complete()).isFalse();
        assertThat(loaded.manifest().path("complete").asBoolean(true)).isFalse();
        assertThat(loaded.problems()).isEmpty();
        List<Long> ids = loaded.records().stream().map(RequestRecord::id).toList();
        assertThat(ids).containsAll(mustSurvive);
        assertThat(loaded.result().step("c=1").window().completed()).isFalse();
        assertThat(loaded.result().step("c=1").counts().requestsOk()).isEqualTo(ids.size());
    }
}
