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
        long dispatch = r.dispatchNanos();
        long stop = r.endNanos() >= 0 ? r.endNanos() : Math.max(r.lastTokenNanos(), dispatch);
        long l = Math.min(r.intendedNanos(), stop);
        long h = Math.max(r.intendedNanos(), stop);
        long rd = Math.max(Math.max(dispatch, r.endNanos()), Math.max(r.firstByteNanos(),
                Math.max(r.firstTokenNanos(), r.lastTokenNanos())));
        if (dispatch >= 0) {
            l = Math.min(l, dispatch);
            h = Math.max(h, dispatch);
        }
        long[] t = r.chunkNanos();
        int[] k = r.chunkTokens();
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
