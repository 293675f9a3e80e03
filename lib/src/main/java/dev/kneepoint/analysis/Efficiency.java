package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.telemetry.TelemetryData;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a token costs, per step (docs/ANALYSIS.md "Cost and energy"): output tokens per second per GPU, dollars per
 * million output and per million input tokens at the deployment's price per hour, and, where GPU power was sampled,
 * the energy per output token, integrated over the step's window on the run clock.
 *
 * <ul>
 *   <li>{@code usd_per_mtok_output = price_per_hour / 3600 / output_tokens_per_s × 10⁶}: all of the deployment's
 *       cost charged to the output tokens (and likewise to the input tokens for {@code usd_per_mtok_input}, a
 *       separate view, not a share: a batch of prompts costs the same hour);</li>
 *   <li>{@code gpu_power_w}: the sum over GPUs of each one's mean {@code power_w} in the window, so
 *       {@code gpu_power_w × window} is the energy the GPUs drew in it; {@code joules_per_output_token =
 *       gpu_power_w / output_tokens_per_s}, and its inverse, output tokens per joule.</li>
 * </ul>
 *
 * @param gpus          GPUs serving the target: given, or counted from the GPU telemetry; 0 when unknown
 * @param gpusFrom      {@code given}, {@code telemetry} or {@code unknown}
 * @param pricePerHour  the deployment's price per hour, USD (all its GPUs together); NaN when not given
 * @param powerSampled  whether the telemetry has GPU power in any step's window
 * @param steps         one row per step, in run order
 */
public record Efficiency(int gpus, String gpusFrom, double pricePerHour, boolean powerSampled, List<Row> steps) {

    public Efficiency {
        steps = List.copyOf(steps);
    }

    /**
     * One step's figures; NaN where an input is missing (no price, no GPU count, no power, no output tokens).
     *
     * @param step                  its label
     * @param outputTokensPerSPerGpu output tokens per second divided by {@code gpus}
     * @param usdPerMtokOutput      dollars per million output tokens
     * @param usdPerMtokInput       dollars per million input (prompt) tokens
     * @param gpuPowerW             all GPUs' mean power in the window, W
     * @param joulesPerOutputToken  {@code gpuPowerW / output_tokens_per_s}
     */
    public record Row(String step, double outputTokensPerSPerGpu, double usdPerMtokOutput, double usdPerMtokInput,
                      double gpuPowerW, double joulesPerOutputToken) {
        /** Output tokens per joule, NaN when the energy is unknown. */
        public double outputTokensPerJoule() {
            return joulesPerOutputToken > 0 ? 1 / joulesPerOutputToken : Double.NaN;
        }
    }

    /**
     * The figures of {@code run}. {@code gpus} is the number serving the target (0: count them in the telemetry's
     * {@code gpu} series); {@code pricePerHour} the deployment's USD per hour (NaN: none).
     */
    public static Efficiency of(RunResult run, TelemetryData telemetry, int gpus, double pricePerHour) {
        if (gpus < 0 || !(Double.isNaN(pricePerHour) || pricePerHour > 0)) {
            throw new IllegalArgumentException("gpus must be >= 0 (0: from telemetry) and the price per hour positive, "
                    + "got " + gpus + " and " + pricePerHour);
        }
        TelemetryData t = telemetry == null ? TelemetryData.empty() : telemetry;
        int counted = countGpus(t);
        int n = gpus > 0 ? gpus : counted;
        String from = gpus > 0 ? "given" : counted > 0 ? "telemetry" : "unknown";
        Map<String, double[]> perStep = TelemetryTables.perStep(run.steps(), t);
        List<Row> rows = new ArrayList<>();
        boolean anyPower = false;
        for (int i = 0; i < run.steps().size(); i++) {
            StepResult s = run.steps().get(i);
            double out = s.rates().outputTokensPerS();
            double in = s.rates().inputTokensPerS();
            double power = power(perStep, i);
            anyPower |= !Double.isNaN(power);
            rows.add(new Row(s.info().label(), n > 0 ? out / n : Double.NaN, perMillion(pricePerHour, out),
                    perMillion(pricePerHour, in), power, out > 0 ? power / out : Double.NaN));
        }
        return new Efficiency(n, from, pricePerHour, anyPower, rows);
    }

    /** USD per million tokens at {@code tokensPerS} for a deployment of {@code pricePerHour}; NaN without either. */
    static double perMillion(double pricePerHour, double tokensPerS) {
        return tokensPerS > 0 ? pricePerHour / 3600 / tokensPerS * 1e6 : Double.NaN;
    }

    /** The sum over GPUs of their mean power in step {@code i}'s window; NaN when none was sampled there. */
    private static double power(Map<String, double[]> perStep, int i) {
        double sum = 0;
        boolean any = false;
        for (Map.Entry<String, double[]> e : perStep.entrySet()) {
            if (e.getKey().startsWith("gpu:power_w") && e.getKey().endsWith("_mean") && !Double.isNaN(e.getValue()[i])) {
                sum += e.getValue()[i];
                any = true;
            }
        }
        return any ? sum : Double.NaN;
    }

    /** Distinct {@code gpu} labels among the telemetry's GPU series. */
    static int countGpus(TelemetryData t) {
        TreeSet<String> ids = new TreeSet<>();
        t.samples().stream().filter(s -> s.source().equals("gpu") && s.labels().containsKey("gpu"))
                .forEach(s -> ids.add(s.labels().get("gpu")));
        return ids.size();
    }

    /** Whether any figure is known: a price, a GPU count or sampled power. */
    public boolean known() {
        return gpus > 0 || !Double.isNaN(pricePerHour) || powerSampled;
    }

    /** The figures as text: what was known, then one line per step. */
    public String table() {
        StringBuilder sb = new StringBuilder("Cost and energy (");
        sb.append(gpus > 0 ? gpus + " GPU(s), " + gpusFrom : "GPU count unknown: give --gpus").append("; ")
                .append(Double.isNaN(pricePerHour) ? "no price: give --price-per-hour"
                        : String.format(Locale.ROOT, "$%.2f per hour for the deployment", pricePerHour))
                .append("; ").append(powerSampled ? "GPU power sampled on the run clock"
                        : "GPU power not sampled: no energy figures").append("):\n");
        sb.append(String.format(Locale.ROOT, "  %-12s %14s %12s %12s %10s %10s%n", "step", "out tok/s/GPU", "$/Mtok out",
                "$/Mtok in", "GPU W", "J/out tok"));
        for (Row r : steps) {
            sb.append(String.format(Locale.ROOT, "  %-12s %14s %12s %12s %10s %10s%n", r.step(),
                    Format.num(r.outputTokensPerSPerGpu()), Format.num(r.usdPerMtokOutput()),
                    Format.num(r.usdPerMtokInput()), Format.num(r.gpuPowerW()), Format.num(r.joulesPerOutputToken())));
        }
        return sb.toString();
    }
}
