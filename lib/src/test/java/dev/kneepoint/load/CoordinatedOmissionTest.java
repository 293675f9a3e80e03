package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.RequestRecord;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The worked coordinated-omission scenario (METRICS.md, STYLE.md): a server that answers in 10 ms but
 * stalls for one second, seen by an open-loop and a closed-loop client.
 *
 * <p>Server: a request dispatched in [1 s, 2 s) of the run clock gets its first token at 2 s; any other
 * request after 10 ms. Expected numbers (the open-loop plan starts ~5 ms after the run clock's zero):
 *
 * <pre>
 * (percentiles are nearest-rank: p90 of 30 values is the 27th smallest, p99 the largest)
 * open loop, 10 req/s for 3 s, uncapped (30 requests, at ~5, 105, ..., 2905 ms)
 *   10 requests land in the stall and wait 995, 895, ..., 95 ms
 *   ttft        p50 10 ms   p90 ~695 ms   p99 ~995 ms   (service view, from t_dispatch)
 *   ttft_sched  p50 10 ms   p90 ~695 ms   p99 ~995 ms   (user view, from t_intended; lag ~0)
 * closed loop, 1 user for 5 s (~400 requests; 5 s rather than 3 so that > 100 fit even on a loaded machine)
 *   the user sends one request into the stall and waits; nobody else is asking meanwhile
 *   ttft = ttft_sched   p50 10 ms   p99 10 ms   max ~1 s: 1 request in ~400 saw the stall
 * open loop, 10 req/s, in-flight cap 1 with QUEUE (client-side queueing, 30 requests)
 *   one request waits 995 ms at the server; 10 more wait in the client's queue, then get 10 ms service
 *   ttft        p90 10 ms     (the client's queue hides the stall from the service view)
 *   ttft_sched  p90 ~725 ms   (the user view still sees it: 905, 815, ..., 95 ms late)
 * </pre>
 *
 * So the closed loop reports a healthy p99 of 10 ms for a server that was dead for a third of the run;
 * the open loop's p99 says ~1 s. Tolerances: scheduling noise only ever lengthens a wait, so lower bounds
 * are tight and upper bounds loose (+300 ms on the stall figures; 100 ms on the 10 ms figures, still a
 * tenth of the stall they must not show); the structural counts (10 stalled, 1 stalled) are exact, checked
 * per request against the hard bound "no first token before the stall ends", or with a 500 ms threshold
 * that noise cannot move a 10 ms request across.
 */
class CoordinatedOmissionTest {
    private static final long STALL_START = ms(1000);
    private static final long STALL_END = ms(2000);

    private static FakeSender stallingServer() {
        return new FakeSender(d -> d >= STALL_START && d < STALL_END ? Math.max(d + ms(10), STALL_END) : d + ms(10));
    }

    private static long p(List<RequestRecord> rs, boolean sched, double percentile) {
        return RecordingListener.percentile(rs, sched ? RequestRecord::ttftSchedNanos : RequestRecord::ttftNanos,
                percentile);
    }

    private static long countOver(List<RequestRecord> rs, long nanos, boolean sched) {
        return rs.stream().filter(r -> (sched ? r.ttftSchedNanos() : r.ttftNanos()) > nanos).count();
    }

    @Test
    void openLoopSeesTheStallClosedLoopHidesIt() {
        RecordingListener open = new RecordingListener();
        OpenLoopTest.run(OpenLoopStep.builder().arrival(ArrivalPlan.constant(10)).duration(Duration.ofSeconds(3))
                .build(), stallingServer(), open);
        List<RequestRecord> o = open.of("rate=10");

        RecordingListener closed = new RecordingListener();
        ClosedLoopTest.run(ClosedLoopStep.builder().concurrency(1).duration(Duration.ofSeconds(5)).build(),
                stallingServer(), closed);
        List<RequestRecord> c = closed.of("c=1");

        assertThat(o).hasSize(30).allMatch(RequestRecord::isOk);
        // The 10 requests planned in the stall window each wait for its end: they cannot be dispatched before
        // their plan, so ttft_sched >= 2 s - intended is a hard bound (95 .. 995 ms). Those dispatched outside
        // the window are healthy (10 ms): the 20 planned outside it, give or take one, as a late dispatch can
        // carry the one planned just before the window into it (seen when setup delayed the plan to ~95 ms),
        // or the last one planned in it out of it (then it waited >= 100 ms for nothing but noise). A single
        // threshold cannot separate them robustly (the shortest stalled wait is ~95 ms, and a healthy request
        // crossed 90 ms under load), so the healthy ones get 500 ms: a healthy request needs 490 ms of
        // scheduling noise to cross it, a stalled view of them would be ~1 s.
        assertThat(o)
                .filteredOn(r -> r.timing().intendedNanos() >= STALL_START && r.timing().intendedNanos() < STALL_END)
                .hasSize(10)
                .allMatch(r -> r.ttftSchedNanos() >= STALL_END - r.timing().intendedNanos());
        assertThat(o)
                .filteredOn(r -> r.timing().dispatchNanos() < STALL_START || r.timing().dispatchNanos() >= STALL_END)
                .hasSizeBetween(19, 21).allMatch(r -> r.ttftSchedNanos() < ms(500));
        assertThat(p(o, true, 99)).isBetween(ms(900), ms(1300));
        // TTFT from dispatch: the slowest (p99 of 30 is the maximum) is the first request dispatched in the stall,
        // which waits for its end, so >= STALL_END - its dispatch (hard). How much of the stall that is depends on
        // how late the scheduler fired it (5 ms after the stall's start normally), so the absolute bound is 500 ms,
        // as for the counts: the healthy ones would need 490 ms of noise to reach it.
        assertThat(p(o, false, 99)).isGreaterThanOrEqualTo(STALL_END - firstDispatchInStall(o))
                .isBetween(ms(500), ms(1300));
        assertThat(p(o, true, 90)).isBetween(ms(600), ms(900));
        assertThat(p(o, false, 50)).isLessThan(ms(100));

        // ~400 requests of ~10 ms in the four healthy seconds (98 were seen in two healthy seconds under load: ~20 ms
        // per request). More than 100 is what the scenario needs, and all that is asserted (it was 120, i.e. 33 ms
        // per request at most): nearest-rank p99 of 100 or fewer values is the maximum, i.e. the stalled request.
        assertThat(c.size()).isGreaterThan(100);
        assertThat(c).allMatch(RequestRecord::isOk);
        // Exactly one request saw the stall (it waits ~990 ms; the one user sends nothing meanwhile). Threshold
        // 500 ms: a healthy 10 ms request needs 490 ms of scheduling noise to cross it (90 ms was crossed under
        // load), the stalled one would have to be dispatched 490 ms late to fall below it.
        assertThat(countOver(c, ms(500), false)).isEqualTo(1);
        assertThat(countOver(c, ms(500), true)).isEqualTo(1);
        // p99 (nearest rank: the 3rd largest of ~200) stays "healthy": ~10 ms. 300 ms lets two healthy requests
        // be slowed by noise and still fails a closed loop whose p99 showed the stall (>= 900 ms).
        assertThat(p(c, false, 99)).isLessThan(ms(300));
        assertThat(p(c, true, 99)).isLessThan(ms(300));
        // The maximum is that request, which waits from its dispatch to the stall's end (hard), most of the stall: the
        // user's first dispatch after 1 s comes one ~10 ms request after it, or later on a loaded machine (it was
        // bounded at 900 ms, which one loaded run here undercut), hence 500 ms as above.
        assertThat(p(c, false, 100)).isGreaterThanOrEqualTo(STALL_END - firstDispatchInStall(c))
                .isBetween(ms(500), ms(1300));
    }

    /** The dispatch time of the first request dispatched inside the stall window. */
    private static long firstDispatchInStall(List<RequestRecord> rs) {
        return rs.stream().mapToLong(r -> r.timing().dispatchNanos()).filter(d -> d >= STALL_START && d < STALL_END)
                .min().orElseThrow();
    }

    @Test
    void aClientSideQueueHidesTheStallFromTtftButNotFromTtftSched() {
        RecordingListener queued = new RecordingListener();
        OpenLoopTest.run(OpenLoopStep.builder().arrival(ArrivalPlan.constant(10)).duration(Duration.ofSeconds(3))
                .maxInFlight(1, CapPolicy.QUEUE).build(), stallingServer(), queued);
        List<RequestRecord> q = queued.of("rate=10");

        assertThat(q).hasSize(30).allMatch(RequestRecord::isOk);
        // Only the request that reached the server during the stall has a long service time (~995 ms; the
        // others 10 ms: threshold 500 ms, as above, so that scheduling noise cannot move one across it) ...
        assertThat(countOver(q, ms(500), false)).isEqualTo(1);
        assertThat(p(q, false, 90)).isLessThan(ms(100));
        // ... while the 10 planned in the stall window (the one at the server and the 9 queued behind it) were
        // late for the user too: none can get its first token before the stall ends, so ttft_sched >= 2 s -
        // intended (95 .. 995 ms) is a hard bound. (A count over one threshold is not: request 20, planned just
        // after the stall, waits ~95 ms behind the draining queue, and noise accumulating over the drain moves
        // it.) Those planned from 2.1 s on find the queue drained (it empties by ~2.1 s): healthy, < 500 ms.
        assertThat(q)
                .filteredOn(r -> r.timing().intendedNanos() >= STALL_START && r.timing().intendedNanos() < STALL_END)
                .hasSize(10)
                .allMatch(r -> r.ttftSchedNanos() >= STALL_END - r.timing().intendedNanos());
        // (9 of them when the plan starts ~5 ms after the run clock's zero, 10 if setup delayed it by > 100 ms)
        assertThat(q).filteredOn(r -> r.timing().intendedNanos() >= STALL_END + ms(100)).hasSizeBetween(9, 10)
                .allMatch(r -> r.ttftSchedNanos() < ms(500));
        assertThat(p(q, true, 90)).isBetween(ms(600), ms(1000));
    }
}
