package dev.kneepoint.analysis;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The client self-check in the readings and the knee verdict: the source article's "an underpowered load generator
 * fakes the server's ceiling". Each step's {@link dev.kneepoint.metrics.ClientCheck} says whether the client limited it.
 */
final class ClientReading {
    /** Steps this close (in ladder positions) to the knee make the knee verdict suspect when client-bound. */
    static final int NEAR_KNEE = 1;

    private ClientReading() {}

    static Reading of(LoadCurve l) {
        List<String> bound = new ArrayList<>();
        int measured = 0;
        for (int i = 0; i < l.size(); i++) {
            StepResult s = l.steps().get(i);
            measured += s.clientCheck().health().measured() ? 1 : 0;
            if (s.clientBound()) {
                bound.add(describe(s));
            }
        }
        if (!bound.isEmpty()) {
            return new Reading(Kind.CLIENT_BOUND, Status.APPLIES,
                    "client-bound: the load generator limited step" + (bound.size() == 1 ? " " : "s ")
                            + String.join(", ", bound.stream().map(b -> b.substring(0, b.indexOf(' '))).toList())
                            + "; their numbers understate what the server can do. Give the client more CPU, fewer "
                            + "other jobs, or a second client machine.",
                    String.join("; ", bound) + ".");
        }
        if (l.size() == 0) {
            return new Reading(Kind.CLIENT_BOUND, Status.INSUFFICIENT_DATA, "No steps.", "no steps");
        }
        String ev = measured == 0
                ? "client health was not measured (a run from an older version, or built by hand): only schedule lag "
                        + "was judged; no step's p99 exceeded its limit."
                : "every signal of " + measured + " measured step(s) within its limit (schedule lag, client CPU, GC "
                        + "pauses, probe delay); the thresholds are in summary.json's client_check.";
        return new Reading(Kind.CLIENT_BOUND, Status.DOES_NOT_APPLY,
                "The load generator kept up: no step was client-bound.", ev);
    }

    /** {@code rate=8 (client_cpu_pct 91.000 > 85.000, ...)}. */
    static String describe(StepResult s) {
        return s.info().label() + " (" + s.clientCheck().evidenceText() + ")";
    }

    /**
     * A warning line for the knee verdict, or {@code ""}: with a knee, client-bound steps within {@link #NEAR_KNEE}
     * of it; without one, client-bound steps among the top two (where the ladder stopped looking); and the
     * recommended operating point {@code top} when it is client-bound.
     */
    static String kneeWarning(LoadCurve l, int knee, int top) {
        int from = knee >= 0 ? Math.max(0, knee - NEAR_KNEE) : Math.max(0, l.size() - 2);
        int to = knee >= 0 ? Math.min(l.size() - 1, knee + NEAR_KNEE) : l.size() - 1;
        List<String> near = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            if (l.steps().get(i).clientBound()) {
                near.add(describe(l.steps().get(i)));
            }
        }
        if (top >= 0 && (top < from || top > to) && l.steps().get(top).clientBound()) {
            near.add(describe(l.steps().get(top)) + " (the recommended operating point)");
        }
        if (near.isEmpty()) {
            return "";
        }
        return "Warning: client-bound step(s) " + (knee >= 0 ? "near the knee" : "at the top of the ladder") + ": "
                + String.join("; ", near) + ". The load generator, not the server, may have made this "
                + (knee >= 0 ? "knee" : "ceiling") + "; rerun with a stronger or less loaded client before trusting it.\n";
    }
}
