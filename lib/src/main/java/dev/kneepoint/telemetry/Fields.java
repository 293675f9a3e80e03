package dev.kneepoint.telemetry;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a line into fields at runs of separator characters without a regular expression: exactly what
 * {@code s.split("[" + separators + "]+", limit)} returns (a leading separator run gives a leading empty field,
 * a positive {@code limit} caps the fields and leaves the rest of the line in the last one, {@code limit} 0 drops
 * trailing empty fields), but without compiling a {@code Pattern} and running the regex engine on every line.
 *
 * <p>Why: telemetry parses every scrape line by line (a vLLM exposition has hundreds of lines, {@code /proc}
 * files dozens), twice a second for the whole run. With {@code String.split(regex)} each line compiled a
 * pattern; in a fresh JVM that code runs interpreted for the first minutes at such rates, and the regex engine's
 * methods were among the JIT compilations inside the first measured steps (bench/reference/performance-history.md, "Closed-loop client CPU").
 */
final class Fields {
    /** Blank within a line, as the Prometheus text format separates fields: space and tab. */
    static final String BLANKS = " \t";
    /** Java's {@code \s}: space, tab, newline, vertical tab, form feed, carriage return. */
    static final String WHITESPACE = " \t\n\u000B\f\r";

    private Fields() {}

    /** {@code s.split("[" + separators + "]+", limit)}, for separators without regex meaning. */
    static String[] split(String s, String separators, int limit) {
        List<String> out = new ArrayList<>();
        int n = s.length();
        int start = 0;
        int i = 0;
        while (i < n) {
            if (separators.indexOf(s.charAt(i)) < 0) {
                i++;
                continue;
            }
            if (limit > 0 && out.size() == limit - 1) {
                break; // the rest of the line is the last field
            }
            out.add(s.substring(start, i));
            while (i < n && separators.indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            start = i;
        }
        if (out.isEmpty()) {
            return new String[] {s}; // no separator (or limit 1): the line itself, as String.split returns it
        }
        out.add(s.substring(start));
        int size = out.size();
        if (limit == 0) {
            while (size > 0 && out.get(size - 1).isEmpty()) {
                size--;
            }
        }
        return out.subList(0, size).toArray(new String[0]);
    }
}
