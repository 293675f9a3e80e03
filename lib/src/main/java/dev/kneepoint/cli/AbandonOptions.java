package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Users who give up ({@link dev.kneepoint.load.Abandonment}): {@code --cancel-rate F --cancel-after D}. */
final class AbandonOptions {
    @Option(names = "--cancel-rate", paramLabel = "SHARE", description = "Give up this share of the requests "
            + "mid-request, as users who close the page (e.g. 0.1): each is closed --cancel-after its dispatch and "
            + "ends ABANDONED, neither OK nor failed; the same requests in every rerun of a seed")
    Double rate;

    @Option(names = "--cancel-after", paramLabel = "DURATION", description = "How long after its dispatch a request "
            + "of --cancel-rate is given up, e.g. 500ms")
    Duration after;

    /** {@code sweep} giving up requests as asked, when asked; returns it. */
    Sweep applyTo(Sweep sweep) {
        if (rate == null && after == null) {
            return sweep;
        }
        if (rate == null || after == null) {
            throw new IllegalArgumentException((rate == null ? "--cancel-after needs --cancel-rate SHARE"
                    : "--cancel-rate needs --cancel-after DURATION") + ": give both, e.g. --cancel-rate 0.1 "
                    + "--cancel-after 500ms");
        }
        return sweep.abandon(rate, after);
    }
}
