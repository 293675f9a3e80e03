package dev.kneepoint.io;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Measures the requests.jsonl hot path: records with 64 token events each, appended from one thread and
 * written by the writer thread, timed from the first append until everything is flushed and closed.
 * Run as a main to print the rate; {@link RequestLogThroughputTest} keeps a loose floor.
 */
public final class RequestLogThroughput {
    private RequestLogThroughput() {}

    /** Records per second for {@code n} records written to a file in {@code dir}. */
    public static double measure(Path dir, int n) throws Exception {
        double[] chunks = new double[64];
        int[] tokens = new int[64];
        for (int i = 0; i < 64; i++) {
            chunks[i] = 100 + i * 20.123;
            tokens[i] = 1 + i % 3;
        }
        RequestRecord[] records = new RequestRecord[1000];
        for (int i = 0; i < records.length; i++) {
            records[i] = TestRecords.ok(i, "c=64", i, i + 0.5, chunks, tokens).build();
        }
        Path file = dir.resolve("requests.jsonl");
        Files.deleteIfExists(file);
        long t0 = System.nanoTime();
        try (RequestLog log = new RequestLog(file, 200)) {
            for (int i = 0; i < n; i++) {
                log.append(records[i % records.length]);
            }
        }
        return n / ((System.nanoTime() - t0) / 1e9);
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("kneepoint-throughput");
        measure(dir, 50_000); // warm-up
        double rate = measure(dir, 200_000);
        System.out.printf(java.util.Locale.ROOT, "requests.jsonl: %.0f records/s (64 token events each), %d bytes%n",
                rate, Files.size(dir.resolve("requests.jsonl")));
    }
}
