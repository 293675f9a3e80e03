package dev.kneepoint.scenario;

import java.util.Locale;

/**
 * A run of consecutive intervals whose failure counts were each far above the soak's failure rate.
 *
 * @param startS          start of the first interval, seconds on the run clock
 * @param endS            end of the last interval
 * @param failures        failures in these intervals
 * @param expected        failures expected there at the rate of the other intervals
 * @param pValue          smallest per-interval Poisson tail probability {@code P(X >= k)} in the burst
 */
public record FailureBurst(double startS, double endS, long failures, double expected, double pValue) {

    public String describe() {
        return String.format(Locale.ROOT, "failure burst %.1f-%.1f s: %d failures, %.2f expected (p=%.2g)",
                startS, endS, failures, expected, pValue);
    }
}
