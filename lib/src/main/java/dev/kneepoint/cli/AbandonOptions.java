package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * Users who give up ({@link dev.kneepoint.load.Abandonment}): {@code --cancel-rate F} with {@code --cancel-after D} or
 * {@code --cancel-after-tokens N}.
 */
final class AbandonOptions {
    @Option(names = "--cancel-rate", paramLabel = "SHARE", description = "Give up this share of the requests "
            + "mid-request, as users who close the page (e.g. 0.1): each is closed --cancel-after its dispatch and "
            + "ends ABANDONED, neither OK nor failed; the same requests in every rerun of a seed")
    Double rate;

    @Option(names = "--cancel-after", paramLabel = "DURATION", description = "How long after its dispatch a request "
            + "of --cancel-rate is given up, e.g. 500ms")
    Duration after;

    @Option(names = "--cancel-after-tokens", paramLabel = "N", description = "Instead of --cancel-after: a request of "
            + "--cancel-rate is given up once it received N output tokens (a few more may arrive before it closes)")
    Integer afterTokens;

    /** {@code sweep} giving up requests as asked, when asked; returns it. */
    Sweep applyTo(Sweep sweep) {
        if (rate == null && after == null && afterTokens == null) {
            return sweep;
        }
        if (rate == null) {
            throw new IllegalArgumentException((after != null ? "--cancel-after" : "--cancel-after-tokens")
                    + " needs --cancel-rate SHARE: give both, e.g. --cancel-rate 0.1 --cancel-after 500ms");
        }
        if ((after == null) == (afterTokens == null)) {
            throw new IllegalArgumentException("--cancel-rate needs one of --cancel-after DURATION or "
                    + "--cancel-after-tokens N" + (after != null ? ", not both" : "") + ", e.g. --cancel-rate 0.1 "
                    + "--cancel-after 500ms");
        }
        return after != null ? sweep.abandon(rate, after) : sweep.abandonAfterTokens(rate, afterTokens);
    }
}
