package dev.kneepoint.cli.peers;

import dev.kneepoint.io.PeerPoint;
import java.util.List;

/**
 * One invocation of one tool by {@code bench/peers.sh}: what it was asked, the CPU its process tree used
 * ({@code /usr/bin/time}: user and system time of the tool and every child it waited for) and the load
 * levels it reported.
 *
 * @param name the run directory's name
 * @param tool {@code kneepoint}, {@code aiperf} or {@code guidellm}
 * @param kind {@code closed} or {@code open}
 * @param load what was asked, as the script wrote it ({@code 8:400} = concurrency 8, 400 requests; {@code 25,50} = rates)
 * @param exitCode the tool's exit status
 * @param userS user CPU, s
 * @param sysS system CPU, s
 * @param wallS wall time, s
 * @param loadAverage the machine's load average when the run ended
 * @param points the load levels the tool reported (empty when it failed)
 * @param error why the output could not be read, or null
 * @param loadPhase the tool's CPU while the server generated tokens for it ({@code cpu_samples.tsv}), or null
 */
public record PeerRun(String name, String tool, String kind, String load, int exitCode, double userS, double sysS,
        double wallS, String loadAverage, List<PeerPoint> points, String error, LoadPhase loadPhase) {

    public PeerRun {
        points = List.copyOf(points);
    }

    /** A run without load-phase samples. */
    public PeerRun(String name, String tool, String kind, String load, int exitCode, double userS, double sysS,
            double wallS, String loadAverage, List<PeerPoint> points, String error) {
        this(name, tool, kind, load, exitCode, userS, sysS, wallS, loadAverage, points, error, null);
    }

    /** User plus system CPU, s. */
    public double cpuS() {
        return userS + sysS;
    }

    /** Output tokens received over all points. */
    public long outputTokens() {
        return points.stream().mapToLong(PeerPoint::outputTokens).sum();
    }
}
