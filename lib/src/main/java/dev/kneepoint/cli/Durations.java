package dev.kneepoint.cli;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses human durations: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}, {@code 1.5s}, or ISO-8601 {@code PT30S};
 * {@link #format} writes one back the way a user types it (for the defaults shown in {@code --help}).
 */
final class Durations {
    private static final Pattern SIMPLE = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");

    private Durations() {}

    static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SIMPLE.matcher(t);
        if (m.matches()) {
            double v = Double.parseDouble(m.group(1));
            double nanosPerUnit = switch (m.group(2)) {
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
            };
            return Duration.ofNanos(Math.round(v * nanosPerUnit));
        }
        try {
            return Duration.parse(text.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot read duration '" + text
                    + "': use a number with a unit, e.g. 500ms, 30s, 2m, 1h");
        }
    }

    /** {@code d} as {@link #parse} reads it: {@code 10s}, {@code 500ms}, {@code 0s}; ISO-8601 when neither is whole. */
    static String format(Duration d) {
        if (d.toNanosPart() == 0) {
            return d.toSeconds() + "s";
        }
        if (d.toNanosPart() % 1_000_000 == 0) {
            return d.toMillis() + "ms";
        }
        return d.toString();
    }
}
