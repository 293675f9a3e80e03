package dev.kneepoint.telemetry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code nvidia-smi --query-gpu=... --format=csv,noheader,nounits -lms N}: one long-lived process whose
 * lines (one per GPU per period) are read by one virtual thread and timestamped on arrival on the run clock.
 * The process and the command runner are injectable, so tests replay a recorded CSV. A line that does not
 * parse is recorded once (error kind {@code parse}); the process ending early is recorded as error kind
 * {@code ended}.
 */
final class NvidiaSmi {
    /** Starts a command and gives its standard output as lines; closing it ends the command. */
    interface CommandRunner {
        Lines start(List<String> command) throws IOException;
    }

    /** Lines of a running command. */
    interface Lines extends AutoCloseable {
        /** The next line, or null at the end. */
        String readLine() throws IOException;

        @Override
        void close();
    }

    private final TelemetrySink sink;
    private final Lines lines;
    private final Thread reader;
    private volatile boolean closing;

    private NvidiaSmi(TelemetrySink sink, Lines lines) {
        this.sink = sink;
        this.lines = lines;
        this.reader = Thread.ofVirtual().name("kneepoint-telemetry-gpu").unstarted(this::read);
    }

    /** The command for an interval. */
    static List<String> command(Path exe, long intervalMillis) {
        return List.of(exe.toString(), "--query-gpu=" + GpuMetrics.QUERY, "--format=csv,noheader,nounits",
                "-lms", Long.toString(intervalMillis));
    }

    /** Starts the command and its reader; on failure records it (error kind {@code start}) and returns empty. */
    static Optional<NvidiaSmi> start(TelemetrySink sink, CommandRunner runner, List<String> command) {
        try {
            NvidiaSmi n = new NvidiaSmi(sink, runner.start(command));
            sink.status("gpu", "started", String.join(" ", command));
            n.reader.start();
            return Optional.of(n);
        } catch (IOException e) {
            sink.error("gpu", "start", "cannot run " + command.get(0) + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    private void read() {
        try {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                long t = sink.clock().now();
                try {
                    sink.samples("gpu", GpuMetrics.parseCsvLine(line, t));
                    NvidiaSmiCsv.Device d = NvidiaSmiCsv.sampler().device(line);
                    sink.gpu(d.index(), d.name());
                } catch (IllegalArgumentException e) {
                    sink.error("gpu", "parse", e.getMessage());
                }
            }
            if (!closing) {
                sink.error("gpu", "ended", "nvidia-smi stopped writing; GPU sampling ends here");
            }
        } catch (IOException e) {
            if (!closing) {
                sink.error("gpu", "read", e.getMessage());
            }
        }
    }

    /** Waits (bounded) for the reader to reach the end of what the command wrote; for tests. */
    boolean awaitEnd(long millis) throws InterruptedException {
        return reader.join(java.time.Duration.ofMillis(millis));
    }

    void close() {
        closing = true;
        lines.close();
        try {
            reader.join(java.time.Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The executable on the PATH, if any. */
    static Optional<Path> which(String pathVariable) {
        if (pathVariable == null) {
            return Optional.empty();
        }
        for (String dir : pathVariable.split(java.io.File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, "nvidia-smi");
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** Runs real processes. */
    static final CommandRunner PROCESSES = command -> {
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        return new Lines() {
            @Override
            public String readLine() throws IOException {
                return r.readLine();
            }

            @Override
            public void close() {
                p.destroy();
                try {
                    if (!p.waitFor(1, java.util.concurrent.TimeUnit.SECONDS)) {
                        p.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    p.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
        };
    };
}
