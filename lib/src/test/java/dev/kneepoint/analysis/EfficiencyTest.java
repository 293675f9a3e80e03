package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.telemetry.TelemetryData;
import dev.kneepoint.telemetry.TelemetrySample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Cost and energy per token, checked against hand arithmetic. */
class EfficiencyTest {
    // Ladders: step i measures 60 s from i·100 s + 10 s; c=1 at 100 output tok/s, c=8 at 800 (input: 100 tok/s
    // per req/s, 1000 OK requests in 60 s = 16.67 req/s, so 1666.7 input tok/s at every step).
    private static final RunResult RUN = run("cost", s(1, 100, 100), s(8, 800, 200));

    /** Two GPUs drawing 150 W and 250 W during step 0 and 300 W and 400 W during step 1 (200 W between steps). */
    private static TelemetryData power() {
        List<TelemetrySample> out = new ArrayList<>();
        for (long t = 0; t < 200_000_000_000L; t += 5_000_000_000L) {
            int step = (int) (t / 100_000_000_000L);
            long in = t % 100_000_000_000L;
            boolean inWindow = in >= 10_000_000_000L && in < 70_000_000_000L;
            double[] w = !inWindow ? new double[] {200, 200} : step == 0 ? new double[] {150, 250} : new double[] {300, 400};
            for (int g = 0; g < 2; g++) {
                out.add(TelemetrySample.of(t, "gpu", "power_w", Map.of("gpu", Integer.toString(g)),
                        TelemetrySample.Kind.GAUGE, w[g]));
            }
        }
        return new TelemetryData(out, List.of(), List.of());
    }

    @Test
    void dollarsPerMillionTokensAndJoulesPerTokenFollowFromThePriceAndThePower() {
        Efficiency e = Efficiency.of(RUN, power(), 0, 7.2);
        assertThat(e.gpus()).isEqualTo(2);
        assertThat(e.gpusFrom()).isEqualTo("telemetry");
        assertThat(e.powerSampled()).isTrue();
        Efficiency.Row c1 = e.steps().get(0);
        Efficiency.Row c8 = e.steps().get(1);
        // $7.20 an hour is $0.002 a second: at 100 tok/s, $20 per million output tokens; at 800 tok/s, $2.50.
        assertThat(c1.usdPerMtokOutput()).isCloseTo(20.0, within(1e-9));
        assertThat(c8.usdPerMtokOutput()).isCloseTo(2.5, within(1e-9));
        // Input: 1666.67 tok/s at both: $1.20 per million.
        assertThat(c8.usdPerMtokInput()).isCloseTo(1.2, within(1e-9));
        assertThat(c8.outputTokensPerSPerGpu()).isEqualTo(400);
        // 400 W for 100 tok/s is 4 J a token; 700 W for 800 tok/s 0.875 J, 1.143 tokens per joule. The 200 W
        // between steps is outside every window.
        assertThat(c1.gpuPowerW()).isEqualTo(400);
        assertThat(c1.joulesPerOutputToken()).isCloseTo(4.0, within(1e-9));
        assertThat(c8.joulesPerOutputToken()).isCloseTo(0.875, within(1e-9));
        assertThat(c8.outputTokensPerJoule()).isCloseTo(1 / 0.875, within(1e-9));
        assertThat(e.table()).contains("2 GPU(s), telemetry").contains("$7.20 per hour")
                .contains("GPU power sampled on the run clock");
    }

    @Test
    void withoutPowerOrPriceTheFiguresAreMissingAndSaidSo() {
        Efficiency e = Efficiency.of(RUN, TelemetryData.empty(), 4, Double.NaN);
        assertThat(e.gpusFrom()).isEqualTo("given");
        assertThat(e.steps().get(1).outputTokensPerSPerGpu()).isEqualTo(200);
        assertThat(e.steps().get(1).usdPerMtokOutput()).isNaN();
        assertThat(e.steps().get(1).joulesPerOutputToken()).isNaN();
        assertThat(e.powerSampled()).isFalse();
        assertThat(e.table()).contains("no price: give --price-per-hour").contains("GPU power not sampled");
        assertThat(Efficiency.of(RUN, TelemetryData.empty(), 0, Double.NaN).known()).isFalse();
        assertThatThrownBy(() -> Efficiency.of(RUN, TelemetryData.empty(), -1, 2)).hasMessageContaining("gpus must be");
    }
}
