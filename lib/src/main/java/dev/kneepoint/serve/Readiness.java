package dev.kneepoint.serve;

import dev.kneepoint.client.HttpClients;
import dev.kneepoint.client.Preflight;
import dev.kneepoint.client.PreflightException;
import dev.kneepoint.client.TargetConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Waits until a started server is ready: {@code GET /health} or {@code GET /v1/models} answers 200 (llama.cpp and
 * vLLM answer 503 on {@code /health} while they load), and then the run's own preflight ({@link Preflight}: one small
 * request must bring tokens back), both within the ready timeout. A server that exits first, or a timeout, is a
 * {@link ServeException} with the last lines of the server's log.
 */
final class Readiness {
    /** Health probes, and preflight retries, this far apart. */
    static final Duration POLL = Duration.ofMillis(200);
    /** Longest wait for one health probe. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** Lines of the server's log shown when it is not ready. */
    static final int LOG_LINES = 15;
    private static final List<String> HEALTH = List.of("/health", "/v1/models");

    private Readiness() {}

    /**
     * Returns once {@code server}, at {@code root} (e.g. {@code http://127.0.0.1:41234}), is ready for {@code target}.
     *
     * @throws ServeException when it exits first or is not ready within {@code timeout}
     * @throws InterruptedException when interrupted while waiting
     */
    static void await(ServerLauncher.Running server, String root, TargetConfig target, Duration timeout, Path log)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        OkHttpClient http = HttpClients.forChecks(target).newBuilder().callTimeout(PROBE_TIMEOUT).build();
        while (!healthy(http, root)) {
            exitedCheck(server, log, "before it answered GET /health or /v1/models");
            if (System.nanoTime() > deadline) {
                throw new ServeException("the server was not ready within " + seconds(timeout) + ": neither GET " + root
                        + "/health nor /v1/models answered 200; raise --ready-timeout if it loads a large model, or "
                        + "check its command line." + tail(log));
            }
            Thread.sleep(POLL);
        }
        while (true) {
            try {
                Preflight.check(target);
                return;
            } catch (PreflightException e) {
                exitedCheck(server, log, "before it answered a first request");
                if (System.nanoTime() > deadline) {
                    throw new ServeException("the server answered its health check but not a first request within "
                            + seconds(timeout) + ": " + e.getMessage() + tail(log));
                }
            }
            Thread.sleep(POLL);
        }
    }

    private static void exitedCheck(ServerLauncher.Running server, Path log, String when) {
        OptionalInt code = server.exitCode();
        if (code.isPresent()) {
            throw new ServeException("the server exited (code " + code.getAsInt() + ") " + when + "; run its command "
                    + "line by hand to see why: " + server.description() + tail(log));
        }
    }

    private static boolean healthy(OkHttpClient http, String root) {
        for (String path : HEALTH) {
            try (Response r = http.newCall(new Request.Builder().url(root + path).get().build()).execute()) {
                if (r.code() == 200) {
                    return true;
                }
            } catch (IOException | IllegalArgumentException e) {
                // not listening yet
            }
        }
        return false;
    }

    /** The last {@link #LOG_LINES} lines of {@code log}, as a paragraph to append to a message. */
    static String tail(Path log) {
        try {
            if (log == null || !Files.exists(log)) {
                return "";
            }
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            List<String> last = lines.subList(Math.max(0, lines.size() - LOG_LINES), lines.size());
            return "\nlast lines of " + log + ":\n  " + String.join("\n  ", last);
        } catch (IOException | java.io.UncheckedIOException e) {
            return "\n(its log " + log + " could not be read: " + e.getMessage() + ")";
        }
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() / 1000.0 + " s";
    }
}
