package dev.kneepoint.sweep;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.Abandonment;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.metrics.Problems;
import dev.kneepoint.sweep.SweepSpec.Mode;
import dev.kneepoint.workload.LengthDistribution;
import dev.kneepoint.workload.Lengths;
import dev.kneepoint.workload.TraceWorkload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The checks {@link Sweep#validate()}, {@link Sweep#run()} and {@link Sweep#start()} make before anything is sent:
 * every setting is checked and every problem reported at once, in one {@link IllegalArgumentException}. Pure: what
 * needs the network or a file (the tokenizer, a trace file) is left to {@link SweepExecution#prepare}, which puts
 * what it finds into the same list, where these checks used to.
 */
final class SweepChecks {
    private SweepChecks() {
    }

    /**
     * The settings' problems and the spec they make (trusted only when there are none).
     *
     * @param calibrationAt where in {@code problems} the tokenizer's problem goes (after the target's)
     * @param traceAt       where a trace file's problems go (after those of the trace settings)
     */
    record Checked(SweepSpec spec, List<String> problems, int calibrationAt, int traceAt) {
        Checked {
            problems = List.copyOf(problems);
        }

        /** Whether the run measures the target's tokenizer: calibrate is on, for synthetic or trace prompts, of a known target. */
        boolean measuresTokenizer() {
            return spec.prompts().calibrate() != Calibrate.OFF && spec.prompts().workload() == null && calibrationAt == 0;
        }
    }

    /** The shared prefix's settings: sizes that make sense, synthetic prompts to share it, room for the rest. */
    private static void checkSharedPrefix(SweepSettings s, List<String> problems) {
        SweepSpec.SharedPrefix p = s.sharedPrefix;
        if (p == null || p.tokens() == 0) {
            return;
        }
        if (p.tokens() < 0 || p.groups() < 1) {
            problems.add("sharedPrefix takes tokens >= 0 and groups >= 1, got " + p.tokens() + " and " + p.groups());
        }
        if (s.workload != null || s.replaysTrace()) {
            problems.add("sharedPrefix applies to the synthetic prompts: " + (s.workload != null
                    ? "build the prefix into your own workload (Workloads.sharedPrefix(...))" : "a trace's hash_ids say "
                    + "which prompts share blocks") + ", and drop sharedPrefix");
        }
        double mean = s.inputLengths != null ? s.inputLengths.mean() : s.inputTokens;
        if (mean < p.tokens() + 1) {
            problems.add("inputTokens (mean " + mean + ") must exceed the shared prefix (" + p.tokens()
                    + " tokens): inputTokens is the whole prompt, prefix included");
        }
    }

    /** The abandonment the settings describe (null: none), or null with a problem when it is not one. */
    private static Abandonment abandonment(SweepSettings s, List<String> problems) {
        if (Double.isNaN(s.abandonRate)) {
            return null;
        }
        try {
            return s.abandonAfter != null ? Abandonment.afterTime(s.abandonRate, s.abandonAfter, s.seed)
                    : Abandonment.afterTokens(s.abandonRate, s.abandonAfterTokens, s.seed);
        } catch (IllegalArgumentException | NullPointerException e) {
            problems.add("abandon: " + e.getMessage());
            return null;
        }
    }

    /** A mix: positive weights, distinct tags, lengths of at least one token, in place of the synthetic prompts only. */
    private static void checkMix(SweepSettings s, List<String> problems) {
        java.util.Set<String> tags = new java.util.HashSet<>();
        for (SweepSpec.MixClass c : s.mix) {
            if (c.tag() == null || c.tag().isBlank() || !tags.add(c.tag())) {
                problems.add("mix: each class needs a tag of its own, got '" + c.tag() + "'");
            }
            if (!(c.weight() > 0) || Double.isInfinite(c.weight())) {
                problems.add("mix: class '" + c.tag() + "' needs a positive weight, got " + c.weight());
            }
            if (c.inputTokens() < 1 || c.outputTokens() < 1) {
                problems.add("mix: class '" + c.tag() + "' needs input and output tokens >= 1, got " + c.inputTokens()
                        + " and " + c.outputTokens());
            }
        }
        if (!s.mix.isEmpty() && (s.workload != null || s.replaysTrace() || s.turns > 1
                || (s.sharedPrefix != null && s.sharedPrefix.tokens() > 0))) {
            problems.add("mix replaces the synthetic prompts' one class: it does not combine with a workload of your "
                    + "own, a trace, multiTurn or sharedPrefix; drop one");
        }
    }

    /** Multi-turn sessions: at least one turn, of the synthetic prompts, without a shared prefix. */
    private static void checkTurns(SweepSettings s, List<String> problems) {
        if (s.turns < 1) {
            problems.add("multiTurn takes 1 or more turns per session, got " + s.turns);
        }
        if (s.turns <= 1) {
            return;
        }
        if (s.workload != null || s.replaysTrace()) {
            problems.add("multiTurn applies to the synthetic prompts: " + (s.workload != null
                    ? "your workload is its own (Workloads.multiTurn() builds sessions)" : "a trace's requests are "
                    + "independent") + "; drop multiTurn");
        }
        if (s.sharedPrefix != null && s.sharedPrefix.tokens() > 0) {
            problems.add("multiTurn and sharedPrefix do not combine: a session's history is its own prefix; drop one");
        }
    }

    /** Checks the builder's settings and makes its spec; reads nothing but them, writes nothing back. */
    static Checked check(Sweep sweep) {
        SweepSettings s = sweep.settings;
        List<String> problems = new ArrayList<>();
        TargetConfig target = s.baseTarget;
        try {
            target = s.api == null ? s.baseTarget : s.baseTarget.withApiKind(ApiKind.parse(s.api));
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        SweepCalibration.check(s, problems);
        int calibrationAt = problems.size();
        if (s.gpus < 0 || !(Double.isNaN(s.pricePerHour) || (s.pricePerHour > 0 && Double.isFinite(s.pricePerHour)))) {
            problems.add("cost: gpus must be >= 0 (0: count them in the GPU telemetry) and the price per hour a positive "
                    + "number of USD, got " + s.gpus + " and " + s.pricePerHour);
        }
        if (s.searchesSlo()) {
            SweepSloSearch.check(s, problems);
        } else if (s.sweepsRates()) {
            checkRateSweep(s, problems);
        } else if (s.replaysTrace()) {
            SweepTrace.check(s, problems);
        } else if (s.concurrency.isEmpty() == s.rates.isEmpty()) {
            problems.add("give either concurrency levels (closed loop), request rates (open loop) or a trace, not "
                    + (s.concurrency.isEmpty() ? "neither" : "both"));
        }
        int traceAt = problems.size();
        s.concurrency.stream().filter(c -> c < 1).findFirst().ifPresent(c ->
                problems.add("concurrency must be >= 1, got " + c));
        s.rates.stream().filter(r -> !(r > 0) || r.isInfinite()).findFirst().ifPresent(r ->
                problems.add("request rate must be a positive finite number of requests per second, got " + r));
        if (!List.of("constant", "poisson", "gamma").contains(s.arrival)) {
            problems.add("arrival must be constant, poisson or gamma, got '" + s.arrival + "'");
        }
        if (s.workload == null && s.inputLengths == null && s.inputTokens < 1) {
            problems.add("inputTokens must be >= 1, got " + s.inputTokens);
        }
        checkSharedPrefix(s, problems);
        checkTurns(s, problems);
        checkMix(s, problems);
        if (s.workload == null && s.outputLengths == null && s.outputTokens < 1) {
            problems.add("outputTokens must be >= 1, got " + s.outputTokens);
        }
        if (s.stepDuration == null || s.stepDuration.isNegative() || s.stepDuration.isZero()) {
            problems.add("stepDuration must be positive, got " + s.stepDuration);
        }
        if (s.warmup == null || s.warmup.isNegative()) {
            problems.add("warmup must be >= 0, got " + s.warmup);
        }
        if (s.rampUp == null || s.rampUp.isNegative()) {
            problems.add("rampUp must be >= 0 (0 starts every closed-loop user at once), got " + s.rampUp);
        }
        if (s.pause == null || s.pause.isNegative()) {
            problems.add("pause must be >= 0, got " + s.pause);
        }
        if (!Double.isNaN(s.stopFailureRate) && (s.stopFailureRate < 0 || s.stopFailureRate > 1)) {
            problems.add("stopWhenFailureRateAbove takes a fraction in [0, 1], got " + s.stopFailureRate);
        }
        if (s.clientThresholds == null) {
            problems.add("clientCheck thresholds must not be null (use ClientCheck.thresholds().build() for the defaults)");
        }
        if (s.name == null || !s.name.matches("[A-Za-z0-9._-]{1,60}")) {
            problems.add("name must be 1-60 letters, digits, '.', '_' or '-', got '" + s.name + "'");
        }
        if (s.telemetry.enabled()) {
            problems.addAll(s.telemetry.problems());
        }
        if (s.structured != null && !target.apiKind().isOpenAi()) {
            problems.add("structured output is asked with response_format, which the OpenAI chat and completions APIs "
                    + "take, and the target's API is " + target.apiKind().label() + ": use chat or completions, or "
                    + "remove it");
        }
        if (s.media != null && !target.apiKind().isChat()) {
            problems.add("media ride on chat messages, and the target's API is " + target.apiKind().label()
                    + ", which sends a plain prompt: use chat, responses, messages or ollama-chat, or remove them");
        } else if (s.media != null && s.media.audioClips() > 0 && target.apiKind() != ApiKind.CHAT) {
            problems.add("audio is sent as OpenAI chat's input_audio, and the target's API is "
                    + target.apiKind().label() + ": use the chat API for audio");
        }
        if (s.tools != null && target.apiKind() != ApiKind.CHAT && target.apiKind() != ApiKind.RESPONSES
                && target.apiKind() != ApiKind.MESSAGES) {
            problems.add("tools are offered with the chat, responses and messages APIs, and the target's API is "
                    + target.apiKind().label() + ": use one of those, or remove the tools");
        }
        ShapeChecks.add(s, target, problems);
        BackgroundStream background = background(s, problems);
        if ((s.sweepsRates() || s.searchesSlo()) && background != null && background.perStep()) {
            problems.add("background: per-step rates cannot follow a " + (s.searchesSlo() ? "SLO search" : "rate sweep")
                    + ", whose steps are planned during the run; use a steady background (background(workload, rateRps))");
        }
        checkRepeat(s, background, problems);
        if (s.throughputConcurrencySet && !s.sweepsRates()) {
            problems.add("throughputConcurrency applies to a rate sweep only: add rateSweep(n), or remove it");
        }
        int ladderSteps = s.sweepsRates() ? 2 + Math.max(0, s.rateSweepSteps) : s.replaysTrace() ? Math.max(1, s.rates.size())
                : s.concurrency.isEmpty() ? s.rates.size() : s.concurrency.size();
        if (background != null && background.perStep() && !s.sweepsRates() && !s.searchesSlo()
                && background.stepRatesRps().size() != ladderSteps) {
            problems.add("background: " + background.stepRatesRps().size() + " per-step rates for a ladder of "
                    + ladderSteps + " steps; give one rate per step (0 for none)");
        }
        return new Checked(spec(s, target, background, abandonment(s, problems)), problems, calibrationAt, traceAt);
    }

    /**
     * {@link Sweep#validate()}: the settings' problems and, when there are none, those of the plan; returns the
     * spec. A trace file is not read here, so its problems (and the plan of its steps) wait for the run.
     */
    static SweepSpec validate(Checked checked) {
        SweepSpec spec = checked.spec();
        TraceWorkload given = spec.mode() instanceof Mode.Trace t && t.source() instanceof SweepSpec.TraceSource.Given g
                ? g.workload() : null;
        finish(spec, given, new ArrayList<>(checked.problems()), checked.traceAt());
        return spec;
    }

    /**
     * The last checks, once the trace is at hand (null: none, or not read): a warm-up must not cover the trace
     * (checked when nothing before {@code traceEnd} in {@code problems} is wrong), and the ladder must plan (when
     * nothing at all is). Throws listing every problem; else returns the ladder, or null for an unread trace.
     */
    static StepSequence finish(SweepSpec spec, TraceWorkload trace, List<String> problems, int traceEnd) {
        if (trace != null && problems.subList(0, traceEnd).isEmpty()) {
            String covered = SweepTrace.warmupCoversTrace(spec, (Mode.Trace) spec.mode(), trace);
            if (covered != null) {
                problems.add(traceEnd, covered);
            }
        }
        StepSequence ladder = null;
        if (problems.isEmpty() && (trace != null || !(spec.mode() instanceof Mode.Trace))) {
            try {
                ladder = SweepPlan.ladder(spec, trace);
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        new Problems().addAll(problems).throwListIfAny("sweep");
        return ladder;
    }

    /** The background stream: the user's, or one made of the background workload and rates. */
    private static BackgroundStream background(SweepSettings s, List<String> problems) {
        if (s.backgroundWorkload == null) {
            return s.background;
        }
        try {
            if (s.backgroundStepRates != null) {
                double first = Arrays.stream(s.backgroundStepRates).filter(r -> r > 0).findFirst().orElse(1);
                return new BackgroundStream(s.backgroundWorkload, ArrivalPlan.poisson(first, s.seed ^ 0x6267L),
                        BackgroundStream.DEFAULT_TAG, s.drainTimeout).withStepRates(s.backgroundStepRates);
            }
            return new BackgroundStream(s.backgroundWorkload, ArrivalPlan.poisson(s.backgroundRate, s.seed ^ 0x6267L),
                    BackgroundStream.DEFAULT_TAG, s.drainTimeout);
        } catch (IllegalArgumentException e) {
            problems.add("background: " + e.getMessage());
            return null;
        }
    }

    /** The spec of the settings; its mode is the first of rate sweep, trace, closed loop and open loop they give. */
    private static SweepSpec spec(SweepSettings s, TargetConfig target, BackgroundStream background,
                                  Abandonment abandonment) {
        SweepSpec.Arrival arrival = new SweepSpec.Arrival(s.arrival, s.burstCv);
        SweepSpec.InFlightCap cap = new SweepSpec.InFlightCap(s.maxInFlight, s.capPolicy);
        Mode mode;
        if (s.searchesSlo()) {
            mode = new Mode.SloSearch(s.sloSearch, s.sloAttainment, s.sloTolerance, s.sloMaxProbes, s.thinkTime,
                    s.rampUp, arrival, cap);
        } else if (s.sweepsRates()) {
            mode = new Mode.RateSweep(s.rateSweepSteps, s.throughputConcurrency, arrival, cap);
        } else if (s.replaysTrace()) {
            SweepSpec.TraceSource source = s.trace != null ? new SweepSpec.TraceSource.Given(s.trace)
                    : new SweepSpec.TraceSource.File(s.traceFile, s.traceBlockSize);
            mode = new Mode.Trace(source, s.rates, s.timeScale, !s.stepDurationSet, cap, s.baseline);
        } else if (!s.concurrency.isEmpty()) {
            mode = new Mode.Closed(s.concurrency, s.thinkTime, s.rampUp, s.baseline);
        } else {
            mode = new Mode.Open(s.rates, arrival, cap, s.baseline);
        }
        // A trace's warm-up is the sweep's when set, else none: the trace's first requests count.
        Duration warmup = mode instanceof Mode.Trace && !s.warmupSet ? Duration.ZERO : s.warmup;
        return new SweepSpec(s.name, target, mode,
                new SweepSpec.Prompts(s.workload, lengths(s.inputLengths, s.inputTokens),
                        lengths(s.outputLengths, s.outputTokens), s.ignoreEos, s.calibrate,
                        s.sharedPrefix == null || s.sharedPrefix.tokens() == 0 ? null : s.sharedPrefix, s.turns,
                        s.mix, new SweepSpec.Shape(s.tools, s.structured, s.media, s.batch,
                        s.models == null ? null : s.models.seeded(s.seed))),
                s.seed,
                new SweepSpec.Steps(s.stepDuration, warmup, s.pause, s.drainTimeout, s.maxRequestsPerStep, s.repeat,
                        s.resetPrefixCache),
                s.slo, s.clientThresholds, s.stopFailureRate, s.stopP99Ms, background, abandonment, s.telemetry,
                s.writeRunDirectory ? s.outputDir : null, s.progress, s.allowConcurrent, s.clientWarmup,
                s.preflight, new SweepSpec.Cost(s.gpus, s.pricePerHour), new java.util.TreeMap<>(s.labels));
    }

    /**
     * The distribution given, else the fixed length; a length below 1 is already among the problems (and a spec
     * with problems never runs), so it stands in as 1 rather than failing before every problem is listed.
     */
    private static LengthDistribution lengths(LengthDistribution given, int tokens) {
        return given != null ? given : Lengths.fixed(Math.max(1, tokens));
    }

    /** Repeat trials: a sane count, of a ladder given in advance, without per-step background rates. */
    private static void checkRepeat(SweepSettings s, BackgroundStream background, List<String> problems) {
        if (s.repeat < 1 || s.repeat > SweepDefaults.MAX_REPEAT) {
            problems.add("repeat takes 1 to " + SweepDefaults.MAX_REPEAT + " trials of each load, got " + s.repeat);
        }
        if (s.repeat <= 1) {
            return;
        }
        if (s.searchesSlo() || s.sweepsRates()) {
            problems.add("repeat measures a ladder given in advance; " + (s.searchesSlo()
                    ? "an SLO search judges each probe by its own attainment interval" : "a rate sweep plans its steps")
                    + ": remove repeat(" + s.repeat + "), or give concurrency levels or rates");
        }
        if (background != null && background.perStep()) {
            problems.add("background: per-step rates cannot follow repeated trials (each load runs " + s.repeat
                    + " times over); use a steady background (background(workload, rateRps)) or remove repeat");
        }
    }

    /** A rate sweep plans its own steps: no other way of giving them, and sane sizes. */
    private static void checkRateSweep(SweepSettings s, List<String> problems) {
        if (s.rateSweepSteps < 2 || s.rateSweepSteps > 50) {
            problems.add("rateSweep takes 2 to 50 open-loop steps, got " + s.rateSweepSteps);
        }
        List<String> others = s.givenSteps();
        if (!others.isEmpty()) {
            problems.add("a rate sweep plans its own steps: remove the " + String.join(" and the ", others)
                    + " (or drop rateSweep to run them)");
        }
        if (s.baseline) {
            problems.add("a rate sweep's synchronous step is its single-user baseline: remove baseline(true)");
        }
        if (s.throughputConcurrency < 2) {
            problems.add("throughputConcurrency must be >= 2 users (it must exceed the synchronous step's one), got "
                    + s.throughputConcurrency);
        }
        if (!s.thinkTime.isZero()) {
            problems.add("thinkTime does not apply to a rate sweep (its closed-loop probes send back to back):"
                    + " remove it");
        }
    }
}
