package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.request.RequestSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The streamed request body (hot path) must carry exactly the JSON of the map written by Jackson.
 * Compared as trees: the map path's messages are {@code Map.of}, whose key order varies between JVM
 * runs; the streamed path always writes {@code role} before {@code content}.
 */
class RequestBodiesTest {
    private static final String NASTY = "quote \" backslash \\ newline \n tab \t unicode é 漢 😀 control \u0001";

    private static TargetConfig target(ApiKind kind, boolean stream, boolean continuous) {
        return TargetConfig.builder().baseUrl("http://localhost:1").model("m-" + NASTY).apiKind(kind)
                .stream(stream).continuousUsageStats(continuous).build();
    }

    private static String viaMap(TargetConfig t, RequestSpec spec) throws Exception {
        // what the client sent before the streamed writer: the map written as UTF-8 bytes
        return new String(OpenAiChunkDecoder.MAPPER.writeValueAsBytes(RequestBodies.bodyMap(t, spec)),
                java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void streamedBodyEqualsTheMapBodyForEveryShape() throws Exception {
        RequestSpec chat = new RequestSpec("", List.of(new RequestSpec.ChatMessage("system", "be brief"),
                new RequestSpec.ChatMessage("user", NASTY)), 12, 7, Map.of(), "fg");
        List<RequestSpec> specs = List.of(RequestSpec.of(NASTY, 30), RequestSpec.of("p", -1), chat);
        int compared = 0;
        for (ApiKind kind : List.of(ApiKind.CHAT, ApiKind.COMPLETIONS)) {
            for (boolean stream : new boolean[] {true, false}) {
                for (boolean continuous : new boolean[] {true, false}) {
                    TargetConfig t = target(kind, stream, continuous);
                    for (RequestSpec spec : specs) {
                        String fast = new String(RequestBodies.body(t, spec), java.nio.charset.StandardCharsets.UTF_8);
                        assertThat(fast).as("%s stream=%s continuous=%s %s", kind, stream, continuous, spec)
                                .startsWith("{\"model\":");
                        assertThat(OpenAiChunkDecoder.MAPPER.readTree(fast))
                                .isEqualTo(OpenAiChunkDecoder.MAPPER.readTree(viaMap(t, spec)));
                        compared++;
                    }
                }
            }
        }
        assertThat(compared).isEqualTo(2 * 2 * 2 * specs.size());
    }

    @Test
    void extraFieldsStillOverrideInPlace() throws Exception {
        TargetConfig t = TargetConfig.builder().baseUrl("http://localhost:1").model("m").extraBody("stream", false)
                .extraBody("temperature", 0.5).build();
        RequestSpec spec = RequestSpec.of("hi", 5);
        String body = new String(RequestBodies.body(t, spec), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(OpenAiChunkDecoder.MAPPER.readTree(body)).isEqualTo(OpenAiChunkDecoder.MAPPER.readTree(viaMap(t, spec)));
        assertThat(body).contains("\"stream\":false").contains("\"temperature\":0.5");
    }

    @Test
    void contentTypeJsonCheck() {
        assertThat(Exchange.isJson("application/json")).isTrue();
        assertThat(Exchange.isJson("Application/JSON; charset=utf-8")).isTrue();
        assertThat(Exchange.isJson("application/problem+json")).isTrue();
        assertThat(Exchange.isJson("text/event-stream")).isFalse();
        assertThat(Exchange.isJson("text/event-stream; note=json")).isFalse();
        assertThat(Exchange.isJson("json")).isFalse();
        assertThat(Exchange.isJson(null)).isFalse();
    }
}
