package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** The reset endpoints by engine, and what a reset sends and reports. */
class PrefixCacheTest {
    @Test
    void eachEngineWithAResetHasItsEndpointAndOthersNone() {
        assertThat(PrefixCache.endpoint("vllm")).contains("/reset_prefix_cache");
        assertThat(PrefixCache.endpoint("sglang")).contains("/flush_cache");
        assertThat(PrefixCache.endpoint("simulator")).contains("/reset_prefix_cache");
        assertThat(PrefixCache.endpoint("llamacpp")).isEqualTo(Optional.empty());
        assertThat(PrefixCache.endpoint(null)).isEmpty();
    }

    @Test
    void aResetPostsToTheServersRootAndReportsARefusal() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder().code(200).build());
            server.enqueue(new MockResponse.Builder().code(403).build());
            server.start();
            TargetConfig t = TargetConfig.builder().baseUrl(server.url("/v1").toString()).model("m").build();
            assertThat(PrefixCache.reset(t, "/reset_prefix_cache")).isNull();
            RecordedRequest sent = server.takeRequest();
            assertThat(sent.getMethod()).isEqualTo("POST");
            assertThat(sent.getTarget()).isEqualTo("/reset_prefix_cache");
            assertThat(PrefixCache.reset(t, "/flush_cache")).isEqualTo("HTTP 403 from /flush_cache");
        }
    }
}
