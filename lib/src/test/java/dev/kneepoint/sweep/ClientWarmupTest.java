package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

class ClientWarmupTest {

    /** The warm-up streams from its own embedded simulator, once per JVM and path, and never touches the target. */
    @Test
    void warmsOnceAndNeverSendsToTheTarget() throws Exception {
        try (MockWebServer target = new MockWebServer()) {
            target.start();
            // a kind no other test warms first in this JVM (the cache is per JVM), so the first call really runs
            TargetConfig t = TargetConfig.builder().baseUrl(target.url("/v1").toString()).model("m")
                    .apiKind(ApiKind.SGLANG_GENERATE).build();
            double first = ClientWarmup.ensure(t);
            double again = ClientWarmup.ensure(t);
            assertThat(first).as("warm-up wall ms (0 = already done, -1 = failed)").isPositive();
            assertThat(again).as("second call: already warm").isZero();
            assertThat(target.getRequestCount()).as("requests that reached the target").isZero();
        }
    }
}
