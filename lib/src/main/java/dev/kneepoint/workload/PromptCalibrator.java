package dev.kneepoint.workload;

import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Builds prompts of an exact token length for one tokenizer, with no round trip per request.
 *
 * <p>{@link #measure(TokenCounter)} asks the tokenizer once for the cost of each word of the
 * synthetic vocabulary, alone and after a space (about 140 calls), and for the chat template's
 * overhead per message-role sequence (one call per distinct sequence, cached). Synthetic text is
 * then assembled word by word until the costs add up to the target, the last word chosen with the
 * exact remaining cost. This assumes the tokenizer does not merge across spaces (true of the BPE
 * pre-tokenizers of GPT, Llama 3, Qwen, Mistral); {@link #verify} counts real prompts with the
 * tokenizer and reports achieved against requested lengths, so any departure shows.
 * The prompt overhead (BOS) is taken as the cheapest word's count minus one.
 */
public final class PromptCalibrator {
    private static final String[] WORDS = SyntheticPrompts.WORDS;

    private final TokenCounter counter;
    private final boolean measured;
    private final int promptOverhead;
    private final int[] bare;
    private final int[] spaced;
    private final int anchor;
    private final List<List<Integer>> spacedByCost;
    private final Map<String, Integer> chatOverheads = new ConcurrentHashMap<>();
    private final int measureCalls;

    private PromptCalibrator(TokenCounter counter, boolean measured, int[] bareCounts, int[] spaced, int calls) {
        this.counter = counter;
        this.measured = measured;
        int min = Integer.MAX_VALUE;
        int minAt = 0;
        for (int i = 0; i < bareCounts.length; i++) {
            if (bareCounts[i] < min) {
                min = bareCounts[i];
                minAt = i;
            }
        }
        this.promptOverhead = min - 1;
        this.anchor = minAt;
        this.bare = new int[bareCounts.length];
        for (int i = 0; i < bare.length; i++) {
            bare[i] = bareCounts[i] - promptOverhead;
        }
        this.spaced = spaced;
        this.spacedByCost = new ArrayList<>();
        for (int i = 0; i < spaced.length; i++) {
            if (spaced[i] >= 1) {
                while (spacedByCost.size() <= spaced[i]) {
                    spacedByCost.add(new ArrayList<>());
                }
                spacedByCost.get(spaced[i]).add(i);
            }
        }
        if (spacedByCost.size() < 2 || spacedByCost.get(1).isEmpty()) {
            throw new TokenizerException("no word of the synthetic vocabulary is one token after a space for "
                    + counter.describe() + ": exact lengths cannot be assembled");
        }
        this.measureCalls = calls;
    }

    /** Measures word costs with {@code counter} (about 140 calls). */
    public static PromptCalibrator measure(TokenCounter counter) {
        Objects.requireNonNull(counter, "counter");
        int[] b = new int[WORDS.length];
        int[] s = new int[WORDS.length];
        for (int i = 0; i < WORDS.length; i++) {
            b[i] = counter.count(WORDS[i]);
            s[i] = counter.count(WORDS[i] + " " + WORDS[i]) - b[i];
        }
        return new PromptCalibrator(counter, true, b, s, 2 * WORDS.length);
    }

    /**
     * No tokenizer: one token per word and a chat template of 4 tokens per message plus 3 (the
     * simulator's, exact there; an estimate anywhere else, and flagged so).
     */
    public static PromptCalibrator assumed() {
        int[] ones = new int[WORDS.length];
        java.util.Arrays.fill(ones, 1);
        TokenCounter words = TokenCounter.of("assumed: 1 token per word, 4 per chat message + 3", false,
                t -> t.isEmpty() ? 0 : t.split(" ", -1).length);
        return new PromptCalibrator(words, false, ones, ones.clone(), 0);
    }

    /** The tokenizer behind the costs. */
    public TokenCounter counter() {
        return counter;
    }

    /** True when costs were measured with an exact tokenizer. */
    public boolean exact() {
        return measured && counter.exact();
    }

    /** Tokenizer calls made to measure the costs. */
    public int measureCalls() {
        return measureCalls;
    }

    /** Tokens a completions prompt adds beyond its text (e.g. BOS). */
    public int promptOverhead() {
        return promptOverhead;
    }

    /** Tokens the chat template adds around messages with these roles (generation prompt included); cached. */
    public int chatOverhead(List<String> roles) {
        String key = String.join(",", roles);
        return chatOverheads.computeIfAbsent(key, k -> {
            List<RequestSpec.ChatMessage> msgs = new ArrayList<>();
            for (String r : roles) {
                msgs.add(new RequestSpec.ChatMessage(r, WORDS[anchor]));
            }
            return counter.countChat(msgs) - roles.size() * bare[anchor];
        });
    }

    /**
     * Synthetic text of exactly {@code tokens} tokens when it stands at the start of a prompt or a
     * message (no leading space), words drawn from {@code rnd}; the achieved count is
     * {@link Text#tokens()} (less only if the vocabulary cannot fill the last tokens).
     */
    public Text text(SplittableRandom rnd, int tokens) {
        if (tokens < 1) {
            throw new IllegalArgumentException("text length must be >= 1 token, got " + tokens);
        }
        StringBuilder sb = new StringBuilder(tokens * 6);
        int w = rnd.nextInt(WORDS.length);
        for (int tries = 0; bare[w] > tokens && tries < 64; tries++) {
            w = rnd.nextInt(WORDS.length);
        }
        if (bare[w] > tokens) {
            w = anchor;
        }
        sb.append(WORDS[w]);
        int used = bare[w];
        used += extend(sb, rnd, tokens - used);
        return new Text(sb.toString(), used);
    }

    /** Appends words (each after a space) costing exactly {@code tokens} if possible; returns the cost added. */
    int extend(StringBuilder sb, SplittableRandom rnd, int tokens) {
        int remaining = tokens;
        while (remaining > 0) {
            int w = rnd.nextInt(WORDS.length);
            int c = spaced[w];
            if (c < 1 || c > remaining) {
                List<Integer> exactCost = remaining < spacedByCost.size() ? spacedByCost.get(remaining) : List.of();
                w = exactCost.isEmpty() ? spacedByCost.get(1).get(rnd.nextInt(spacedByCost.get(1).size()))
                        : exactCost.get(rnd.nextInt(exactCost.size()));
                c = spaced[w];
            }
            sb.append(' ').append(WORDS[w]);
            remaining -= c;
        }
        return tokens - remaining;
    }

    /** Synthetic text and its token count under this calibration. */
    public record Text(String text, int tokens) {
    }

    /**
     * Cuts or extends real text (a dataset's) to exactly {@code tokens} completions-prompt tokens,
     * by binary search on the word count ({@code O(log words)} tokenizer calls), then pads with
     * one-token words if the cut falls short. Returns the text, the count the tokenizer gives it,
     * and the calls made.
     */
    public Fitted fit(String text, int tokens) {
        Objects.requireNonNull(text, "text");
        String source = text.isBlank() ? WORDS[anchor] : text.strip();
        int calls = 0;
        int full = counter.count(source);
        calls++;
        String base = source;
        while (full < tokens) {
            base = base + " " + source;
            full = counter.count(base);
            calls++;
        }
        List<Integer> cuts = new ArrayList<>();
        for (int i = 0; i < base.length(); i++) {
            if (base.charAt(i) == ' ' && (i == 0 || base.charAt(i - 1) != ' ')) {
                cuts.add(i);
            }
        }
        cuts.add(base.length());
        int lo = 0;
        int hi = cuts.size() - 1;
        int loCount = -1;
        if (full == tokens) {
            return new Fitted(base, tokens, calls);
        }
        while (lo < hi) { // largest cut whose prefix has <= tokens
            int mid = (lo + hi + 1) >>> 1;
            int c = counter.count(base.substring(0, cuts.get(mid)));
            calls++;
            if (c <= tokens) {
                lo = mid;
                loCount = c;
            } else {
                hi = mid - 1;
            }
        }
        StringBuilder sb = new StringBuilder(base.substring(0, cuts.get(lo)));
        if (loCount < 0) {
            loCount = counter.count(sb.toString());
            calls++;
        }
        extend(sb, new SplittableRandom(tokens), tokens - loCount);
        int achieved = counter.count(sb.toString());
        calls++;
        return new Fitted(sb.toString(), achieved, calls);
    }

    /** A fitted text, its token count as the tokenizer measured it, and the tokenizer calls spent. */
    public record Fitted(String text, int tokens, int calls) {
    }

    /**
     * Counts the prompts of requests {@code 0..n-1} of {@code workload} with this calibrator's
     * tokenizer ({@code n} calls; chat prompts with the chat template when {@code chat}) and reports
     * achieved against requested ({@link RequestSpec#requestedPromptTokens()}) lengths.
     */
    public CalibrationReport verify(dev.kneepoint.request.Workload workload, int n, boolean chat) {
        List<CalibrationReport.Sample> samples = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            RequestSpec s = workload.next(i);
            int achieved = chat ? counter.countChat(s.chatMessages()) : counter.count(s.prompt());
            samples.add(new CalibrationReport.Sample(i, s.tag(), s.requestedPromptTokens(), achieved));
        }
        return new CalibrationReport(counter.describe(), exact(), measureCalls + n, samples);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "PromptCalibrator[%s, exact=%s, overhead=%d]",
                counter.describe(), exact(), promptOverhead);
    }
}
