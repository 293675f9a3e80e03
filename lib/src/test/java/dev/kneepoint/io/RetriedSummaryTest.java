package dev.kneepoint.io;

import dev.kneepoint.metrics.ClientHealth;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RetriedRecords;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The step's {@code retried} count through summary.json and back, and a summary written before it existed. */
class RetriedSummaryTest {
    @TempDir
    Path tmp;

    @Test
    void retriedRoundTripsThroughTheRunDirectory() throws Exception {
        StepInfo info = TestRecords.closedStep("c=2", 2);
        List<RequestRecord> records = RetriedRecords.scripted("c=2");
        StepResult live;
        Path dir;
        try (RunDirectory run = RunDirectory.builder(tmp).open()) {
            dir = run.path();
            run.stepStarted(info, 0, null);
            records.forEach(run::requestFinished);
            run.stepFinished(info, TestRecords.window(1000, 2000), ClientHealth.NOT_MEASURED);
            live = run.aggregator().results().get(0);
        }
        assertThat(live.counts().retried()).isEqualTo(4); // RetriedCountTest.scripted: 2 OK + 2 failed resent
        LoadedRun loaded = RunLoader.load(dir);
        JsonNode step = loaded.summary().orElseThrow().path("steps").get(0);
        assertThat(step.get("retried").asLong()).isEqualTo(4);
        assertThat(SummaryJson.retried(step)).isEqualTo(4);
        // re-aggregated from requests.jsonl, where only the resent records carry "retried": true
        assertThat(loaded.result().step("c=2").counts().retried()).isEqualTo(4);
        assertThat(Files.readAllLines(dir.resolve("requests.jsonl")))
                .filteredOn(l -> l.contains("\"retried\":true")).hasSize(6); // 4 counted + warm-up + cancelled
    }

    @Test
    void aSummaryWithoutTheFieldReadsAsZero() throws Exception {
        JsonNode summary = Json.MAPPER.readTree(SummaryJson.toJson(SummaryJsonGoldenTest.goldenRun()));
        ObjectNode step = (ObjectNode) summary.path("steps").get(0);
        assertThat(step.has("retried")).isTrue();
        step.remove("retried"); // as an older Kneepoint wrote it
        assertThat(SummaryJson.retried(step)).isZero();
        step.put("retried", 3);
        assertThat(SummaryJson.retried(step)).isEqualTo(3);
    }

    @Test
    void aMalformedCountIsAnErrorNamingTheStep() throws Exception {
        ObjectNode step = (ObjectNode) Json.MAPPER.readTree("{\"label\": \"c=8\", \"retried\": \"many\"}");
        assertThatThrownBy(() -> SummaryJson.retried(step)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("summary step 'c=8': retried must be a whole number >= 0, got \"many\"");
        step.put("retried", -1);
        assertThatThrownBy(() -> SummaryJson.retried(step)).hasMessageContaining("got -1");
        step.put("retried", 1.5);
        assertThatThrownBy(() -> SummaryJson.retried(step)).hasMessageContaining("got 1.5");
    }
}
