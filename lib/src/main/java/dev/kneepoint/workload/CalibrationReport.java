package dev.kneepoint.workload;

import java.util.List;
import java.util.Locale;

/**
 * Achieved against requested prompt lengths, as the tokenizer counted them.
 *
 * @param tokenizer  where the counts came from ({@link TokenCounter#describe()})
 * @param exact      false when the counts are an estimate: then "achieved" is an estimate too
 * @param calls      tokenizer calls spent (calibration plus verification)
 * @param samples    one per verified request
 */
public record CalibrationReport(String tokenizer, boolean exact, int calls, List<Sample> samples) {

    /** One verified request: its index, tag, the requested and the achieved prompt length. */
    public record Sample(long index, String tag, int requested, int achieved) {
        /** achieved − requested. */
        public int error() {
            return achieved - requested;
        }
    }

    public CalibrationReport {
        samples = List.copyOf(samples);
    }

    /** Samples whose achieved length differs from the requested one. */
    public long mismatches() {
        return samples.stream().filter(s -> s.error() != 0).count();
    }

    /** Largest |achieved − requested|. */
    public int maxAbsError() {
        return samples.stream().mapToInt(s -> Math.abs(s.error())).max().orElse(0);
    }

    /** True when every sample hit its requested length exactly. */
    public boolean allExact() {
        return mismatches() == 0;
    }

    /** One line, e.g. {@code 32/32 prompts exact (max |error| 0) by server:... [exact]}. */
    public String summary() {
        return String.format(Locale.ROOT, "%d/%d prompts exact (max |error| %d tokens) by %s%s, %d tokenizer calls",
                samples.size() - mismatches(), samples.size(), maxAbsError(), tokenizer,
                exact ? "" : " [ESTIMATE]", calls);
    }
}
