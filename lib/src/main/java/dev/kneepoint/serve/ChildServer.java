package dev.kneepoint.serve;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;

/** A server run as a child process (no shell): {@link ServerLauncher#processes}. */
final class ChildServer implements ServerLauncher.Running {
    /** How long to wait for a process killed with SIGKILL to be gone. */
    private static final Duration AFTER_KILL = Duration.ofSeconds(5);
    private final Process process;
    private final String description;
    private final Duration stopGrace;
    private boolean stopped;

    private ChildServer(Process process, String description, Duration stopGrace) {
        this.process = process;
        this.description = description;
        this.stopGrace = stopGrace;
    }

    static ChildServer start(ServeCommandLine command, ServeConfig config, int port, Path log, Duration stopGrace)
            throws IOException {
        Map<String, String> values = new LinkedHashMap<>(config.params());
        values.put(ServeParam.PORT, String.valueOf(port));
        List<String> argv = command.expand(values);
        String description = String.join(" ", argv);
        Files.createDirectories(log.toAbsolutePath().getParent());
        Files.writeString(log, "# " + Instant.now() + " kneepoint serve-sweep started: " + description + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        try {
            return new ChildServer(pb.start(), description, stopGrace);
        } catch (IOException e) {
            throw new IOException("cannot start '" + argv.get(0) + "': " + e.getMessage() + "; check that the program "
                    + "of --serve exists and is on PATH (or give its full path)", e);
        }
    }

    @Override
    public OptionalInt exitCode() {
        return !stopped && !process.isAlive() ? OptionalInt.of(process.exitValue()) : OptionalInt.empty();
    }

    @Override
    public String description() {
        return description;
    }

    /** SIGTERM to the process and its descendants, then SIGKILL to whatever is left after the grace period. */
    @Override
    public synchronized void close() {
        if (stopped) {
            return;
        }
        stopped = true;
        List<ProcessHandle> family = process.descendants().toList();
        process.destroy();
        family.forEach(ProcessHandle::destroy);
        boolean interrupted = false;
        try {
            if (!process.waitFor(stopGrace.toMillis(), TimeUnit.MILLISECONDS)) {
                kill(family);
            }
        } catch (InterruptedException e) {
            interrupted = true;
            kill(family);
        }
        family.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void kill(List<ProcessHandle> family) {
        process.destroyForcibly();
        family.forEach(ProcessHandle::destroyForcibly);
        try {
            process.waitFor(AFTER_KILL.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
