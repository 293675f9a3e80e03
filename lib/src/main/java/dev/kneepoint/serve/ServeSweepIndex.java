package dev.kneepoint.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code serve-sweep.json} in a sweep folder: what was swept and, per configuration, its run directory and status,
 * rewritten after every configuration (so a killed sweep's index lists the ones it finished). Paths are relative
 * to the sweep folder. docs/SERVE-SWEEP.md documents the fields.
 */
public final class ServeSweepIndex {
    /** The index's file name in the sweep folder. */
    public static final String FILE = "serve-sweep.json";
    /** Bumped when a field changes meaning or is removed. */
    public static final int SCHEMA_VERSION = 1;
    /** The manifest of a run directory, and its completeness flag. */
    static final String MANIFEST = "manifest.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A configuration's status: measured to the end, or not, and why. */
    public enum Status { COMPLETE, FAILED }

    /**
     * One configuration's line in the index.
     *
     * @param config       its name ({@link ServeConfig#name()})
     * @param params       its parameters' values
     * @param status       {@code complete} when its run directory's manifest says complete
     * @param reason       why it failed; null when complete
     * @param runDirectory its run directory, relative to the sweep folder; null when no run was made
     * @param serverLog    the server's stdout and stderr, relative to the sweep folder
     * @param exitCode     the run's exit code as {@code bin/kneepoint run} gives it; null when no run was made
     * @param resumed      true when an earlier invocation measured it and {@code --resume} kept it
     */
    public record Entry(String config, Map<String, String> params, Status status, String reason, String runDirectory,
            String serverLog, Integer exitCode, boolean resumed) {
        public Entry {
            params = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(params));
        }

        public boolean complete() {
            return status == Status.COMPLETE;
        }
    }

    private ServeSweepIndex() {}

    /** Writes the index of {@code entries} into {@code sweepDir} (atomically: a killed sweep leaves a whole file). */
    static void write(Path sweepDir, ServeSweep.Plan plan, List<Entry> entries) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema_version", SCHEMA_VERSION);
        m.put("name", plan.name());
        m.put("serve", plan.serve());
        Map<String, List<String>> params = new LinkedHashMap<>();
        plan.params().forEach(p -> params.put(p.name(), p.values()));
        m.put("params", params);
        m.put("run_options", plan.runOptions());
        m.put("ready_timeout_s", plan.readyTimeout().toMillis() / 1000.0);
        List<Map<String, Object>> configs = new ArrayList<>();
        for (Entry e : entries) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("config", e.config());
            c.put("params", e.params());
            c.put("status", e.status().name().toLowerCase(java.util.Locale.ROOT));
            c.put("reason", e.reason());
            c.put("run_directory", e.runDirectory());
            c.put("server_log", e.serverLog());
            c.put("exit_code", e.exitCode());
            c.put("resumed", e.resumed());
            configs.add(c);
        }
        m.put("configs", configs);
        try {
            Path tmp = sweepDir.resolve(FILE + ".tmp");
            JSON.writeValue(tmp.toFile(), m);
            Files.move(tmp, sweepDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + sweepDir.resolve(FILE), e);
        }
    }

    /** The entries of the index in {@code sweepDir}, by configuration name; empty when there is none. */
    public static Map<String, Entry> read(Path sweepDir) {
        Path file = sweepDir.resolve(FILE);
        Map<String, Entry> out = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return out;
        }
        try {
            for (JsonNode c : JSON.readTree(file.toFile()).path("configs")) {
                Map<String, String> params = new LinkedHashMap<>();
                c.path("params").properties().forEach(p -> params.put(p.getKey(), p.getValue().asText()));
                Entry e = new Entry(c.path("config").asText(), params,
                        Status.valueOf(c.path("status").asText("failed").toUpperCase(java.util.Locale.ROOT)),
                        text(c, "reason"), text(c, "run_directory"), text(c, "server_log"),
                        c.path("exit_code").isInt() ? c.get("exit_code").asInt() : null, c.path("resumed").asBoolean());
                out.put(e.config(), e);
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage() + "; fix or delete it, or "
                    + "run without --resume", e instanceof IOException io ? io : new IOException(e));
        }
        return out;
    }

    /** True when {@code runDir}'s manifest says the run completed. */
    static boolean complete(Path runDir) {
        Path manifest = runDir.resolve(MANIFEST);
        if (!Files.isRegularFile(manifest)) {
            return false;
        }
        try {
            return JSON.readTree(manifest.toFile()).path("complete").asBoolean(false);
        } catch (IOException e) {
            return false;
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
