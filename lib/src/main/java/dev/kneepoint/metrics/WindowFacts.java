package dev.kneepoint.metrics;

import java.util.Arrays;

/**
 * The time facts of a step's requests that the windowed rates need (METRICS.md): output tokens arriving in the
 * window, prompt tokens of requests dispatched in it, outcomes ending in it, and the time requests spent in
 * flight inside it. Not thread-safe: {@link StepAggregator} guards it.
 *
 * <p>Each record's facts become an entry (its dispatch, end, prompt tokens and flags, the latest time it carries,
 * and its token arrivals packed as {@code t << 14 | tokens}). An entry is <em>settled</em> (added to running
 * sums, then forgotten) once its contribution no longer depends on what is still unknown of the window; until
 * then it waits in a first-in-first-out queue. Three modes:
 * <ul>
 *   <li><b>kept</b> (no window known): every entry waits until {@link #rates}: 8 bytes per token-carrying event
 *       and 40 per request.</li>
 *   <li><b>known</b> (a run read back: the window is given first): every entry is settled as it comes.</li>
 *   <li><b>planned</b> (a live step with a {@link WindowPlan}): the window's start {@code W} is known, its end
 *       {@code E} is not, but {@code E >= min(cap, M)}, where {@code M} is the latest time carried by any record
 *       added before {@link #loadStopping()} (each such time is a clock reading taken before that call, and the
 *       end is read after it: {@link WindowPlan}). So an entry whose latest time {@code L} is below
 *       {@code min(cap, M)} has {@code L < E}: every one of its times {@code x} is inside the window exactly
 *       when {@code x >= W}, and its in-flight time inside the window is {@code end - max(dispatch, W)}, the
 *       same numbers the full window gives it. Such entries are settled at once; while the step issues load
 *       the queue holds only the few records at the frontier of {@code M}, and after it stops only the drained
 *       ones. If the window turns out empty (the step ended before {@code W}), every rate is NaN whatever was
 *       summed, as with the window itself.</li>
 *   <li><b>covering</b> ({@link #cover()}: a run's background total, whose window is known only at the end but
 *       contains every record's own span, from its intended start (or 0) to its end): an entry whose counted
 *       times all lie in its span is settled at once, window-free; any other waits until {@link #rates}.</li>
 * </ul>
 * A kept or planned step may learn its window before its last record ({@link #know}: background traffic keeps
 * arriving after the step ended): the waiting entries are then settled over it, and later ones as they come.
 * Exactness: the integer sums do not depend on the order of additions; the in-flight time is a sum of doubles,
 * and the queue settles entries strictly in arrival order, so it is added term by term in the same order, with
 * the same terms, as when every entry is kept until the end: the result is the same bit for bit. (Covering mode
 * settles out of order; its terms are whole nanoseconds, which doubles add exactly in any order while the sum
 * stays below 2^53 ns, 104 days.)
 */
final class WindowFacts {
    private static final int TOKEN_BITS = 14;
    private static final int MAX_TOKENS = (1 << TOKEN_BITS) - 1;
    private static final byte OK = 1;
    private static final byte GOOD = 2;
    /** Cancelled or abandoned ({@link Outcome#neutral()}): not a completed request. */
    private static final byte NEUTRAL = 4;
    /** dispatch, end, items << 40 | prompt tokens << 8 | flags, latest time carried, end index of its arrivals. */
    private static final int SPAN = 5;
    /** Items of one pooling answer kept (24 bits above 32 of prompt tokens and 8 of flags). */
    private static final long MAX_ITEMS = (1L << 24) - 1;
    private static final long PROMPT_MASK = (1L << 32) - 1;

    private StepWindow known;
    private boolean planned;
    private boolean covering;
    /** Covering mode: the lowest start and highest end of the spans of the entries settled window-free. */
    private long coveredLo = Long.MAX_VALUE;
    private long coveredHi = Long.MIN_VALUE;
    private long planStart;
    private long planCap;
    private boolean stopped;
    /** Latest time carried by any record added before {@link #loadStopping()}. */
    private long seen = Long.MIN_VALUE;
    /** Latest time carried by an entry settled before the window was known. */
    private long settledLatest = Long.MIN_VALUE;
    private long lastEnd = -1;

    private long[] spans = new long[SPAN * 16];
    private int head;
    private int count;
    private long[] arrivals = new long[256];
    private int arrivalHead;
    private int arrivalCount;

    private final Sums sums = new Sums();

    /** Keeps every entry until the window is known. */
    WindowFacts() {
        this(null);
    }

    /** Settles every entry as it comes for the window {@code known} (null: keeps them); {@link #rates} must get it. */
    WindowFacts(StepWindow known) {
        this.known = known;
    }

    /**
     * From now on the window starts at {@code plan.startNanos()} (or is empty) and ends at least at
     * {@code min(plan.endCapNanos(), M)}: see the class comment. Call before {@link #loadStopping()}.
     */
    void plan(WindowPlan plan) {
        if (known != null) {
            throw new IllegalStateException("the window is already known");
        }
        planned = true;
        planStart = plan.startNanos();
        planCap = plan.endCapNanos();
        settle();
    }

    /**
     * Covering mode (a run's background total, whose window is known only at the end): the window will contain each
     * record's own span {@code [max(0, intended), max(end, lastToken)]}. An entry whose every counted time lies in its
     * span is settled at once, window-free (the window cannot cut it); any other entry waits for {@link #rates}.
     * Call before the first {@link #add}.
     */
    void cover() {
        if (known != null || planned || count > 0) {
            throw new IllegalStateException("cover() must come first, on facts without a window or plan");
        }
        covering = true;
    }

    /**
     * The window is now known (the step ended): the waiting entries are settled over it, in order, and every later
     * entry as it comes; {@link #rates} must then get this window.
     *
     * @throws IllegalArgumentException when {@code w} breaks the plan (as {@link #rates} would say)
     */
    void know(StepWindow w) {
        if (known != null) {
            if (!known.equals(w)) {
                throw new IllegalArgumentException("the window is already known as " + known + ", not " + w);
            }
            return;
        }
        if (covering) {
            throw new IllegalStateException("covering facts are read over their window only by rates()");
        }
        checkPlan(w);
        known = w;
        planned = false;
        settle();
    }

    /** The step stops issuing load: records added from now on no longer bound the window's end. */
    void loadStopping() {
        stopped = true;
    }

    void add(RequestRecord r, boolean good) {
        RequestRecord.Timing timing = r.timing();
        long[] t = timing.chunkNanos();
        int[] k = timing.chunkTokens();
        long dispatch = timing.dispatchNanos();
        long end = timing.endNanos() >= 0 ? timing.endNanos() : Math.max(timing.lastTokenNanos(), dispatch);
        long latest = Math.max(dispatch, end);
        long from = known != null ? known.startNanos() : planned ? planStart : Long.MIN_VALUE;
        long lo = Math.max(0, timing.intendedNanos());
        long hi = Math.max(timing.endNanos(), timing.lastTokenNanos());
        boolean inSpan = end >= lo && end <= hi && (dispatch < 0 || dispatch >= lo && dispatch <= hi);
        ensureSpan();
        int firstArrival = arrivalCount;
        for (int i = 0; i < t.length; i++) {
            int tokens = k[i];
            if (tokens <= 0 || t[i] < 0) {
                continue;
            }
            latest = Math.max(latest, t[i]);
            inSpan &= t[i] >= lo && t[i] <= hi;
            while (tokens > 0 && t[i] >= from) { // before the window's start: never counted
                int part = Math.min(tokens, MAX_TOKENS);
                addArrival(t[i] << TOKEN_BITS | part);
                tokens -= part;
            }
        }
        int flags = (r.isOk() ? OK : 0) | (good ? GOOD : 0) | (r.outcome().neutral() ? NEUTRAL : 0);
        int s = SPAN * count;
        spans[s] = dispatch;
        spans[s + 1] = end;
        long items = Math.min(Math.max(0, r.response().items()), MAX_ITEMS);
        spans[s + 2] = items << 40 | (long) Math.max(0, r.tokens().promptTokens()) << 8 | flags;
        spans[s + 3] = latest;
        spans[s + 4] = arrivalCount;
        count++;
        lastEnd = Math.max(lastEnd, end);
        if (!stopped) {
            seen = Math.max(seen, latest);
        }
        if (covering && inSpan) { // settled window-free at once: the final window contains [lo, hi]
            sums.add(spans, s, arrivals, firstArrival, Long.MIN_VALUE, Long.MAX_VALUE);
            coveredLo = Math.min(coveredLo, lo);
            coveredHi = Math.max(coveredHi, hi);
            count--;
            arrivalCount = firstArrival;
            return;
        }
        settle();
    }

    /** Settles queued entries from the head for as long as their facts no longer depend on the unknown end. */
    private void settle() {
        while (head < count) {
            int s = SPAN * head;
            if (known != null) {
                sums.add(spans, s, arrivals, arrivalHead, known.startNanos(), known.endNanos());
            } else if (planned && spans[s + 3] < Math.min(planCap, seen)) {
                sums.add(spans, s, arrivals, arrivalHead, planStart, Long.MAX_VALUE); // end > latest: see class comment
                settledLatest = Math.max(settledLatest, spans[s + 3]);
            } else {
                return;
            }
            arrivalHead = (int) spans[s + 4];
            head++;
        }
        head = 0;
        count = 0;
        arrivalHead = 0;
        arrivalCount = 0;
    }

    private void ensureSpan() {
        if (SPAN * count + SPAN <= spans.length) {
            return;
        }
        compact();
        if (SPAN * count + SPAN > spans.length) {
            spans = Arrays.copyOf(spans, spans.length * 2);
        }
    }

    private void addArrival(long packed) {
        if (arrivalCount == arrivals.length) {
            compact();
            if (arrivalCount == arrivals.length) {
                arrivals = Arrays.copyOf(arrivals, arrivals.length * 2);
            }
        }
        arrivals[arrivalCount++] = packed;
    }

    /** Moves the queue (and the entry being added, whose span is not written yet) to the arrays' beginnings. */
    private void compact() {
        if (head == 0) {
            return;
        }
        System.arraycopy(spans, SPAN * head, spans, 0, SPAN * (count - head));
        for (int i = 0; i < count - head; i++) {
            spans[SPAN * i + 4] -= arrivalHead;
        }
        System.arraycopy(arrivals, arrivalHead, arrivals, 0, arrivalCount - arrivalHead);
        count -= head;
        arrivalCount -= arrivalHead;
        head = 0;
        arrivalHead = 0;
    }

    /** Lets go of the room grown for entries that are all settled now (none waits). */
    void trim() {
        if (head == count && (spans.length > SPAN * 16 || arrivals.length > 256)) {
            spans = new long[SPAN * 16];
            arrivals = new long[256];
            head = 0;
            count = 0;
            arrivalHead = 0;
            arrivalCount = 0;
        }
    }

    /** Entries waiting to be settled (for tests: what the aggregation holds on to). */
    int queued() {
        return count - head;
    }

    /** Token arrivals waiting to be settled (for tests). */
    int queuedArrivals() {
        return arrivalCount - arrivalHead;
    }

    /**
     * Rates over {@code w}; NaN for all when the window has zero length. Does not change the facts.
     *
     * @throws IllegalArgumentException when {@code w} is not a window these facts can be read over: not the
     *                                  window given in advance, or not one the plan allowed
     */
    Rates rates(StepWindow w) {
        if (known != null && !known.equals(w)) {
            throw new IllegalArgumentException("this step's token arrivals were counted for the window " + known
                    + " given in advance, not kept: finish it with that window, not " + w);
        }
        if (w.lengthNanos() == 0) {
            return new Rates(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
        checkPlan(w);
        if (covering && (w.startNanos() > coveredLo || w.endNanos() <= coveredHi)) {
            throw new IllegalArgumentException("these facts were counted window-free for records within ["
                    + coveredLo + ", " + coveredHi + "]: read them over a window containing that span, not " + w);
        }
        return ratesOver(w);
    }

    /** Throws when the facts were counted for a plan that {@code w} (of non-zero length) breaks. */
    private void checkPlan(StepWindow w) {
        if (planned && w.lengthNanos() > 0 && (w.startNanos() != planStart || w.endNanos() <= settledLatest)) {
            throw new IllegalArgumentException("this step's facts were counted as they came for a window starting at "
                    + planStart + " and ending after " + settledLatest + " (the latest time a record handed over before"
                    + " the step stopped issuing load carried): finish it with such a window, not " + w
                    + "; a RequestSender must stamp its times on the run clock as they happen");
        }
    }

    private Rates ratesOver(StepWindow w) {
        Sums all = sums.copy();
        int a = arrivalHead;
        for (int i = head; i < count; i++) {
            all.add(spans, SPAN * i, arrivals, a, w.startNanos(), w.endNanos());
            a = (int) spans[SPAN * i + 4];
        }
        double seconds = w.lengthNanos() / 1e9;
        return new Rates(all.outTokens / seconds, all.inTokens / seconds, all.ok / seconds, all.good / seconds,
                all.outcomes == 0 ? Double.NaN : (double) all.good / all.outcomes, all.busyNanos / w.lengthNanos(), all.items / seconds);
    }

    /** Largest request end seen, or -1: the end of a window that never got closed. */
    long lastNanos() {
        return lastEnd;
    }

    record Rates(double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
                 double goodFraction, double concurrencyMean, double itemsPerS) {}

    /** The running sums of settled entries. */
    private static final class Sums implements Cloneable {
        long outTokens;
        long inTokens;
        long ok;
        long items;
        long good;
        long outcomes;
        double busyNanos;

        /** Adds the entry at {@code s}, whose arrivals start at {@code a}, over the window [start, end). */
        void add(long[] spans, int s, long[] arrivals, int a, long start, long end) {
            for (int i = a; i < (int) spans[s + 4]; i++) {
                long t = arrivals[i] >>> TOKEN_BITS;
                if (t >= start && t < end) {
                    outTokens += arrivals[i] & MAX_TOKENS;
                }
            }
            long dispatch = spans[s];
            long stop = spans[s + 1];
            long promptAndFlags = spans[s + 2];
            int flags = (int) (promptAndFlags & 0xff);
            if (dispatch >= 0 && dispatch >= start && dispatch < end) {
                inTokens += (promptAndFlags >>> 8) & PROMPT_MASK;
            }
            if (stop >= start && stop < end && (flags & NEUTRAL) == 0) {
                outcomes++;
                ok += (flags & OK) != 0 ? 1 : 0;
                items += (flags & OK) != 0 ? promptAndFlags >>> 40 : 0;
                good += (flags & GOOD) != 0 ? 1 : 0;
            }
            if (dispatch >= 0) {
                busyNanos += Math.max(0, Math.min(stop, end) - Math.max(dispatch, start));
            }
        }

        /** A copy of every sum (the fields are primitives: a shallow copy is a full one). */
        Sums copy() {
            try {
                return (Sums) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError("Sums is Cloneable", e);
            }
        }
    }
}
