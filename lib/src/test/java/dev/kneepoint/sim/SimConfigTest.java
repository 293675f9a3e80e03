package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class SimConfigTest {

    @Test
    void everyPresetBuilds() {
        for (String name : SimConfig.PRESETS) {
            SimConfig c = SimConfig.preset(name);
            assertThat(c.host()).isEqualTo("127.0.0.1");
            assertThat(c.numKvBlocks() * c.blockSize()).isGreaterThanOrEqualTo(c.maxModelLen());
        }
    }

    @Test
    void unknownPresetListsTheKnownOnes() {
        assertThatThrownBy(() -> SimConfig.preset("h100"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("h100")
                .hasMessageContaining("fast, cpu-small, gpu-8b, gpu-70b-tp8");
    }

    @Test
    void builderReportsAllProblemsAtOnce() {
        assertThatThrownBy(() -> SimConfig.builder().maxNumSeqs(0).blockSize(0).jitter(2).tokensPerChunk(0)
                .port(-1).build())
                .hasMessageContaining("maxNumSeqs")
                .hasMessageContaining("blockSize")
                .hasMessageContaining("jitter")
                .hasMessageContaining("tokensPerChunk")
                .hasMessageContaining("port");
        assertThatThrownBy(() -> FaultConfig.builder().probability(FaultKind.HTTP_500, 0.8)
                .probability(FaultKind.HTTP_503, 0.7).schedule(FaultKind.ENGINE_STALL, Duration.ofSeconds(-1),
                        Duration.ZERO).build())
                .hasMessageContaining("sum")
                .hasMessageContaining("at >= 0");
    }

    @Test
    void toBuilderRoundTrips() {
        SimConfig c = SimConfig.preset("gpu-8b");
        assertThat(c.toBuilder().build()).isEqualTo(c);
    }
}
