package dev.kneepoint.metrics;

/**
 * A background record with the hull of the times that can place it in a step's window: its intended start,
 * dispatch, end (as the windowed facts take it) and token arrivals; and its latest clock reading.
 * {@link BackgroundAggregator} offers a record to a step with it, and holds it while a later step may still need it.
 */
final class RecordSpan {
    final RequestRecord record;
    /** Earliest time that can place the record in a window. */
    final long lo;
    /** Latest time that can place the record in a window. */
    final long hi;
    /** Latest clock reading the record carries (its intended start aside: that is planned, not read). */
    final long read;

    RecordSpan(RequestRecord r) {
        this.record = r;
        RequestRecord.Timing timing = r.timing();
        long dispatch = timing.dispatchNanos();
        long stop = timing.endNanos() >= 0 ? timing.endNanos() : Math.max(timing.lastTokenNanos(), dispatch);
        long l = Math.min(timing.intendedNanos(), stop);
        long h = Math.max(timing.intendedNanos(), stop);
        long rd = Math.max(Math.max(dispatch, timing.endNanos()), Math.max(timing.firstByteNanos(),
                Math.max(timing.firstTokenNanos(), timing.lastTokenNanos())));
        if (dispatch >= 0) {
            l = Math.min(l, dispatch);
            h = Math.max(h, dispatch);
        }
        long[] t = timing.chunkNanos();
        int[] k = timing.chunkTokens();
        for (int i = 0; i < t.length; i++) {
            rd = Math.max(rd, t[i]);
            if (k[i] > 0 && t[i] >= 0) {
                l = Math.min(l, t[i]);
                h = Math.max(h, t[i]);
            }
        }
        this.lo = l;
        this.hi = h;
        this.read = rd;
    }
}
