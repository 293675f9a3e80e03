package dev.kneepoint.real;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * A tiny reader of Prometheus text exposition, enough to check a few llama.cpp counters
 * (a full scraper is a telemetry task of its own). Keeps unlabelled samples and samples with
 * labels under their full series name ({@code name{a="b"}}); ignores comments and timestamps.
 */
final class PromText {
    private PromText() {
    }

    /** Series name → value of every sample line. */
    static Map<String, Double> parse(String text) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String raw : text.split("\n")) {
            String line = raw.strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int end = line.indexOf('}') >= 0 ? line.indexOf('}') + 1 : line.indexOf(' ');
            if (end <= 0 || end >= line.length()) {
                continue;
            }
            String name = line.substring(0, end).strip();
            String[] rest = line.substring(end).strip().split("\\s+");
            try {
                out.put(name, Double.parseDouble(rest[0]));
            } catch (NumberFormatException e) {
                // a malformed sample is skipped; the test asserting on it will say it is missing
            }
        }
        return out;
    }

    /** The value of one series, when present. */
    static OptionalDouble value(String text, String series) {
        Double v = parse(text).get(series);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
