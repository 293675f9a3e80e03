package dev.kneepoint.io;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.telemetry.JsonLinesFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Appends records to {@code requests.jsonl} from one writer thread fed by an unbounded queue, so that
 * {@link #append} never blocks on disk I/O. The buffer is flushed to the operating system at least every
 * {@code flushIntervalMillis} while records arrive (and when the queue runs dry), at each {@link #sync} and
 * at {@link #close}: a killed process loses at most about one flush interval of finished requests. (It does
 * not fsync: a power loss may lose more.)
 */
final class RequestLog implements AutoCloseable {
    private static final Object STOP = new Object();

    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private final JsonLinesFile file;
    private final long flushIntervalNanos;
    private final Thread thread;
    private long written;

    RequestLog(Path file, long flushIntervalMillis) throws IOException {
        this.file = new JsonLinesFile(file, Json.MAPPER.getFactory());
        this.flushIntervalNanos = TimeUnit.MILLISECONDS.toNanos(flushIntervalMillis);
        this.thread = new Thread(this::loop, "kneepoint-requests-jsonl");
        thread.setDaemon(true);
        thread.start();
    }

    /** Queues a record; never blocks. */
    void append(RequestRecord r) {
        queue.add(r);
    }

    /** Waits (interruptibly, up to {@code timeoutMillis}) until everything queued so far is flushed. */
    boolean sync(long timeoutMillis) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        queue.add(done);
        return done.await(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /** The first write error, if any: writing stops being attempted after it. */
    IOException failure() {
        return file.failure();
    }

    private void loop() {
        List<Object> batch = new ArrayList<>();
        long lastFlush = System.nanoTime();
        boolean dirty = false;
        while (true) {
            Object first;
            try {
                first = queue.poll(flushIntervalNanos / 4, TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                continue; // our own thread: only STOP ends it
            }
            if (first == null) {
                if (dirty) {
                    flush();
                    dirty = false;
                    lastFlush = System.nanoTime();
                }
                continue;
            }
            batch.clear();
            batch.add(first);
            queue.drainTo(batch, 8191);
            for (Object item : batch) {
                if (item instanceof RequestRecord r) {
                    write(r);
                    dirty = true;
                } else if (item instanceof CountDownLatch latch) {
                    flush();
                    dirty = false;
                    lastFlush = System.nanoTime();
                    latch.countDown();
                } else if (item == STOP) {
                    flush();
                    file.close();
                    return;
                }
            }
            if (dirty && System.nanoTime() - lastFlush >= flushIntervalNanos) {
                flush();
                dirty = false;
                lastFlush = System.nanoTime();
            }
        }
    }

    private void write(RequestRecord r) {
        if (file.line(r, RequestJson::write)) {
            written++;
        }
    }

    private void flush() {
        file.flush();
    }

    /** Records written so far (read after close for an exact number). */
    long written() {
        return written;
    }

    /** Writes everything queued, flushes, closes the file and ends the writer thread. */
    @Override
    public void close() {
        queue.add(STOP);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true; // finish writing what was queued: losing records is worse than a late return
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        IOException failure = file.failure();
        if (failure != null) {
            throw new UncheckedIOException("Writing requests.jsonl failed: " + failure.getMessage(), failure);
        }
    }
}
