package dev.kneepoint.real;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * llama.cpp's own per-request timings as llama_cpp.server (verbose, its default) prints them to its log:
 * {@code llama_perf_context_print: prompt eval time = 932.87 ms / 206 tokens (...)} and
 * {@code llama_perf_context_print:        eval time = 384.60 ms / 47 runs (...)}. The fallback sends no
 * {@code timings} in its streams, so this log is its only server-side measure; the path comes from
 * {@code KNEEPOINT_LLAMA_LOG} ({@code bin/kneepoint-llama log-path}).
 */
final class PerfLog {
    static final String LOG_VAR = "KNEEPOINT_LLAMA_LOG";
    private static final Pattern PROMPT = Pattern.compile("prompt eval time =\\s*([0-9.]+) ms /\\s*(\\d+) tokens");
    private static final Pattern EVAL = Pattern.compile(":\\s+eval time =\\s*([0-9.]+) ms /\\s*(\\d+) runs");

    /** One request's timings: prefill ms and tokens, decode ms and llama_decode() runs. */
    record Entry(double promptMs, int promptTokens, double evalMs, int evalRuns) {
        double msPerRun() {
            return evalMs / evalRuns;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "prompt_eval=%.1fms/%d eval=%.1fms/%d", promptMs, promptTokens,
                    evalMs, evalRuns);
        }
    }

    private final Path file;

    PerfLog(Path file) {
        this.file = file;
    }

    /** Every entry so far, in order (a prompt line followed by its eval line). */
    List<Entry> entries() {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Entry> out = new ArrayList<>();
        double[] prompt = null;
        for (String line : lines) {
            Matcher p = PROMPT.matcher(line);
            Matcher e = EVAL.matcher(line);
            if (p.find()) {
                prompt = new double[] {Double.parseDouble(p.group(1)), Integer.parseInt(p.group(2))};
            } else if (e.find() && prompt != null) {
                out.add(new Entry(prompt[0], (int) prompt[1], Double.parseDouble(e.group(1)),
                        Integer.parseInt(e.group(2))));
                prompt = null;
            }
        }
        return out;
    }

    /**
     * The entry after the first {@code before} ones, waiting up to 5 s for the server to write it (it prints
     * after the generation loop, about when the last chunk leaves). Interruptible.
     */
    Entry awaitEntry(int before) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (true) {
            List<Entry> all = entries();
            if (all.size() > before) {
                return all.get(before);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no new llama_perf_context_print entry in " + file + " within 5 s");
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
