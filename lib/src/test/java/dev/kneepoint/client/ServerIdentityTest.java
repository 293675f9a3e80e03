package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** What each engine's identity endpoints say, read from the shapes those engines answer with. */
class ServerIdentityTest {
    private static MockWebServer serving(Map<String, String> bodies) throws Exception {
        MockWebServer s = new MockWebServer();
        s.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest r) {
                String body = bodies.get(r.getUrl().encodedPath());
                return body == null ? new MockResponse.Builder().code(404).body("{\"error\":\"no\"}").build()
                        : new MockResponse.Builder().addHeader("Content-Type", "application/json").body(body).build();
            }
        });
        s.start();
        return s;
    }

    private static Map<String, Object> probe(MockWebServer s, String model) {
        return ServerIdentity.probe(TargetConfig.builder().baseUrl(s.url("/").toString()).model(model).build());
    }

    @Test
    void vllmSaysItsVersionAndContextLength() throws Exception {
        try (MockWebServer s = serving(Map.of("/v1/models", "{\"object\":\"list\",\"data\":[{\"id\":\"Qwen/Qwen3-8B\","
                + "\"owned_by\":\"vllm\",\"max_model_len\":32768}]}", "/version", "{\"version\":\"0.11.0\"}"))) {
            assertThat(probe(s, "Qwen/Qwen3-8B")).containsEntry("engine", "vllm").containsEntry("version", "0.11.0")
                    .containsEntry("model", "Qwen/Qwen3-8B").containsEntry("context_length", 32768)
                    .containsEntry("answered", List.of("/v1/models", "/version"));
        }
    }

    @Test
    void llamaCppSaysItsSlotsAndBuild() throws Exception {
        try (MockWebServer s = serving(Map.of("/props", "{\"default_generation_settings\":{\"n_ctx\":4096},"
                + "\"total_slots\":2,\"model_path\":\"/m/smollm2.gguf\",\"build_info\":\"b6000-abc\"}"))) {
            Map<String, Object> id = probe(s, "m");
            assertThat(id).containsEntry("engine", "llamacpp").containsEntry("version", "b6000-abc")
                    .containsEntry("context_length", 4096).containsEntry("parallel", Map.of("slots", 2));
        }
    }

    @Test
    void tgiSglangAndOllamaAreToldApart() throws Exception {
        try (MockWebServer s = serving(Map.of("/info", "{\"model_id\":\"meta/llama\",\"model_dtype\":\"torch.float16\","
                + "\"max_total_tokens\":8192,\"version\":\"3.3.0\",\"max_concurrent_requests\":128}"))) {
            assertThat(probe(s, "m")).containsEntry("engine", "tgi").containsEntry("quantization", "torch.float16")
                    .containsEntry("parallel", Map.of("max_concurrent_requests", 128));
        }
        try (MockWebServer s = serving(Map.of("/get_server_info", "{\"tp_size\":2,\"dp_size\":1,\"model_path\":\"m\","
                + "\"context_length\":16384,\"version\":\"0.5.0\",\"chunked_prefill_size\":8192}"))) {
            assertThat(probe(s, "m")).containsEntry("engine", "sglang").containsEntry("context_length", 16384)
                    .containsEntry("parallel", Map.of("tensor", 2, "data", 1))
                    .containsEntry("launch", Map.of("chunked_prefill_size", 8192));
        }
        try (MockWebServer s = serving(Map.of("/api/version", "{\"version\":\"0.12.3\"}", "/api/show",
                "{\"details\":{\"quantization_level\":\"Q4_K_M\",\"parameter_size\":\"1.7B\"},"
                        + "\"model_info\":{\"llama.context_length\":8192}}"))) {
            assertThat(probe(s, "smollm2")).containsEntry("engine", "ollama").containsEntry("version", "0.12.3")
                    .containsEntry("quantization", "Q4_K_M").containsEntry("context_length", 8192);
        }
        try (MockWebServer s = serving(Map.of())) {
            assertThat(probe(s, "m")).containsEntry("engine", "unknown").containsEntry("answered", List.of());
        }
    }
}
