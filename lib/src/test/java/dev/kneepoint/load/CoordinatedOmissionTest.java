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
 * closed loop, 1 user for 3 s (~200 requests)
 *   the user sends one request into the stall and waits; nobody else is asking meanwhile
 *   ttft = ttft_sched   p50 10 ms   p99 10 ms   max ~1 s: 1 request in ~200 saw the stall
 * open loop, 10 req/s, in-flight cap 1 with QUEUE (client-side queueing, 30 requests)
 *   one request waits 995 ms at the server; 10 more wait in the client's queue, then get 10 ms service
 *   ttft        p90 10 ms     (the client's queue hides the stall from the service view)
 *   ttft_sched  p90 ~725 ms   (the user view still sees it: 905, 815, ..., 95 ms late)
 * </pre>
 *
 * So the closed loop reports a healthy p99 of 10 ms for a server that was dead for a third of the run;
 * the open loop's p99 says ~1 s. Tolerances: scheduling noise only ever lengthens a wait, so lower bounds
 * are tight and upper bounds loose (+300 ms on the stall figures; 100 ms on the 10 ms figures, still a
 * tenth of the stall they must not show); the structural counts (10 stalled, 1 stalled) are exact.
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
        ClosedLoopTest.run(ClosedLoopStep.builder().concurrency(1).duration(Duration.ofSeconds(3)).build(),
                stallingServer(), closed);
        List<RequestRecord> c = closed.of("c=1");

        assertThat(o).hasSize(30).allMatch(RequestRecord::isOk);
        // Threshold 90 ms: the shortest stalled wait is ~95 ms (planned at ~1905 ms, answered at 2000 ms) and
        // noise only lengthens it; a healthy 10 ms request would need 80 ms of scheduling noise to cross it
        // (50 ms was crossed once on this 2-core machine under a parallel build).
        assertThat(countOver(o, ms(90), true)).isEqualTo(10);
        assertThat(p(o, true, 99)).isBetween(ms(900), ms(1300));
        assertThat(p(o, false, 99)).isBetween(ms(900), ms(1300));
        assertThat(p(o, true, 90)).isBetween(ms(600), ms(900));
        assertThat(p(o, false, 50)).isLessThan(ms(30));

        // ~200 requests of ~10 ms in the two healthy seconds; at least 120 even on a slow machine.
        assertThat(c.size()).isGreaterThan(120);
        assertThat(c).allMatch(RequestRecord::isOk);
        assertThat(countOver(c, ms(90), false)).isEqualTo(1);
        assertThat(countOver(c, ms(90), true)).isEqualTo(1);
        assertThat(p(c, false, 99)).isLessThan(ms(100));
        assertThat(p(c, true, 99)).isLessThan(ms(100));
        assertThat(p(c, false, 100)).isBetween(ms(900), ms(1300));
    }

    @Test
    void aClientSideQueueHidesTheStallFromTtftButNotFromTtftSched() {
        RecordingListener queued = new RecordingListener();
        OpenLoopTest.run(OpenLoopStep.builder().arrival(ArrivalPlan.constant(10)).duration(Duration.ofSeconds(3))
                .maxInFlight(1, CapPolicy.QUEUE).build(), stallingServer(), queued);
        List<RequestRecord> q = queued.of("rate=10");

        assertThat(q).hasSize(30).allMatch(RequestRecord::isOk);
        // Only the request that reached the server during the stall has a long service time ...
        assertThat(countOver(q, ms(50), false)).isEqualTo(1);
        assertThat(p(q, false, 90)).isLessThan(ms(100));
        // ... while the 10 queued behind it (planned at ~1.1 .. 2.0 s) were late for the user too: the one
        // at the server and the first 9 in the queue waited >= 185 ms.
        // (Threshold 140 ms: between i=20's ~95 ms and i=19's ~185 ms, so per-request wake-up overhead
        // accumulating over the queue cannot move a request across it.)
        assertThat(countOver(q, ms(140), true)).isEqualTo(10);
        assertThat(p(q, true, 90)).isBetween(ms(600), ms(1000));
    }
}
