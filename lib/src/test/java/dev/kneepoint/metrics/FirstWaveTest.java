package dev.kneepoint.metrics;

import static dev.kneepoint.metrics.TestRecords.closedStep;
import static dev.kneepoint.metrics.TestRecords.ok;
import static dev.kneepoint.metrics.TestRecords.openStep;
import static dev.kneepoint.metrics.TestRecords.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The client self-check leaves a closed loop's first wave (connection set-up) out of its schedule lag. */
class FirstWaveTest {
    private static final int USERS = 8;

    /** 8 users, 25 requests each: every user's first request leaves 60 ms late, the others 0.2 ms. */
    private static List<RequestRecord> records(String step) {
        List<RequestRecord> out = new ArrayList<>();
        long id = 0;
        for (int u = 0; u < USERS; u++) {
            for (int k = 0; k < 25; k++) {
                double intended = 10 * u + 400.0 * k; // users ramp over 80 ms, then each request takes ~400 ms
                double lag = k == 0 ? 60 : 0.2;
                double d = intended + lag;
                out.add(ok(id++, step, intended, d, new double[] {d + 20, d + 300}, new int[] {1, 15}).build());
            }
        }
        return out;
    }

    private static StepResult aggregate(StepInfo info, List<RequestRecord> records) {
        StepAggregator a = StepAggregator.forUnknownWindow(info, Slo.none(), ClientThresholds.defaults());
        records.forEach(a::accept);
        return a.finish(window(0, 10_400));
    }

    @Test
    void theFirstWaveIsInTheStepsLagButNotInTheClientCheck() {
        StepResult s = aggregate(closedStep("c=8", USERS), records("c=8"));
        assertThat(s.latency().scheduleLag().p99()).isCloseTo(60, within(0.1)); // the step's own lag: every request
        ClientSignal lag = s.clientCheck().signals().stream().filter(x -> x.name().equals(ClientCheck.LAG))
                .findFirst().orElseThrow();
        assertThat(lag.value()).isCloseTo(0.2, within(0.01));
        assertThat(s.clientBound()).isFalse();
    }

    @Test
    void theWaveDoesNotDependOnTheOrderRecordsArriveIn() {
        List<RequestRecord> rs = records("c=8");
        StepResult inOrder = aggregate(closedStep("c=8", USERS), rs);
        Collections.shuffle(rs, new Random(5));
        assertThat(aggregate(closedStep("c=8", USERS), rs).clientCheck()).isEqualTo(inOrder.clientCheck());
    }

    @Test
    void anOpenLoopKeepsEveryRequestInItsCheck() {
        StepResult s = aggregate(openStep("rate=20", 20), records("rate=20"));
        ClientSignal lag = s.clientCheck().signals().stream().filter(x -> x.name().equals(ClientCheck.LAG))
                .findFirst().orElseThrow();
        assertThat(lag.value()).isCloseTo(60, within(0.1));
    }
}
