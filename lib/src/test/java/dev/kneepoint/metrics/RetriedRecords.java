package dev.kneepoint.metrics;

import static dev.kneepoint.metrics.TestRecords.ok;

import java.util.ArrayList;
import java.util.List;

/** Records resent on a fresh connection ({@link RequestRecord.Response#retried()}) and not, for tests; times in ms. */
public final class RetriedRecords {
    private RetriedRecords() {}

    public static RequestRecord failed(long id, String step, double dispatchMs, double endMs, Outcome outcome,
                                boolean retried) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = step;
        b.intendedNanos = TestRecords.nanos(dispatchMs);
        b.dispatchNanos = outcome instanceof Outcome.Dropped ? RequestRecord.ABSENT : TestRecords.nanos(dispatchMs);
        b.endNanos = TestRecords.nanos(endMs);
        b.outcome = outcome;
        b.promptTokens = 100;
        b.retried = retried;
        return b.build();
    }

    public static RequestRecord okRecord(long id, String step, double dispatchMs, boolean retried, boolean warmup) {
        RequestRecord.Builder b = ok(id, step, dispatchMs, dispatchMs, new double[] {dispatchMs + 10, dispatchMs + 20},
                new int[] {1, 1});
        b.retried = retried;
        b.warmup = warmup;
        return b.build();
    }

    /**
     * Nine records: counted are OK #1 and #2 (resent), HTTP 503 #4 and connection error #5 (resent); not counted are
     * OK #3 and timeout #6 (sent once), the dropped #7 (never sent), the resent warm-up OK #8 and the resent cancelled
     * #9. So retried = 4 of requestsOk 3 + requestsFailed 4.
     */
    public static List<RequestRecord> scripted(String step) {
        List<RequestRecord> rs = new ArrayList<>();
        rs.add(okRecord(1, step, 1000, true, false));
        rs.add(okRecord(2, step, 1100, true, false));
        rs.add(okRecord(3, step, 1200, false, false));
        rs.add(failed(4, step, 1300, 1400, new Outcome.HttpError(503, "busy"), true));
        rs.add(failed(5, step, 1300, 1350, new Outcome.ConnectionError("reset"), true));
        rs.add(failed(6, step, 1400, 1900, new Outcome.Timeout(Outcome.TimeoutKind.IDLE), false));
        rs.add(failed(7, step, 1500, 1500, Outcome.DROPPED, false));
        rs.add(okRecord(8, step, 500, true, true));
        rs.add(failed(9, step, 1600, 1700, Outcome.CANCELLED, true));
        return rs;
    }
}
