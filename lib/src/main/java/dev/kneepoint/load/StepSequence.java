package dev.kneepoint.load;

import dev.kneepoint.metrics.Problems;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A sequence of steps run one after the other: an optional single-user baseline step first, then the
 * load levels, with a pause between steps (after the previous step's in-flight requests ended) and a
 * {@link StepGate} evaluated after each step that may stop the ladder early. Immutable; the
 * {@code with*} methods return new ladders.
 *
 * <pre>{@code
 * StepSequence ladder = StepSequence.concurrency(List.of(1, 2, 4, 8), template)
 *         .withBaseline().withPause(Duration.ofSeconds(5)).withGate(gate);
 * }</pre>
 */
public final class StepSequence {
    /** Label of the baseline step. */
    public static final String BASELINE = "baseline";

    private final Step baseline;
    private final List<Step> levels;
    private final Duration pause;
    private final StepGate gate;

    private StepSequence(Step baseline, List<? extends Step> levels, Duration pause, StepGate gate) {
        Problems problems = new Problems();
        if (levels == null || levels.isEmpty()) {
            problems.add("a ladder needs at least one step");
        } else if (levels.stream().anyMatch(java.util.Objects::isNull)) {
            problems.add("steps must not be null");
        }
        if (pause == null || pause.isNegative()) {
            problems.add("pause between steps must be >= 0, got " + pause);
        }
        problems.check(gate != null, "gate must not be null (use StepGate.always())");
        if (problems.isEmpty()) {
            Set<String> seen = new HashSet<>();
            List<Step> all = new ArrayList<>();
            if (baseline != null) {
                all.add(baseline);
            }
            all.addAll(levels);
            for (Step s : all) {
                if (!seen.add(s.label())) {
                    problems.add("step labels must be unique, '" + s.label() + "' appears twice");
                }
            }
        }
        problems.throwIfAny("ladder");
        this.baseline = baseline;
        this.levels = List.copyOf(levels);
        this.pause = pause;
        this.gate = gate;
    }

    /** A ladder of the given steps in order, no pause, no gate. */
    public static StepSequence of(List<? extends Step> steps) {
        return new StepSequence(null, steps, Duration.ZERO, StepGate.always());
    }

    /** A ladder of one step. */
    public static StepSequence single(Step step) {
        return of(List.of(Objects.requireNonNull(step, "step")));
    }

    /** One closed-loop step per concurrency level, each the template with that many users, labelled {@code c=N}. */
    public static StepSequence concurrency(List<Integer> levels, ClosedLoopStep template) {
        Objects.requireNonNull(template, "template");
        return of(Objects.requireNonNull(levels, "levels").stream().map(template::withConcurrency).toList());
    }

    /** One open-loop step per rate, each the template at that rate, labelled {@code rate=R}. */
    public static StepSequence rates(List<Double> ratesRps, OpenLoopStep template) {
        Objects.requireNonNull(template, "template");
        return of(Objects.requireNonNull(ratesRps, "ratesRps").stream().map(template::withRate).toList());
    }

    /**
     * Adds a single-user closed-loop baseline step first, labelled {@code baseline}, with the first
     * step's warm-up, duration, request bound and drain timeout (and think time, if closed loop).
     */
    public StepSequence withBaseline() {
        Step first = levels.get(0);
        ClosedLoopStep.Builder b = switch (first) {
            case ClosedLoopStep closed -> closed.toBuilder();
            case OpenLoopStep open -> {
                ClosedLoopStep.Builder cb = ClosedLoopStep.builder().warmup(open.warmup())
                        .maxRequests(open.maxRequests().orElse(-1)).drainTimeout(open.drainTimeout());
                open.duration().ifPresent(cb::duration);
                yield cb;
            }
        };
        return withBaseline(b.concurrency(1).label(BASELINE).build());
    }

    /** Adds the given step first, as the baseline. */
    public StepSequence withBaseline(Step baselineStep) {
        return new StepSequence(Objects.requireNonNull(baselineStep, "baselineStep"), levels, pause, gate);
    }

    /**
     * The load levels measured {@code n} times over, trial after trial ({@code c=1 #1, c=2 #1, c=1 #2, c=2 #2}), so
     * that a drift of the server over the run spreads over every level instead of biasing the last ones; each step
     * is {@link Step#asTrial trial} {@code k} of its level. The baseline is measured once, first. {@code n = 1}: this
     * ladder, unchanged.
     */
    public StepSequence withTrials(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("a load needs at least 1 trial, got " + n);
        }
        if (n == 1) {
            return this;
        }
        List<Step> trials = new ArrayList<>();
        for (int t = 1; t <= n; t++) {
            for (Step s : levels) {
                trials.add(s.asTrial(t));
            }
        }
        return new StepSequence(baseline, trials, pause, gate);
    }

    /** Pause between steps, after the previous step's requests ended (default 0). */
    public StepSequence withPause(Duration pauseBetweenSteps) {
        return new StepSequence(baseline, levels, pauseBetweenSteps, gate);
    }

    /** The stop condition evaluated after each step (default: never stop). */
    public StepSequence withGate(StepGate stepGate) {
        return new StepSequence(baseline, levels, pause, stepGate);
    }

    /** Every step in run order, the baseline first. */
    public List<Step> steps() {
        List<Step> all = new ArrayList<>();
        if (baseline != null) {
            all.add(baseline);
        }
        all.addAll(levels);
        return List.copyOf(all);
    }

    public Optional<Step> baseline() {
        return Optional.ofNullable(baseline);
    }

    public Duration pause() {
        return pause;
    }

    public StepGate gate() {
        return gate;
    }

    @Override
    public String toString() {
        return "StepSequence[" + steps().stream().map(Step::label).toList() + ", pause=" + pause + "]";
    }
}
