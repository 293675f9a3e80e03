package dev.kneepoint.io;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kneepoint.metrics.ClientCheck;
import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.ClientThresholds;
import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The client self-check's JSON forms round-trip: what steps.jsonl and the manifest keep is what a reload judges with. */
class ClientJsonTest {

    private interface Writer {
        void write(JsonGenerator g) throws IOException;
    }

    private static String json(Writer w) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = Json.MAPPER.getFactory().createGenerator(out)) {
            w.write(g);
        }
        return out.toString();
    }

    @Test
    void thresholdsRoundTripAndASignalTurnedOffStaysOff() throws IOException {
        ClientThresholds t = ClientCheck.thresholds().scheduleLagFloorMs(7.5).cpuFraction(0.9)
                .probeDelayP99Ms(Double.POSITIVE_INFINITY).build();
        String s = json(g -> StepJson.writeThresholds(g, t));
        assertThat(s).contains("\"probe_delay_p99_ms\":null");
        assertThat(StepJson.readThresholds(Json.MAPPER.readTree(s))).isEqualTo(t);
        // A manifest without the key (an older run) judges with the defaults.
        assertThat(StepJson.readThresholds(null)).isEqualTo(ClientThresholds.defaults());
    }

    @Test
    void healthRoundTripsExactlyAndIsAbsentInOlderRuns() throws IOException {
        ClientHealth h = new ClientHealth(2_000_000_123L, 16, 3_600_000_001L, 40_000_000L, 3, 101, 200_001,
                12_000_003, 30_000_007, 20_000_000L);
        String s = json(g -> StepJson.writeHealth(g, h));
        assertThat(StepJson.readHealth(Json.MAPPER.readTree(s))).isEqualTo(h);
        assertThat(StepJson.readHealth(null)).isEqualTo(ClientHealth.NOT_MEASURED);
    }
}
