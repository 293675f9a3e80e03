package dev.kneepoint.workload;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.Problems;
import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Synthetic prompts of exact token lengths drawn from a distribution, optionally sharing a prefix
 * within groups (a system prompt or RAG context). Deterministic by index: lengths depend on the seed,
 * the text on the seed and the salt. Build with {@link Workloads#synthetic()}.
 *
 * <p>{@code inputTokens} is the whole prompt as the server counts it ({@code usage.prompt_tokens}):
 * chat template and shared prefix included. A sample too small to hold the template, the prefix and
 * one token of its own is sent longer than requested; {@link #verify(int)} shows it.
 */
public final class SyntheticWorkload implements DescribedWorkload {

    private final Builder b;
    private final PromptCalibrator cal;
    private final long salt;
    private final Map<Integer, PromptCalibrator.Text> prefixes = new ConcurrentHashMap<>();

    private SyntheticWorkload(Builder b, PromptCalibrator cal, long salt) {
        this.b = b;
        this.cal = cal;
        this.salt = salt;
        if (b.api.isChat()) {
            cal.chatOverhead(roles());
        }
    }

    private List<String> roles() {
        return b.prefixTokens > 0 ? List.of("system", "user") : List.of("user");
    }

    @Override
    public RequestSpec next(long index) {
        int in = b.input.sample(b.seed, index);
        int out = b.output.sample(b.seed ^ LengthDistribution.OUTPUT_STREAM, index);
        SplittableRandom rnd = new SplittableRandom(LengthDistribution.mix(LengthDistribution.mix(b.seed, salt), index));
        OutputControl.Fields f = b.control.fields(out);
        String tag = b.tag;
        if (!b.api.isChat()) {
            int body = in - cal.promptOverhead();
            StringBuilder sb = new StringBuilder(body * 6);
            if (b.prefixTokens > 0) {
                sb.append(prefix(index).text());
                cal.extend(sb, rnd, Math.max(1, body - b.prefixTokens));
            } else {
                sb.append(cal.text(rnd, Math.max(1, body)).text());
            }
            return new RequestSpec(sb.toString(), List.of(), f.maxTokens(), in, f.extraBody(), tag);
        }
        int content = in - cal.chatOverhead(roles());
        List<RequestSpec.ChatMessage> msgs = new ArrayList<>(2);
        if (b.prefixTokens > 0) {
            msgs.add(new RequestSpec.ChatMessage("system", prefix(index).text()));
            content -= b.prefixTokens;
        }
        String user = cal.text(rnd, Math.max(1, content)).text();
        msgs.add(new RequestSpec.ChatMessage("user", user));
        return new RequestSpec(user, msgs.size() > 1 ? msgs : List.of(), f.maxTokens(), in, f.extraBody(), tag);
    }

    private PromptCalibrator.Text prefix(long index) {
        int group = (int) Math.floorMod(index, (long) b.groups);
        return prefixes.computeIfAbsent(group, g -> cal.text(
                new SplittableRandom(LengthDistribution.mix(LengthDistribution.mix(b.seed, salt), -1L - g)), b.prefixTokens));
    }

    /** Counts the prompts of the first {@code n} requests with the calibrator's tokenizer: achieved vs requested. */
    public CalibrationReport verify(int n) {
        return cal.verify(this, n, b.api.isChat());
    }

    /** The calibrator in use. */
    public PromptCalibrator calibrator() {
        return cal;
    }

    /** The salt mixed into the text (0 with {@link Builder#warmCache()}). */
    public long salt() {
        return salt;
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", b.prefixTokens > 0 ? "shared_prefix" : "synthetic");
        m.put("api", b.api.name().toLowerCase(java.util.Locale.ROOT));
        m.put("input_tokens", b.input.describe());
        m.put("output_tokens", b.output.describe());
        m.put("output_control", b.control.describe());
        if (b.prefixTokens > 0) {
            m.put("prefix_tokens", b.prefixTokens);
            m.put("prefix_groups", b.groups);
        }
        PromptSettings.describeText(m, cal, b.seed, salt, b.tag);
        return m;
    }

    /** Validated builder; {@link #build()} reports every problem at once. */
    public static final class Builder extends PromptSettings<Builder> {
        private LengthDistribution input = Lengths.fixed(128);
        private LengthDistribution output = Lengths.fixed(128);
        private ApiKind api = ApiKind.CHAT;
        private int prefixTokens;
        private int groups = 1;

        Builder() {
            super("default");
        }

        /** Prompt length distribution, whole prompt as the server counts it (default fixed 128). */
        public Builder inputTokens(LengthDistribution d) { this.input = d; return this; }

        public Builder inputTokens(int tokens) { return inputTokens(Lengths.fixed(tokens)); }

        /** Output length distribution (default fixed 128), sent as {@link OutputControl} says. */
        public Builder outputTokens(LengthDistribution d) { this.output = d; return this; }

        public Builder outputTokens(int tokens) { return outputTokens(Lengths.fixed(tokens)); }

        /** Chat (default) or completions: decides how the prompt is counted. */
        public Builder api(ApiKind kind) { this.api = kind; return this; }

        /** Calibrate with the target's own {@code /tokenize}; also takes its API kind. */
        public Builder calibrate(TargetConfig target) {
            this.api = target.apiKind();
            return calibrate(TokenCounter.server(target));
        }

        /** Requests share a prefix of {@code tokens} tokens within {@code groups} groups (request i in group i mod groups). */
        public Builder sharedPrefix(int tokens, int groups) {
            this.prefixTokens = tokens;
            this.groups = groups;
            return this;
        }

        /** Validates, measures the tokenizer if one was given, and builds. */
        public SyntheticWorkload build() {
            Problems p = new Problems();
            if (input == null) p.add("inputTokens is required");
            if (output == null) p.add("outputTokens is required");
            checkShared(p);
            if (api == null) p.add("api is required (CHAT or COMPLETIONS)");
            if (prefixTokens < 0) p.add("shared prefix tokens must be >= 0, got " + prefixTokens);
            if (groups < 1) p.add("shared prefix groups must be >= 1, got " + groups);
            if (prefixTokens > 0 && input != null && input.mean() < prefixTokens + 1) {
                p.add("inputTokens (mean " + input.mean() + ") must exceed the shared prefix (" + prefixTokens
                        + " tokens): inputTokens is the whole prompt, prefix included");
            }
            p.throwListIfAny("synthetic workload", " - ");
            return new SyntheticWorkload(copy(), resolveCalibrator(), resolveSalt());
        }

        private Builder copy() {
            Builder x = new Builder();
            x.input = input;
            x.output = output;
            copySharedTo(x);
            x.api = api;
            x.prefixTokens = prefixTokens;
            x.groups = groups;
            return x;
        }
    }
}
