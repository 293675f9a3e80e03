package dev.kneepoint.telemetry;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * A pure parser of the Prometheus text exposition format (version 0.0.4, and the sample lines of
 * OpenMetrics text): {@code # HELP} and {@code # TYPE} comments, other comments ignored, metric names with
 * colons, label sets with escaped values ({@code \\}, {@code \"}, {@code \n}), the values {@code NaN},
 * {@code +Inf}, {@code -Inf}, optional integer timestamps (milliseconds), and a trailing OpenMetrics
 * {@code # EOF}. Histogram and summary series ({@code _bucket}, {@code _sum}, {@code _count}, quantiles)
 * are returned as ordinary samples; {@link Family} groups them under the family's name from {@code # TYPE}.
 *
 * <p>A malformed line never fails the whole scrape: it is skipped and reported in
 * {@link Exposition#problems()} with its line number.
 */
final class PromText {
    private PromText() {}

    /**
     * One sample line.
     *
     * @param name        the series name as written ({@code vllm:e2e_request_latency_seconds_bucket})
     * @param labels      its labels, sorted by name, unescaped
     * @param value       the value ({@code NaN} and infinities included)
     * @param timestampMs the sample's own timestamp when the line had one (milliseconds since the epoch)
     */
    public record Sample(String name, Map<String, String> labels, double value, OptionalLong timestampMs) {
        public Sample {
            labels = Collections.unmodifiableMap(new TreeMap<>(labels));
        }

        /** The label's value, or empty when absent. */
        public Optional<String> label(String key) {
            return Optional.ofNullable(labels.get(key));
        }
    }

    /**
     * A metric family declared by {@code # TYPE} (or {@code untyped} when only samples named it).
     *
     * @param name the family name ({@code vllm:time_to_first_token_seconds} for its {@code _bucket} series too)
     * @param type {@code counter}, {@code gauge}, {@code histogram}, {@code summary}, {@code untyped}, ...
     * @param help the {@code # HELP} text, unescaped, or empty
     */
    public record Family(String name, String type, String help) {}

    /**
     * A parsed exposition.
     *
     * @param samples  every well-formed sample line, in order
     * @param families families by name, in order of first appearance
     * @param problems malformed lines, as {@code "line N: reason"}
     */
    public record Exposition(List<Sample> samples, Map<String, Family> families, List<String> problems) {
        public Exposition {
            samples = List.copyOf(samples);
            families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
            problems = List.copyOf(problems);
        }

        /** The family a series belongs to: its own name, or the name less {@code _bucket/_sum/_count/_total/_created}. */
        public Optional<Family> familyOf(String seriesName) {
            Family f = families.get(seriesName);
            if (f != null) {
                return Optional.of(f);
            }
            for (String suffix : List.of("_bucket", "_sum", "_count", "_total", "_created", "_gsum", "_gcount")) {
                if (seriesName.endsWith(suffix)) {
                    f = families.get(seriesName.substring(0, seriesName.length() - suffix.length()));
                    if (f != null) {
                        return Optional.of(f);
                    }
                }
            }
            return Optional.empty();
        }

        /** The type of the series' family, {@code untyped} when undeclared. */
        public String typeOf(String seriesName) {
            return familyOf(seriesName).map(Family::type).orElse("untyped");
        }

        /** Samples of one series name. */
        public List<Sample> series(String name) {
            return samples.stream().filter(s -> s.name().equals(name)).toList();
        }

        /** The value of the first sample of this name, if any. */
        public Optional<Double> value(String name) {
            return samples.stream().filter(s -> s.name().equals(name)).findFirst().map(Sample::value);
        }
    }

    /** Parses a whole exposition; never throws on malformed content. */
    public static Exposition parse(String text) {
        List<Sample> samples = new ArrayList<>();
        Map<String, Family> families = new LinkedHashMap<>();
        Map<String, String> helps = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        int lineNo = 0;
        for (String raw : text.split("\n", -1)) {
            lineNo++;
            String line = raw.endsWith("\r") ? raw.substring(0, raw.length() - 1) : raw;
            String t = line.strip();
            if (t.isEmpty()) {
                continue;
            }
            if (t.charAt(0) == '#') {
                comment(t, families, helps);
                continue;
            }
            try {
                samples.add(sample(t));
            } catch (IllegalArgumentException e) {
                problems.add("line " + lineNo + ": " + e.getMessage());
            }
        }
        helps.forEach((name, help) -> families.merge(name, new Family(name, "untyped", help),
                (a, b) -> new Family(a.name(), a.type(), b.help())));
        return new Exposition(samples, families, problems);
    }

    private static void comment(String t, Map<String, Family> families, Map<String, String> helps) {
        String[] parts = Fields.split(t.substring(1).strip(), Fields.BLANKS, 3);
        if (parts.length < 2) {
            return;
        }
        if (parts[0].equals("TYPE") && parts.length == 3) {
            String name = parts[1];
            String help = helps.getOrDefault(name, "");
            families.put(name, new Family(name, parts[2].strip().toLowerCase(java.util.Locale.ROOT), help));
        } else if (parts[0].equals("HELP")) {
            String help = parts.length == 3 ? unescapeHelp(parts[2]) : "";
            helps.put(parts[1], help);
            Family f = families.get(parts[1]);
            if (f != null) {
                families.put(parts[1], new Family(f.name(), f.type(), help));
            }
        }
    }

    private static String unescapeHelp(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 'n' ? '\n' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    /** Parses one sample line (already stripped). */
    static Sample sample(String t) {
        int i = 0;
        int n = t.length();
        while (i < n && isNameChar(t.charAt(i), i == 0)) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("expected a metric name, got '" + abbreviate(t) + "'");
        }
        String name = t.substring(0, i);
        Map<String, String> labels = new TreeMap<>();
        if (i < n && t.charAt(i) == '{') {
            i = labels(t, i + 1, labels);
        }
        String rest = t.substring(i).strip();
        if (rest.isEmpty()) {
            throw new IllegalArgumentException("sample '" + name + "' has no value");
        }
        String[] fields = Fields.split(rest, Fields.BLANKS, 0);
        if (fields.length > 2 && !fields[2].startsWith("#")) {
            throw new IllegalArgumentException("sample '" + name + "' has extra fields after value and timestamp");
        }
        double value = number(fields[0], name);
        OptionalLong ts = OptionalLong.empty();
        if (fields.length > 1 && !fields[1].startsWith("#")) {
            try {
                ts = OptionalLong.of(Long.parseLong(fields[1]));
            } catch (NumberFormatException e) {
                try { // OpenMetrics writes seconds with a fraction
                    ts = OptionalLong.of(Math.round(Double.parseDouble(fields[1]) * 1000));
                } catch (NumberFormatException e2) {
                    throw new IllegalArgumentException("sample '" + name + "' has a bad timestamp '" + fields[1] + "'");
                }
            }
        }
        return new Sample(name, labels, value, ts);
    }

    private static int labels(String t, int i, Map<String, String> out) {
        int n = t.length();
        while (true) {
            while (i < n && (t.charAt(i) == ' ' || t.charAt(i) == '\t' || t.charAt(i) == ',')) {
                i++;
            }
            if (i >= n) {
                throw new IllegalArgumentException("unterminated label set");
            }
            if (t.charAt(i) == '}') {
                return i + 1;
            }
            int start = i;
            while (i < n && isLabelChar(t.charAt(i), i == start)) {
                i++;
            }
            if (i == start) {
                throw new IllegalArgumentException("bad label name at column " + (i + 1));
            }
            String key = t.substring(start, i);
            while (i < n && t.charAt(i) == ' ') {
                i++;
            }
            if (i >= n || t.charAt(i) != '=') {
                throw new IllegalArgumentException("label '" + key + "' has no '='");
            }
            i++;
            while (i < n && t.charAt(i) == ' ') {
                i++;
            }
            if (i >= n || t.charAt(i) != '"') {
                throw new IllegalArgumentException("label '" + key + "' value is not quoted");
            }
            i++;
            StringBuilder v = new StringBuilder();
            boolean closed = false;
            while (i < n) {
                char c = t.charAt(i++);
                if (c == '\\' && i < n) {
                    char e = t.charAt(i++);
                    v.append(switch (e) {
                        case 'n' -> '\n';
                        case '\\' -> '\\';
                        case '"' -> '"';
                        default -> e;
                    });
                } else if (c == '"') {
                    closed = true;
                    break;
                } else {
                    v.append(c);
                }
            }
            if (!closed) {
                throw new IllegalArgumentException("label '" + key + "' value is not closed");
            }
            out.put(key, v.toString());
        }
    }

    private static double number(String s, String name) {
        switch (s) {
            case "NaN", "nan": return Double.NaN;
            case "+Inf", "Inf", "+inf", "inf": return Double.POSITIVE_INFINITY;
            case "-Inf", "-inf": return Double.NEGATIVE_INFINITY;
            default:
                try {
                    return Double.parseDouble(s);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("sample '" + name + "' has a bad value '" + s + "'");
                }
        }
    }

    private static boolean isNameChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':' || !first && c >= '0' && c <= '9';
    }

    private static boolean isLabelChar(char c, boolean first) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || !first && c >= '0' && c <= '9';
    }

    private static String abbreviate(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "..." : s;
    }
}
