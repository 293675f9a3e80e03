package dev.kneepoint.sweep;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What a {@link Sweep} does when a setting is left alone: the one place these defaults are defined. The command
 * line ({@code bin/kneepoint run}) takes its defaults from here, so a sweep left at its defaults measures the same
 * thing from a notebook and from the command line.
 */
public final class SweepDefaults {
    private SweepDefaults() {}

    /** Measured length of each step. */
    public static final Duration STEP_DURATION = Duration.ofSeconds(10);
    /** Warm-up before each step's measured window (its requests are recorded but not measured). */
    public static final Duration WARMUP = Duration.ofSeconds(2);
    /** How long a step waits for its in-flight requests after its window ends. */
    public static final Duration DRAIN_TIMEOUT = dev.kneepoint.load.Step.DEFAULT_DRAIN_TIMEOUT;
    /** Pause between steps. */
    public static final Duration PAUSE = Duration.ZERO;
    /** Closed loop: a user's think time between an answer and its next request. */
    public static final Duration THINK_TIME = Duration.ZERO;
    /**
     * Closed loop: the users of a step start evenly over this time from the step start (inside the default
     * warm-up), not in lock-step; 0 starts them all at once.
     */
    public static final Duration RAMP_UP = Duration.ofMillis(500);
    /** Open-loop arrivals: {@code constant}, {@code poisson} or {@code gamma}. */
    public static final String ARRIVAL = "poisson";
    /** Gamma arrivals' coefficient of variation (burstiness). */
    public static final double BURST_CV = 2.0;
    /** Seed for arrivals and synthetic prompts. */
    public static final long SEED = 42;
    /**
     * Whether synthetic and trace prompts are cut to the server's own tokens: {@link Calibrate#AUTO}, where the
     * target has a tokenizer ({@link Sweep#calibrate(boolean)}).
     */
    public static final Calibrate CALIBRATE = Calibrate.AUTO;
    /** An SLO capacity search's target: the share of requests that must meet every objective. */
    public static final double SLO_ATTAINMENT = 0.99;
    /** A rate search ends when its bracket is this narrow, relative to the passing rate. */
    public static final double SLO_SEARCH_TOLERANCE = 0.05;
    /** The most probe steps of an SLO capacity search (doubling, then bisecting). */
    public static final int SLO_SEARCH_MAX_PROBES = 12;
    /** Synthetic prompt length, tokens. */
    public static final int INPUT_TOKENS = 128;
    /** Output length asked for ({@code max_tokens}), tokens. */
    public static final int OUTPUT_TOKENS = 128;
    /**
     * Users of a {@link Sweep#rateSweep(int) rate sweep}'s first {@code throughput} step: 256, vLLM's default
     * {@code max_num_seqs} on smaller GPUs; the saturation check doubles them while throughput still rises.
     */
    public static final int THROUGHPUT_CONCURRENCY = 256;
    /** Inputs per pooling request ({@link Sweep#batch}): one. */
    public static final int BATCH = 1;
    /** How many times each load is measured ({@link Sweep#repeat(int)}): once. */
    public static final int REPEAT = 1;
    /** The most trials of one load a sweep takes. */
    public static final int MAX_REPEAT = 50;
    /** Parent folder of run directories. */
    public static final Path OUTPUT_DIR = Path.of("runs");
    /** Run name (the run directory is named after it and the start time). */
    public static final String NAME = "sweep";
}
