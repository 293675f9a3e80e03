package dev.kneepoint.cli;

import dev.kneepoint.metrics.Slo;
import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.sweep.SweepDefaults;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * What a ladder is held to: the latency objectives its goodput counts, and the bounds that stop it after a step
 * that breaks them. None is set unless given (the sweep's default: no SLO, no early stop).
 */
final class SloOptions {
    @Option(names = "--slo-ttft", description = "SLO on TTFT for goodput, e.g. 500ms")
    Duration sloTtft;

    @Option(names = "--slo-tpot", description = "SLO on TPOT for goodput, e.g. 50ms")
    Duration sloTpot;

    @Option(names = "--slo-e2e", description = "SLO on end-to-end latency for goodput, e.g. 10s")
    Duration sloE2e;

    @Option(names = "--slo-search", paramLabel = "concurrency|rate", description = "Search for the highest load at "
            + "which the SLO set holds for --slo-attainment of requests: closed-loop users from 1, or open-loop rates "
            + "from a one-user probe's rate, doubling then bisecting (replaces --concurrency / --rate)")
    String sloSearch;

    @Option(names = "--slo-attainment", paramLabel = "FRACTION", description = "Share of requests a searched load "
            + "must keep within every objective, failures counting as misses (default: "
            + SweepDefaults.SLO_ATTAINMENT + ")")
    Double sloAttainment;

    @Option(names = "--slo-tolerance", paramLabel = "FRACTION", description = "A rate search ends when its bracket is "
            + "this narrow relative to the passing rate (default: " + SweepDefaults.SLO_SEARCH_TOLERANCE + ")")
    Double sloTolerance;

    @Option(names = "--slo-max-probes", paramLabel = "N", description = "The most probe steps of an SLO search "
            + "(default: " + SweepDefaults.SLO_SEARCH_MAX_PROBES + ")")
    Integer sloMaxProbes;

    @Option(names = "--stop-failure-rate", description = "Stop the ladder after a step failing more than this fraction")
    Double stopFailureRate;

    @Option(names = "--stop-p99-ttft", description = "Stop the ladder after a step whose p99 TTFT exceeds this")
    Duration stopP99Ttft;

    /** {@code sweep} with the objectives and stop bounds given; returns it. */
    Sweep applyTo(Sweep sweep) {
        if (sloTtft != null || sloTpot != null || sloE2e != null) {
            Slo.Builder slo = Slo.builder();
            Given.set(sloTtft, d -> slo.ttftMs(millis(d)));
            Given.set(sloTpot, d -> slo.tpotMs(millis(d)));
            Given.set(sloE2e, d -> slo.e2eMs(millis(d)));
            sweep.slo(slo.build());
        }
        if (sloSearch == null && (sloAttainment != null || sloTolerance != null || sloMaxProbes != null)) {
            throw new IllegalArgumentException("--slo-attainment, --slo-tolerance and --slo-max-probes apply to an SLO "
                    + "search only: add --slo-search concurrency|rate");
        }
        if (sloSearch != null) {
            sweep.sloSearch(sloSearch);
            Given.set(sloAttainment, sweep::sloAttainment);
            Given.set(sloTolerance, sweep::sloSearchTolerance);
            Given.set(sloMaxProbes, sweep::sloSearchMaxProbes);
        }
        Given.set(stopFailureRate, sweep::stopWhenFailureRateAbove);
        Given.set(stopP99Ttft, sweep::stopWhenP99TtftAbove);
        return sweep;
    }

    private static double millis(Duration d) {
        return d.toNanos() / 1e6;
    }
}
