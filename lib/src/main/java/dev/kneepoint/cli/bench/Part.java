package dev.kneepoint.cli.bench;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/** The four parts of {@code kneepoint bench --all}, in the order they run. */
public enum Part {
    /** {@code kneepoint bench}: the client against a simulator in a child JVM (core issue). */
    CLIENT,
    /** {@code kneepoint bench-sim}: simulator and client in one JVM (simulator issue). */
    SIM,
    /** {@code kneepoint-kernel bench}: kernel cold start and trivial cell (kernel issue). */
    KERNEL,
    /** {@code LoadBenchmark}: load, summary and plots of a big run directory (analysis issue). */
    ANALYSIS;

    /** The lower-case name used on the command line and in results. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a {@code --parts} list such as {@code "client,sim"}; the result is in run order whatever the
     * list's order. Every unknown name is reported at once.
     */
    public static List<Part> parseList(String text) {
        EnumSet<Part> parts = EnumSet.noneOf(Part.class);
        List<String> unknown = new ArrayList<>();
        for (String s : text.split(",")) {
            String name = s.strip().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            try {
                parts.add(valueOf(name.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                unknown.add("'" + name + "'");
            }
        }
        if (!unknown.isEmpty() || parts.isEmpty()) {
            throw new IllegalArgumentException("--parts: unknown part " + String.join(", ", unknown)
                    + (unknown.isEmpty() ? "(empty list)" : "") + "; choose from client, sim, kernel, analysis (comma-separated)");
        }
        return List.copyOf(parts);
    }
}
