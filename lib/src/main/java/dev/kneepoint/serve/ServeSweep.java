package dev.kneepoint.serve;

import dev.kneepoint.serve.ServeSweepIndex.Entry;
import dev.kneepoint.serve.ServeSweepIndex.Status;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A server-config sweep (docs/SERVE-SWEEP.md): for each combination of the swept parameters,
 * start the server on a free 127.0.0.1 port, wait until it is ready ({@link Readiness}), measure it with the
 * {@link ConfigRunner}, and stop it, always. One folder per sweep ({@link Plan#folder()}), one folder per
 * configuration inside it holding the server's log and the configuration's run directory; the index
 * ({@link ServeSweepIndex}) is rewritten after each configuration, and the comparison across configurations
 * ({@link ServeSweepTable}) written at the end. A configuration that fails is recorded with its reason and the sweep
 * goes on to the next. Each configuration restarts the server, so no cache survives from one to the next: there
 * is no prefix cache to reset between runs.
 */
public final class ServeSweep {
    /** Default longest wait for a started server to be ready (health, then a first answer). */
    public static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
    /** How long a server has to exit after SIGTERM before it is killed. */
    public static final Duration STOP_GRACE = Duration.ofSeconds(10);
    /** The server's stdout and stderr, in each configuration's folder. */
    public static final String SERVER_LOG = "server.log";
    /** What the sweep folder's name ends in, after the sweep's name. */
    public static final String FOLDER_SUFFIX = "-serve-sweep";
    /** Characters of the server's command line shown on the console (the log has all of it). */
    private static final int DESCRIPTION_CHARS = 120;

    /**
     * What to sweep.
     *
     * @param name         the sweep's name: its folder is {@code <out>/<name>-serve-sweep}, the same on every
     *                     invocation, so {@code resume} finds the earlier one
     * @param out          the parent folder
     * @param serve        the serve command line as given, for the index
     * @param params       the swept parameters, in order
     * @param runOptions   the run's options as given, for the index
     * @param readyTimeout longest wait for each server to be ready
     * @param resume       skip the configurations whose run directory from an earlier invocation is complete
     */
    public record Plan(String name, Path out, String serve, List<ServeParam> params, List<String> runOptions,
            Duration readyTimeout, boolean resume) {
        public Plan {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(out, "out");
            params = List.copyOf(params);
            runOptions = List.copyOf(runOptions);
            if (readyTimeout.isNegative() || readyTimeout.isZero()) {
                throw new IllegalArgumentException("--ready-timeout must be positive, e.g. 120s, got " + readyTimeout);
            }
        }

        /** The sweep folder. */
        public Path folder() {
            String slug = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
            return out.resolve((slug.isEmpty() ? "sweep" : slug) + FOLDER_SUFFIX);
        }

        /** The configurations, in the order they run ({@link ServeParam#product}). */
        public List<ServeConfig> configs() {
            return ServeParam.product(params);
        }
    }

    /**
     * A finished sweep.
     *
     * @param folder  the sweep folder
     * @param entries one per configuration, in order
     * @param table   the comparison across configurations
     */
    public record Result(Path folder, List<Entry> entries, ServeSweepTable table) {
        /** True when every configuration was measured to the end. */
        public boolean allComplete() {
            return entries.stream().allMatch(Entry::complete);
        }
    }

    private ServeSweep() {}

    /**
     * Runs {@code plan}: servers from {@code launcher}, measured by {@code runner}, progress lines to {@code console}.
     *
     * @throws InterruptedException when interrupted: the current server is stopped and the index says so
     */
    public static Result run(Plan plan, ServerLauncher launcher, ConfigRunner runner, PrintStream console)
            throws InterruptedException {
        List<ServeConfig> configs = plan.configs();
        Path folder = plan.folder().toAbsolutePath();
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the sweep folder " + folder, e);
        }
        Map<String, Entry> earlier = plan.resume() ? ServeSweepIndex.read(folder) : Map.of();
        if (plan.resume() && earlier.isEmpty()) {
            console.println("serve-sweep: --resume: no earlier " + ServeSweepIndex.FILE + " in " + folder
                    + ", running every configuration");
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < configs.size(); i++) {
            ServeConfig c = configs.get(i);
            String head = "serve-sweep: [" + (i + 1) + "/" + configs.size() + "] " + c.name() + ": ";
            Entry prior = earlier.get(c.name());
            if (prior != null && prior.runDirectory() != null
                    && ServeSweepIndex.complete(folder.resolve(prior.runDirectory()))) {
                console.println(head + "complete in an earlier invocation (" + prior.runDirectory() + "); skipped");
                entries.add(new Entry(c.name(), c.params(), Status.COMPLETE, null, prior.runDirectory(),
                        prior.serverLog(), prior.exitCode(), true));
            } else {
                try {
                    entries.add(measure(plan, folder, c, launcher, runner, console, head));
                } catch (InterruptedException e) {
                    entries.add(new Entry(c.name(), c.params(), Status.FAILED, "interrupted", null,
                            folder.relativize(folder.resolve(c.name()).resolve(SERVER_LOG)).toString(), null, false));
                    ServeSweepIndex.write(folder, plan, entries);
                    throw e;
                }
                Entry e = entries.getLast();
                console.println(head + (e.complete() ? "complete: " + e.runDirectory() : "FAILED: " + e.reason()));
            }
            ServeSweepIndex.write(folder, plan, entries);
        }
        ServeSweepTable table = ServeSweepTable.read(folder, entries);
        table.write(folder);
        return new Result(folder, List.copyOf(entries), table);
    }

    private static Entry measure(Plan plan, Path folder, ServeConfig c, ServerLauncher launcher, ConfigRunner runner,
            PrintStream console, String head) throws InterruptedException {
        Path configDir = folder.resolve(c.name());
        Path log = configDir.resolve(SERVER_LOG);
        String logRel = folder.relativize(log).toString();
        ServerLauncher.Running server;
        String root;
        try {
            Files.createDirectories(configDir);
            int port = freePort();
            root = "http://127.0.0.1:" + port;
            server = launcher.start(c, port, log);
        } catch (IOException | RuntimeException e) {
            return failed(c, "the server did not start: " + e.getMessage(), logRel);
        }
        String what = server.description();
        what = what.length() > DESCRIPTION_CHARS ? what.substring(0, DESCRIPTION_CHARS) + "..." : what;
        console.println(head + "started " + what + " (port " + root.substring(root.lastIndexOf(':') + 1) + "; full "
                + "command line and output: " + log + "); waiting until ready");
        Thread stopOnExit = new Thread(server::close, "kneepoint-serve-stop");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        try (server) {
            String url = root + "/v1";
            Readiness.await(server, root, runner.target(url), plan.readyTimeout(), log);
            console.println(head + "ready; measuring");
            ConfigRunner.Finished f = runner.run(url, c.name(), c.params(), configDir);
            Path dir = f.directory().toAbsolutePath();
            boolean complete = ServeSweepIndex.complete(dir);
            return new Entry(c.name(), c.params(), complete ? Status.COMPLETE : Status.FAILED, complete ? null
                    : "the run did not complete (exit code " + f.exitCode() + "); its run directory has what was "
                    + "measured", folder.relativize(dir).toString(), logRel, f.exitCode(), false);
        } catch (RuntimeException e) {
            return failed(c, e.getMessage(), logRel);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stopOnExit);
            } catch (IllegalStateException e) {
                // the JVM is shutting down (Ctrl-C): the hook stops the server
            }
        }
    }

    private static Entry failed(ServeConfig c, String reason, String logRel) {
        return new Entry(c.name(), c.params(), Status.FAILED, reason == null ? "failed" : reason, null, logRel, null,
                false);
    }

    /** A port free on 127.0.0.1 now (the server binds it a moment later). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
