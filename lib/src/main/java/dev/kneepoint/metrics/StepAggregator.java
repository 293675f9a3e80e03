package dev.kneepoint.metrics;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Aggregates one step's request records into a {@link StepResult}: HdrHistograms of every latency
 * (METRICS.md), outcome counts, and the time facts the windowed rates need once the window is known.
 *
 * <p>Threading: {@link #accept} is called concurrently from request threads; it computes what it can
 * outside a short lock and holds the lock only to record (O(token-carrying events) work).
 * {@link #progress} may be called from any thread; {@link #finish} once, after the step's last record.
 *
 * <p>Memory: the latency histograms and counters are of fixed size. The windowed facts (tokens arriving in the
 * window, requests in flight in it) depend on the window, and how much of them is kept depends on what is known
 * of it while records arrive (see {@code WindowFacts}):
 * <ul>
 *   <li>with a {@link WindowPlan} (a live step run by the load layer: {@link #forPlannedWindow} and
 *       {@link #loadStopping()}), they are counted as they come, and only the records at the frontier of time and,
 *       after the step stops issuing load, the drained ones wait for the window's end: constant memory however long
 *       the step;</li>
 *   <li>with the window itself (a run read back from disk: {@link #forKnownWindow}), they are counted as they
 *       come;</li>
 *   <li>without either ({@link #forUnknownWindow}), 8 bytes per token-carrying event and 40 per request are kept
 *       until {@link #finish}, which may then take any window.</li>
 * </ul>
 * All three give the same result, every double bit for bit. Background traffic ({@code BackgroundAggregator}) also
 * uses a planned step whose window is learnt before its last record ({@link #windowKnown}) and a run total whose
 * window contains every record's own span ({@link #covering}).
 */
public final class StepAggregator {

    /** Span of the live token rate in {@link #progress}: 5 s. */
    public static final long PROGRESS_SPAN_NANOS = 5_000_000_000L;

    private final StepInfo info;
    private final Slo slo;
    private final ClientThresholds clientThresholds;
    private final Object lock = new Object();
    /** Indexes of {@link #latencies}. */
    private static final int TTFT = 0, TTFT_SCHED = 1, ITL = 2, CHUNK_GAP = 3, TPOT = 4, E2E = 5, E2E_SCHED = 6,
            SCHEDULE_LAG = 7, TTFAT = 8, SETTLED_LAG = 9, LATENCIES = 10;
    /** The latency histograms, by the indexes above; null while the aggregator is compacted. */
    private Histogram[] latencies = newLatencies();
    private boolean firstAnswerSeen;
    /** The histograms, compressed, while the aggregator is compacted ({@link #compact}); else null. */
    private byte[][] packed;
    private final WindowFacts facts;
    private final boolean live;
    private final Map<String, Long> failures = new HashMap<>();
    private final Map<TokenSource, Long> sources = new EnumMap<>(TokenSource.class);
    /** Tokens arriving lately, for {@link #progress}; fed only while live. */
    private final LiveTokenRate tokenRate = new LiveTokenRate();
    /** The OK requests' {@code ttft_sched} against their intended start, for the step's {@link LatencyTrend}. */
    private final TrendSums trend = new TrendSums();
    /** Holds back a closed loop's first wave; the rest's schedule lag goes to {@code SETTLED_LAG}, for the client check. */
    private final FirstWave firstWave;
    private long ok;
    private long failed;
    private long cancelled;
    private long abandoned;
    private long dropped;
    private long warmup;
    private long lenMismatch;
    private long outputInvalid;
    private long countDiscrepancy;
    /** Resent requests among the OK and failed ones (warm-up and cancelled excluded). */
    private long retried;

    private long okPromptTokens;
    private long okOutputTokens;
    private long okReasoningTokens;
    private long okCachedTokens;
    private long okReportedPromptTokens;

    /**
     * An aggregator for a step whose window is not known until it ends (a live step without a plan, or an unfinished
     * step read back): it keeps 8 bytes per token-carrying event and 40 per request until {@link #finish}, which may
     * then take any window. Its result judges the client's health against {@code clientThresholds}.
     */
    public static StepAggregator forUnknownWindow(StepInfo info, Slo slo, ClientThresholds clientThresholds) {
        return new StepAggregator(info, slo, clientThresholds, null);
    }

    /**
     * An aggregator whose window is known before its first record, as when a finished run is read back: the same
     * result as {@link #forUnknownWindow}'s, without keeping every token arrival. {@link #finish} must then be called
     * with this same window. Such a step is not live: {@link #progress} reports its token rate as NaN (the per-chunk
     * bookkeeping for it is skipped). Its result judges the client's health against {@code clientThresholds}.
     *
     * @throws NullPointerException when {@code window} is null (use {@link #forUnknownWindow})
     */
    public static StepAggregator forKnownWindow(StepInfo info, Slo slo, ClientThresholds clientThresholds,
                                                StepWindow window) {
        return new StepAggregator(info, slo, clientThresholds, Objects.requireNonNull(window, "window"));
    }

    /**
     * A live aggregator for a step whose window the load layer has planned: windowed facts are counted as records
     * arrive, so memory stays constant however long the step runs; the result is the same as
     * {@link #forUnknownWindow}'s, every double bit for bit. The caller keeps the promise of {@link WindowPlan}: it
     * calls {@link #loadStopping()} before it reads the clock for the window's end, and {@link #finish} gets a window
     * that starts at {@code plan.startNanos()} (or is empty). Its result judges the client's health against
     * {@code clientThresholds}.
     */
    public static StepAggregator forPlannedWindow(StepInfo info, Slo slo, ClientThresholds clientThresholds,
                                                  WindowPlan plan) {
        StepAggregator a = new StepAggregator(info, slo, clientThresholds, null);
        a.facts.plan(Objects.requireNonNull(plan, "plan"));
        return a;
    }

    /** A step whose window is {@code window} when known in advance, else null (then it is live). */
    private StepAggregator(StepInfo info, Slo slo, ClientThresholds clientThresholds, StepWindow window) {
        this.info = Objects.requireNonNull(info, "info");
        this.slo = Objects.requireNonNull(slo, "slo");
        this.clientThresholds = Objects.requireNonNull(clientThresholds, "clientThresholds");
        this.facts = new WindowFacts(window);
        this.live = window == null;
        this.firstWave = new FirstWave(FirstWave.sizeOf(info), lag -> latencies[SETTLED_LAG].recordValue(lag));
    }

    private static Histogram[] newLatencies() {
        Histogram[] h = new Histogram[LATENCIES];
        for (int i = 0; i < LATENCIES; i++) {
            h[i] = Distribution.newHistogram();
        }
        return h;
    }

    /**
     * The step is about to stop issuing load: records accepted from now on (the drain) may carry times after the
     * window's end, so they wait for it. Call before reading the clock for the window's end; later calls do
     * nothing. Only a step aggregated with a {@link WindowPlan} needs it. Thread-safe.
     */
    public void loadStopping() {
        synchronized (lock) {
            facts.loadStopping();
        }
    }

    /**
     * An aggregator for a run's background total (package use: {@code BackgroundAggregator}), whose window is known
     * only when the run ends but contains every record's own span (from its intended start, or 0, to its end):
     * windowed facts of records that keep within their span are counted as they come, the others wait.
     */
    static StepAggregator covering(StepInfo info, Slo slo) {
        StepAggregator a = forUnknownWindow(info, slo, ClientThresholds.defaults());
        a.facts.cover();
        return a;
    }

    /**
     * The window is now known (the step ended): facts waiting for it are counted, and later records' as they come.
     * {@link #finish} must then get this window. For records that keep arriving after the step ended (background
     * traffic). Thread-safe.
     *
     * @throws IllegalArgumentException when {@code window} breaks the {@link WindowPlan} this aggregator was given
     */
    void windowKnown(StepWindow window) {
        synchronized (lock) {
            facts.know(Objects.requireNonNull(window, "window"));
        }
    }

    /**
     * Compresses the latency histograms (a few kB instead of up to ~1.4 MB for a step of seconds-long requests) and
     * lets go of spare room, until the next record (a result decodes copies); the result stays the same, bit for bit. For an
     * aggregator that is kept for rare late records (a finished step's background). Thread-safe.
     */
    void compact() {
        synchronized (lock) {
            if (packed != null) {
                return;
            }
            byte[][] p = new byte[LATENCIES][];
            for (int i = 0; i < LATENCIES; i++) {
                ByteBuffer buf = ByteBuffer.allocate(latencies[i].getNeededByteBufferCapacity());
                int length = latencies[i].encodeIntoCompressedByteBuffer(buf);
                p[i] = Arrays.copyOf(buf.array(), length);
            }
            packed = p;
            latencies = null;
            facts.trim();
        }
    }

    /** Whether the histograms are compressed now (for tests). */
    boolean compacted() {
        synchronized (lock) {
            return packed != null;
        }
    }

    private void inflate() {
        if (packed == null) {
            return;
        }
        latencies = histograms();
        packed = null;
    }

    /** The latency histograms (not to be changed); decoded copies while compacted. */
    private Histogram[] histograms() {
        if (packed == null) {
            return latencies;
        }
        Histogram[] all = new Histogram[packed.length];
        for (int i = 0; i < all.length; i++) {
            try {
                all[i] = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(packed[i]), 0);
            } catch (DataFormatException e) {
                throw new IllegalStateException("a compacted histogram did not decode: " + e.getMessage(), e);
            }
            all[i].setAutoResize(true);
        }
        return all;
    }

    /** Windowed facts still waiting for the window's end: {entries, token arrivals} (for tests). */
    long[] queuedFacts() {
        synchronized (lock) {
            return new long[] {facts.queued(), facts.queuedArrivals()};
        }
    }

    /** Records one finished request of this step (any outcome, warm-up included). Thread-safe. */
    public void accept(RequestRecord r) {
        boolean good = slo.isGood(r, info.isOpenLoop());
        synchronized (lock) {
            inflate();
            facts.add(r, good);
            firstWave.add(r);
            if (live) {
                tokenRate.add(r);
            }
            if (r.warmup()) {
                warmup++;
                return;
            }
            sources.merge(r.tokens().tokenSource(), 1L, Long::sum);
            lenMismatch += r.outputLengthMismatch() ? 1 : 0;
            outputInvalid += r.isOk() && r.response().outputInvalid() ? 1 : 0;
            countDiscrepancy += r.countDiscrepancy() ? 1 : 0;
            record(latencies[SCHEDULE_LAG], r.scheduleLagNanos());
            switch (r.outcome()) {
                case Outcome.Ok o -> {
                    ok++;
                    retried += r.response().retried() ? 1 : 0;
                    okPromptTokens += Math.max(0, r.tokens().promptTokens());
                    okOutputTokens += r.tokens().outputTokens();
                    okReasoningTokens += Math.max(0, r.tokens().reasoningTokens());
                    if (r.tokens().cachedPromptTokens() >= 0 && r.tokens().promptTokens() > 0) {
                        okCachedTokens += r.tokens().cachedPromptTokens();
                        okReportedPromptTokens += r.tokens().promptTokens();
                    }
                    recordLatencies(r);
                }
                case Outcome.Cancelled c -> cancelled++;
                case Outcome.Abandoned a -> abandoned++;
                default -> {
                    failed++;
                    retried += r.response().retried() ? 1 : 0;
                    dropped += r.outcome() instanceof Outcome.Dropped ? 1 : 0;
                    failures.merge(r.outcome().label(), 1L, Long::sum);
                }
            }
        }
    }

    private void recordLatencies(RequestRecord r) {
        Histogram[] h = latencies;
        record(h[TTFT], r.ttftNanos());
        record(h[TTFAT], r.ttfatNanos());
        firstAnswerSeen |= r.timing().firstAnswerNanos() >= 0;
        record(h[TTFT_SCHED], r.ttftSchedNanos());
        record(h[TPOT], r.tpotNanos());
        record(h[E2E], r.e2eNanos());
        record(h[E2E_SCHED], r.e2eSchedNanos());
        trend.add(r.timing().intendedNanos(), r.ttftSchedNanos());
        long[] t = r.timing().chunkNanos();
        int[] k = r.timing().chunkTokens();
        for (int i = 1; i < t.length; i++) {
            long gap = Math.max(0, t[i] - t[i - 1]);
            h[CHUNK_GAP].recordValue(gap);
            if (k[i] > 0) {
                h[ITL].recordValueWithCount(gap / k[i], k[i]);
            }
        }
    }

    private static void record(Histogram h, long nanos) {
        if (nanos >= 0) {
            h.recordValue(nanos);
        }
    }

    /** A live snapshot at {@code nowNanos} (run clock). Thread-safe. */
    public StepProgress progress(long nowNanos) {
        synchronized (lock) {
            inflate();
            return new StepProgress(info.label(), ok + failed + cancelled + abandoned, failed, warmup,
                    live ? tokenRate.tokensPerS(nowNanos) : Double.NaN,
                    p99(latencies[TTFT]), p99(latencies[TTFT_SCHED]), -1);
        }
    }

    private static double p99(Histogram h) {
        return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1e6;
    }

    /** Largest request end seen so far on the run clock, or -1: closes the window of an interrupted step. */
    public long lastEventNanos() {
        synchronized (lock) {
            return facts.lastNanos();
        }
    }

    /**
     * The step's result over {@code window}, without client health. The aggregator may keep accepting, but
     * should not.
     *
     * @throws IllegalArgumentException when the window was given in advance and {@code window} differs, or
     *                                  when a {@link WindowPlan} was given and {@code window} breaks it
     */
    public StepResult finish(StepWindow window) {
        return finish(window, ClientHealth.NOT_MEASURED);
    }

    /** The step's result over {@code window}, judging {@code client} (the load generator's own health) too. */
    public StepResult finish(StepWindow window, ClientHealth client) {
        return finish(info, window, client, 0);
    }

    /**
     * The result reported as {@code reported} (same loop mode as this aggregator's info) with {@code extraWarmup}
     * more warm-up records than were accepted: records left out because they could not touch the step beyond being
     * counted as not of it (background traffic, {@code BackgroundAggregator}). Does not change the aggregator.
     */
    StepResult finish(StepInfo reported, StepWindow window, long extraWarmup) {
        return finish(reported, window, ClientHealth.NOT_MEASURED, extraWarmup);
    }

    private StepResult finish(StepInfo info, StepWindow window, ClientHealth client, long extraWarmup) {
        Objects.requireNonNull(client, "client");
        synchronized (lock) {
            Histogram[] h = histograms(); // a compacted aggregator stays compacted
            WindowFacts.Rates rates = facts.rates(window);
            double windowS = window.lengthNanos() / 1e9;
            Distribution lag = Distribution.of(h[SCHEDULE_LAG]);
            Map<String, Long> tokenSources = new TreeMap<>();
            sources.forEach((s, n) -> tokenSources.put(s.label(), n));
            return StepResult.builder().info(info).window(window).windowS(windowS).requestsOk(ok).requestsFailed(failed)
                    .cancelled(cancelled).abandoned(abandoned).dropped(dropped).warmupRequests(warmup + extraWarmup).failuresByClass(failures)
                    .ttft(Distribution.of(h[TTFT])).ttftSched(Distribution.of(h[TTFT_SCHED]))
                    .itl(Distribution.of(h[ITL])).chunkGap(Distribution.of(h[CHUNK_GAP])).tpot(Distribution.of(h[TPOT]))
                    .e2e(Distribution.of(h[E2E])).e2eSched(Distribution.of(h[E2E_SCHED])).scheduleLag(lag).outputTokensPerS(rates.outputTokensPerS())
                    .inputTokensPerS(rates.inputTokensPerS()).requestsPerS(rates.requestsPerS())
                    .goodputRps(rates.goodputRps()).goodFraction(rates.goodFraction())
                    .concurrencyMean(rates.concurrencyMean()).itemsPerS(rates.itemsPerS()).outputLenMismatch(lenMismatch).outputInvalid(outputInvalid)
                    .countDiscrepancy(countDiscrepancy).tokenSources(tokenSources)
                    .meanPromptTokens(ok == 0 ? Double.NaN : (double) okPromptTokens / ok)
                    .meanOutputTokens(ok == 0 ? Double.NaN : (double) okOutputTokens / ok).slo(slo)
                    .reasoningTokens(okReasoningTokens) // failure rate, mean reasoning tokens: the builder's (per OK request)
                    .cachedPromptTokens(okCachedTokens, okReportedPromptTokens)
                    .clientCheck(ClientCheck.evaluate(info, windowS, ok + failed + cancelled + abandoned,
                            Distribution.of(h[SETTLED_LAG]), client, clientThresholds))
                    .ttfat(firstAnswerSeen ? Distribution.of(h[TTFAT]) : Distribution.empty()).trend(trend.trend())
                    .retried(retried).build();
        }
    }
}
