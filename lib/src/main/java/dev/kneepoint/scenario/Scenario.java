package dev.kneepoint.scenario;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.request.Workload;
import dev.kneepoint.workload.MixWorkload;
import dev.kneepoint.workload.OutputControl;
import dev.kneepoint.workload.PromptCalibrator;
import dev.kneepoint.workload.Workloads;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One cell of the test matrix: prompt lengths, output length, a concurrency ladder and optional background
 * traffic. The presets A–E are in {@link Scenarios}; {@code with*} methods derive variants.
 *
 * @param name              short name ({@code A} ... {@code E}, or your own)
 * @param description       what the scenario models, in words
 * @param prompts           prompt-length shares (one share for a fixed length; several for a mix)
 * @param outputTokens      exact output length of every foreground answer
 * @param concurrency       the closed-loop ladder (users per step)
 * @param backgroundRps     rate of the background stream, 0 for none
 * @param backgroundPrompt  prompt tokens of background requests (when {@code backgroundRps > 0})
 * @param backgroundOutput  output tokens of background requests
 */
public record Scenario(String name, String description, List<PromptShare> prompts, int outputTokens,
                       List<Integer> concurrency, double backgroundRps, int backgroundPrompt, int backgroundOutput) {

    /**
     * A share of the prompts: {@code weight} (relative) of the requests have {@code tokens} prompt tokens and
     * carry {@code tag}.
     */
    public record PromptShare(double weight, int tokens, String tag) {}

    public Scenario {
        Problems problems = new Problems();
        if (name == null || !name.matches("[A-Za-z0-9_-]{1,20}")) {
            problems.add("name must be 1-20 letters, digits, '_' or '-', got '" + name + "'");
        }
        if (prompts == null || prompts.isEmpty()) {
            problems.add("at least one prompt share is required");
        } else if (prompts.stream().anyMatch(p -> p.tokens() < 1 || !(p.weight() > 0))) {
            problems.add("prompt shares need tokens >= 1 and a positive weight, got " + prompts);
        }
        if (outputTokens < 1) {
            problems.add("outputTokens must be >= 1, got " + outputTokens);
        }
        if (concurrency == null || concurrency.isEmpty() || concurrency.stream().anyMatch(c -> c == null || c < 1)) {
            problems.add("concurrency must list levels >= 1, got " + concurrency);
        }
        if (!(backgroundRps >= 0) || Double.isInfinite(backgroundRps)) {
            problems.add("backgroundRps must be a finite number >= 0, got " + backgroundRps);
        }
        if (backgroundRps > 0 && (backgroundPrompt < 1 || backgroundOutput < 1)) {
            problems.add("background prompt and output tokens must be >= 1 when backgroundRps > 0");
        }
        problems.throwListIfAny("scenario '" + name + "'");
        description = description == null ? "" : description;
        prompts = List.copyOf(prompts);
        concurrency = List.copyOf(concurrency);
    }

    /** The same scenario with another ladder. */
    public Scenario withConcurrency(int... levels) {
        return new Scenario(name, description, prompts, outputTokens, Arrays.stream(levels).boxed().toList(),
                backgroundRps, backgroundPrompt, backgroundOutput);
    }

    /** The same scenario with another background rate (0 removes it). */
    public Scenario withBackgroundRps(double rps) {
        return new Scenario(name, description, prompts, outputTokens, concurrency, rps,
                Math.max(1, backgroundPrompt), Math.max(1, backgroundOutput));
    }

    /** Mean prompt length over the shares. */
    public double meanPromptTokens() {
        double w = prompts.stream().mapToDouble(PromptShare::weight).sum();
        return prompts.stream().mapToDouble(p -> p.weight() * p.tokens()).sum() / w;
    }

    /** True when the scenario runs background traffic. */
    public boolean hasBackground() {
        return backgroundRps > 0;
    }

    /** The foreground workload: exact prompt lengths through {@code calibrator}, exact outputs through {@code control}. */
    public Workload workload(PromptCalibrator calibrator, OutputControl control, long seed) {
        if (prompts.size() == 1) {
            return synthetic(prompts.get(0).tokens(), outputTokens, prompts.get(0).tag(), calibrator, control, seed);
        }
        MixWorkload.Builder mix = Workloads.mix().seed(seed);
        int k = 0;
        for (PromptShare p : prompts) {
            mix.add(p.weight(), p.tag(), synthetic(p.tokens(), outputTokens, p.tag(), calibrator, control, seed + ++k));
        }
        return mix.build();
    }

    /** The background workload (tagged {@code bg} by the sweep). */
    public Workload backgroundWorkload(PromptCalibrator calibrator, OutputControl control, long seed) {
        return synthetic(backgroundPrompt, backgroundOutput, "bg", calibrator, control, seed ^ 0x5bL);
    }

    private static Workload synthetic(int in, int out, String tag, PromptCalibrator cal, OutputControl control, long seed) {
        return Workloads.synthetic().inputTokens(in).outputTokens(out).output(control).calibrator(cal)
                .seed(seed).tag(tag).build();
    }

    /** One line: name, prompts, output, ladder, background. */
    public String describe() {
        String p = prompts.size() == 1 ? prompts.get(0).tokens() + ""
                : String.join("/", prompts.stream().map(s -> String.format(Locale.ROOT, "%d (%.0f%%)", s.tokens(),
                100 * s.weight() / prompts.stream().mapToDouble(PromptShare::weight).sum())).toList());
        return String.format(Locale.ROOT, "%s: %s; prompt %s tokens, output %d tokens, users %s%s", name, description,
                p, outputTokens, concurrency, hasBackground() ? String.format(Locale.ROOT,
                        ", background %.3g req/s of %d/%d tokens", backgroundRps, backgroundPrompt, backgroundOutput) : "");
    }
}
