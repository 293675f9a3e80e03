package dev.kneepoint.sweep;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.Abandonment;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.load.CapPolicy;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.request.Workload;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.LengthDistribution;
import dev.kneepoint.workload.MediaInputs;
import dev.kneepoint.workload.ModelMix;
import dev.kneepoint.workload.StructuredOutput;
import dev.kneepoint.workload.ToolUse;
import dev.kneepoint.workload.TraceWorkload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A sweep's settings as {@link Sweep#validate()} checked and resolved them: immutable, with the target the
 * {@link Sweep#api(String) api} override applied to, the background stream built, and a {@link Mode} saying which
 * kind of ladder runs and holding only what that kind needs. The plan, the manifest and the run are made from it.
 *
 * <p>Only a spec returned by {@link Sweep#validate()} is known to be valid: the canonical constructor checks
 * nothing beyond copying the lists.
 *
 * @param name                 the run's name (its directory and reports)
 * @param target               the target, with the sweep's API override applied
 * @param mode                 closed loop, open loop, trace replay or rate sweep
 * @param prompts              what each request asks for
 * @param seed                 seed of the arrivals, the synthetic prompts and a trace's prompt text
 * @param steps                what every step shares: duration, warm-up, pause, drain, request bound
 * @param slo                  service-level objectives for goodput
 * @param clientThresholds     limits of the client self-check
 * @param stopFailureRate      stop after a step failing more than this fraction; NaN: no bound
 * @param stopP99Ms            stop after a step whose p99 TTFT (sched basis in open loop) exceeds this; NaN: none
 * @param background           background traffic under the ladder, or null
 * @param abandonment          which requests (background ones too) are given up mid-request, and when; null: none
 * @param telemetry            what is sampled beside the load
 * @param outputDir            folder of the run directory, or null for none
 * @param progress             live progress listener, or null
 * @param allowConcurrentRuns  whether another sweep of this JVM may drive the same target meanwhile
 * @param clientWarmup         whether the client's request path is warmed first
 * @param preflight            whether the target is checked before the first step ({@code Preflight})
 * @param cost                 what the deployment costs, for the reports' cost figures
 * @param labels               the user's labels of the run ({@link Sweep#label})
 */
public record SweepSpec(String name, TargetConfig target, Mode mode, Prompts prompts, long seed, Steps steps,
                        Slo slo, ClientThresholds clientThresholds, double stopFailureRate, double stopP99Ms,
                        BackgroundStream background, Abandonment abandonment, Telemetry telemetry, Path outputDir, LoadProgress progress,
                        boolean allowConcurrentRuns, boolean clientWarmup, boolean preflight,
                        Cost cost, Map<String, String> labels) {

    public SweepSpec {
        labels = Map.copyOf(labels);
    }

    /** The kind of ladder a sweep runs, and what only that kind needs. */
    public sealed interface Mode {
        /**
         * Closed loop: one step per concurrency level, users each waiting for their answer; the users of a step
         * start evenly over {@code rampUp} (0: all at once).
         */
        record Closed(List<Integer> concurrency, Duration thinkTime, Duration rampUp, boolean baseline)
                implements Mode {
            public Closed {
                concurrency = List.copyOf(concurrency);
            }
        }

        /** Open loop: one step per request rate. */
        record Open(List<Double> ratesRps, Arrival arrival, InFlightCap cap, boolean baseline) implements Mode {
            public Open {
                ratesRps = List.copyOf(ratesRps);
            }
        }

        /**
         * A trace replayed open loop at its own instants: one step at {@code timeScale}, or one per rate (empty
         * {@code ratesRps}: the one step). {@code wholeTrace}: each step lasts as long as the time-scaled trace
         * (no step duration was set), else {@link Steps#duration()}.
         */
        record Trace(TraceSource source, List<Double> ratesRps, double timeScale, boolean wholeTrace, InFlightCap cap,
                     boolean baseline) implements Mode {
            public Trace {
                ratesRps = List.copyOf(ratesRps);
            }
        }

        /**
         * Two closed-loop probes ({@code synchronous}, one user; {@code throughput}, {@code throughputConcurrency}
         * users), then {@code openSteps} open-loop steps at rates planned from what they measured.
         */
        record RateSweep(int openSteps, int throughputConcurrency, Arrival arrival, InFlightCap cap) implements Mode {
        }

        /**
         * The SLO capacity search of {@link Sweep#sloSearch(String)}: probes of one {@code dimension}
         * ({@code concurrency}: closed-loop steps from one user; {@code rate}: a one-user {@code synchronous} probe,
         * then open-loop steps from its request rate) doubling until one misses the {@code attainment} target, then
         * bisecting the bracket until it closes (adjacent users; a rate within {@code tolerance}) or
         * {@code maxProbes} steps have run. {@code thinkTime} and {@code rampUp} shape the closed probes,
         * {@code arrival} and {@code cap} the open ones.
         */
        record SloSearch(String dimension, double attainment, double tolerance, int maxProbes, Duration thinkTime,
                         Duration rampUp, Arrival arrival, InFlightCap cap) implements Mode {
        }
    }

    /**
     * What the measured deployment costs: {@code gpus} serving it (0: count them in the GPU telemetry) and its
     * {@code pricePerHourUsd} for all of them (NaN: not given).
     */
    public record Cost(int gpus, double pricePerHourUsd) {
    }

    /** Where a replayed trace comes from: a file read before the first step, or a workload already built. */
    public sealed interface TraceSource {
        /** A trace file ({@link dev.kneepoint.workload.Trace} format), {@code blockSize} tokens per hash id. */
        record File(Path path, int blockSize) implements TraceSource {
        }

        /** A trace workload built with {@code Workloads.trace(file)}. */
        record Given(TraceWorkload workload) implements TraceSource {
        }
    }

    /** Open-loop arrivals: {@code constant}, {@code poisson} or {@code gamma} (of coefficient of variation {@code burstinessCv}). */
    public record Arrival(String process, double burstinessCv) {
    }

    /** Cap on open-loop requests in flight ({@code max <= 0}: none) and what happens to arrivals beyond it. */
    public record InFlightCap(int max, CapPolicy policy) {
        /** Whether there is a cap. */
        public boolean bounded() {
            return max > 0;
        }
    }

    /**
     * What each request asks for: the user's {@code workload}, or (null) synthetic prompts of {@code inputTokens}
     * and {@code outputTokens}; {@code ignoreEos} asks for the exact output length; {@code calibrate} cuts synthetic
     * and trace prompts to the server's token count, measured before the first step; the synthetic prompts share
     * {@code sharedPrefix} (null: none), and are chat sessions of {@code turns} turns when {@code turns > 1}
     * ({@code inputTokens}: each new user message); a non-empty {@code mix} replaces the one class of synthetic
     * prompts by weighted classes of their own lengths; {@code shape} is what every request carries besides them.
     */
    public record Prompts(Workload workload, LengthDistribution inputTokens, LengthDistribution outputTokens,
                          boolean ignoreEos, Calibrate calibrate, SharedPrefix sharedPrefix, int turns,
                          List<MixClass> mix, Shape shape) {
        public Prompts {
            mix = List.copyOf(mix);
        }
    }

    /**
     * What every request carries besides its prompt: {@code tools} offered (null: none), {@code structured} output
     * asked and checked (null: none), {@code media} (images, audio; null: none), and for a pooling API the
     * {@code batch} of inputs per request ({@link Sweep#batch}: one size, or several for a batch-size ladder), and
     * the {@code models} each request is sent to by weight (null: the target's).
     */
    public record Shape(ToolUse tools, StructuredOutput structured, MediaInputs media, List<Integer> batch,
                        ModelMix models) {
        public Shape {
            batch = List.copyOf(batch);
        }

        /** True when the steps are a batch-size ladder: more than one size. */
        public boolean batchLadder() {
            return batch.size() > 1;
        }
    }

    /** One class of a mix of synthetic prompts: its tag, weight and lengths ({@link Sweep#mix}). */
    public record MixClass(String tag, double weight, int inputTokens, int outputTokens) {
    }

    /** A prefix of {@code tokens} tokens shared by the synthetic prompts of each of {@code groups} groups. */
    public record SharedPrefix(int tokens, int groups) {
    }

    /**
     * What every step shares: its measured {@code duration} and {@code warmup} (a trace's warm-up is none unless
     * one was set), the {@code pause} between steps, the {@code drainTimeout} for in-flight requests, and a request
     * bound {@code maxRequests} ({@code <= 0}: none), and how many trials {@code repeat} measure each load (1: once;
     * {@link Sweep#repeat(int)}), and whether the server's prefix cache is reset before each step
     * ({@link Sweep#resetPrefixCache(boolean)}).
     */
    public record Steps(Duration duration, Duration warmup, Duration pause, Duration drainTimeout, long maxRequests,
                        int repeat, boolean resetPrefixCache) {
    }
}
