package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import org.junit.jupiter.api.Test;

/** analysis.json: the report's verdict as data, with every absent verdict explained and no NaN anywhere. */
class AnalysisJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(RunResult run, KneeReport k) throws Exception {
        // Through text, as a reader of the file sees it: NaN would not parse as strict JSON.
        String text = JSON.writeValueAsString(AnalysisJson.of(run, k));
        assertThat(text).doesNotContain("NaN").doesNotContain("Infinity");
        return JSON.readTree(text);
    }

    @Test
    void aClosedLadderWithAKneeAndNoSlo() throws Exception {
        // Elastic to c=16, then flat: the knee is c=16 (as in ReadingsTest). The c=1 step has 50 OK requests.
        var run = run("json", s(1, 100, 500).ttft(50).itl(20).ok(50), s(4, 350, 700).ttft(55).itl(30),
                s(16, 600, 1000).ttft(60).itl(50), s(32, 600, 2000).ttft(500).itl(50), s(64, 600, 4000).ttft(900));
        KneeReport k = Knee.analyze(run);
        JsonNode j = json(run, k);
        assertThat(j.get("schema_version").asInt()).isEqualTo(AnalysisJson.SCHEMA_VERSION);
        assertThat(j.get("latency_metric").asText()).isEqualTo("e2e_sched_p99_ms");
        assertThat(j.get("slo").isNull()).isTrue();
        assertThat(j.at("/knee/step").asText()).isEqualTo("c=16");
        assertThat(j.at("/knee/load").asDouble()).isEqualTo(16);
        assertThat(j.at("/knee").has("reason")).isFalse();
        // A closed loop without a latency SLO has no sustainable load, and says why.
        assertThat(j.at("/max_sustainable/step").isNull()).isTrue();
        assertThat(j.at("/max_sustainable/reason").asText()).startsWith("not judged: a closed loop without a latency SLO");
        assertThat(j.at("/operating_points/throughput_first/load").isNull()).isTrue();
        assertThat(j.at("/operating_points/latency_first/step").asText()).isEqualTo("c=16");
        assertThat(j.get("answer").get(0).asText()).startsWith("Peak output throughput");
        JsonNode steps = j.get("steps");
        assertThat(steps).hasSize(5);
        assertThat(steps.get(0).get("step").asText()).isEqualTo("c=1");
        assertThat(steps.get(0).at("/adequacy/ok_requests").asLong()).isEqualTo(50);
        assertThat(steps.get(0).at("/adequacy/thin_percentile").asBoolean()).isTrue();
        assertThat(steps.get(1).at("/adequacy/thin_percentile").asBoolean()).isFalse();
        assertThat(steps.get(2).get("role").asText()).isEqualTo("knee (efficient)");
        assertThat(steps.get(2).get("latency").asDouble()).isEqualTo(k.steps().doubleColumn("e2e_sched_p99_ms").get(2));
        assertThat(j.get("readings")).extracting(r -> r.get("kind").asText()).contains("decode_bound", "server_limit");
        assertThat(j.get("readings")).allSatisfy(r -> assertThat(r.get("status").asText())
                .isIn("applies", "does_not_apply", "insufficient_data"));
    }

    @Test
    void noKneeAndAnSloNobodyMeetsAreReasonsNotNumbers() throws Exception {
        var run = run("short", s(1, 100, 500), s(2, 190, 520));
        KneeReport k = Knee.analyze(run, KneeOptions.builder().slo(Slo.builder().e2eMs(100).build()).build());
        JsonNode j = json(run, k);
        assertThat(j.at("/knee/step").isNull()).isTrue();
        assertThat(j.at("/knee/load").isNull()).isTrue();
        assertThat(j.at("/knee/reason").asText()).isEqualTo("fewer than 3 steps: no knee verdict");
        assertThat(j.at("/slo/e2e_ms").asDouble()).isEqualTo(100);
        assertThat(j.at("/slo/ttft_ms").isNull()).isTrue();
        assertThat(j.at("/max_sustainable/reason").asText()).isEqualTo("no step meets the SLO set");
        assertThat(j.at("/recommended/reason").asText()).isEqualTo("no step at or below the knee meets the SLO set");
        assertThat(j.at("/steps/0/meets_slo").asBoolean()).isFalse();
        assertThat(j.at("/steps/0/slo_violations/0").asText()).contains("e2e");
    }

    @Test
    void aStepWithoutOkRequestsHasNullNumbers() throws Exception {
        var run = run("dead", s(1, 100, 500), s(2, Double.NaN, 500).ok(0).failed(50, "CONNECTION_ERROR"), s(4, 300, 600));
        JsonNode j = json(run, Knee.analyze(run));
        assertThat(j.at("/steps/1/step").asText()).isEqualTo("c=2");
        assertThat(j.at("/steps/1/latency").isNull()).isTrue();
        assertThat(j.at("/steps/1/throughput").isNull()).isTrue();
        assertThat(j.at("/steps/1/adequacy/ok_requests").asLong()).isZero();
    }
}
