package dev.kneepoint.serve;

import dev.kneepoint.client.TargetConfig;
import java.nio.file.Path;
import java.util.Map;

/**
 * Measures one configuration once its server is ready: {@code bin/kneepoint serve-sweep} runs the options after
 * {@code --} exactly as {@code bin/kneepoint run} would, with the URL, run name, output folder and labels filled in.
 */
public interface ConfigRunner {
    /**
     * The target the run will load at {@code url} ({@code http://127.0.0.1:PORT/v1}), for the readiness preflight.
     */
    TargetConfig target(String url);

    /**
     * Runs the ladder or search against {@code url}, writing one run directory under {@code out} named after
     * {@code name}, whose manifest carries {@code labels}; returns where it was written and its exit code.
     *
     * @throws RuntimeException when nothing could be measured; its message says why
     */
    Finished run(String url, String name, Map<String, String> labels, Path out);

    /**
     * A run that was made.
     *
     * @param directory its run directory
     * @param exitCode  what {@code bin/kneepoint run} would have exited with (0: measured)
     */
    record Finished(Path directory, int exitCode) {}
}
