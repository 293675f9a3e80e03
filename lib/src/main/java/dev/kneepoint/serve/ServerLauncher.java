package dev.kneepoint.serve;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;

/**
 * Starts the server of one configuration. {@link #processes} runs the {@code --serve} command line as a child
 * process; a test may start an in-process server instead.
 */
@FunctionalInterface
public interface ServerLauncher {
    /**
     * Starts the server of {@code config} listening on 127.0.0.1:{@code port}, its output appended to {@code log}.
     * Returns at once: readiness is the sweep's to wait for.
     *
     * @throws IOException when it cannot be started at all (e.g. the program is not found)
     */
    Running start(ServeConfig config, int port, Path log) throws IOException;

    /** A started server. {@link #close()} stops it and waits until it has; calling it again does nothing. */
    interface Running extends AutoCloseable {
        /** The exit code once the server has exited (before it was stopped: it died), else empty. */
        OptionalInt exitCode();

        /** What was started, for messages: the command line. */
        String description();

        @Override
        void close();
    }

    /**
     * Child processes of {@code command} with each configuration's values and port filled in, stdout and stderr
     * into the log; stopped with SIGTERM (descendants too), then killed after {@code stopGrace}.
     */
    static ServerLauncher processes(ServeCommandLine command, Duration stopGrace) {
        return (config, port, log) -> ChildServer.start(command, config, port, log, stopGrace);
    }
}
