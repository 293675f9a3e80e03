package dev.kneepoint.workload;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Achieved against requested lengths over finished requests, and warnings when the server did not
 * do what was asked. Only OK requests that asked for a length are checked.
 *
 * @param checkedOutput   OK requests with a requested output length
 * @param outputExact     of those, how many got exactly that many output tokens
 * @param outputShorter   how many got fewer (the server stopped early: EOS not ignored, or a stop string)
 * @param outputLonger    how many got more (the server ignored {@code max_tokens})
 * @param eventCounted    how many of the checked had counts from events only (one per chunk; not reliable)
 * @param checkedPrompt   OK requests with both a requested prompt length and a server-reported one
 * @param promptExact     of those, how many the server counted exactly as requested
 * @param promptMaxAbsError largest |server prompt tokens − requested|
 * @param warnings        human-readable warnings, empty when all is as asked
 */
record LengthCheck(int checkedOutput, int outputExact, int outputShorter, int outputLonger, int eventCounted,
                          int checkedPrompt, int promptExact, int promptMaxAbsError, List<String> warnings) {

    public LengthCheck {
        warnings = List.copyOf(warnings);
    }

    /**
     * Checks finished requests. {@code forced} says whether exact output lengths were asked for
     * ({@link OutputControl#exact()}): then a shorter answer is a warning; otherwise only a longer one is.
     */
    public static LengthCheck of(Iterable<RequestRecord> records, boolean forced) {
        int checked = 0, exact = 0, shorter = 0, longer = 0, events = 0, pChecked = 0, pExact = 0, pMax = 0;
        for (RequestRecord r : records) {
            if (!r.isOk()) {
                continue;
            }
            RequestRecord.Tokens t = r.tokens();
            if (t.requestedOutputTokens() > 0) {
                checked++;
                if (t.tokenSource() == TokenSource.EVENTS) {
                    events++;
                }
                int d = t.outputTokens() - t.requestedOutputTokens();
                if (d == 0) exact++; else if (d < 0) shorter++; else longer++;
            }
            if (t.requestedPromptTokens() > 0 && t.promptTokens() > 0 && t.tokenSource() != TokenSource.EVENTS) {
                pChecked++;
                int d = Math.abs(t.promptTokens() - t.requestedPromptTokens());
                if (d == 0) pExact++;
                pMax = Math.max(pMax, d);
            }
        }
        List<String> w = new ArrayList<>();
        if (forced && shorter > 0) {
            w.add(String.format(Locale.ROOT, "%d of %d requests ended before their requested output length: "
                    + "the server seems to ignore ignore_eos/min_tokens (or a stop sequence fired)", shorter, checked));
        }
        if (longer > 0) {
            w.add(String.format(Locale.ROOT, "%d of %d requests produced more tokens than max_tokens: "
                    + "the server seems to ignore the output limit", longer, checked));
        }
        if (events > 0) {
            w.add(String.format(Locale.ROOT, "%d of %d requests were counted one token per event (no usage from the "
                    + "server): output lengths are not reliable", events, checked));
        }
        if (pChecked > pExact) {
            w.add(String.format(Locale.ROOT, "%d of %d prompts differ from the requested length (max |error| %d "
                    + "tokens): calibrate against the server's tokenizer", pChecked - pExact, pChecked, pMax));
        }
        return new LengthCheck(checked, exact, shorter, longer, events, pChecked, pExact, pMax, w);
    }

    /** True when no warning was raised. */
    public boolean ok() {
        return warnings.isEmpty();
    }
}
