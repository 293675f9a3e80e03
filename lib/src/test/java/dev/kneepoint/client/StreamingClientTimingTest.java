package dev.kneepoint.client;

import static dev.kneepoint.client.ScriptedBody.content;
import static dev.kneepoint.client.ScriptedBody.finish;
import static dev.kneepoint.client.ScriptedBody.role;
import static dev.kneepoint.client.ScriptedBody.usage;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Timestamps against scripted delays. Tolerances: a scripted pause is a lower bound on the gap
 * the client can see (bytes cannot arrive before they are written), minus a few ms of read-side
 * jitter; the upper slack is generous (250-300 ms) because the build machine is shared and noisy.
 */
class StreamingClientTimingTest extends ClientFixture {

    @Test
    void ttftItlAndE2eFollowTheScriptRoleChunkIsNotAToken() {
        enqueueSse(body().event(role()).pause(200).event(content("a")).pause(100).event(content("b"))
                .pause(100).event(finish("c")).event(usage(11, 6)).write("data: [DONE]\n\n"));
        RequestRecord r = send(target(b -> b));

        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        // the role chunk arrives at ~0 ms; counting it would make ttft ~0
        assertThat(ms(r.ttftNanos())).isBetween(195.0, 200.0 + 300);
        // The role chunk is written at ~0 ms, the first content 200 ms later. First byte is measured from dispatch
        // (not against ttft, which a late read of the role chunk would bring close to it): a first-byte stamp
        // taken at the first token would be >= 195 ms (hard), so < 195 ms catches it while leaving ~195 ms
        // for a late read of the role chunk on a loaded machine.
        assertThat(ms(r.timing().firstByteNanos() - r.timing().dispatchNanos())).isLessThan(195.0);
        assertThat(r.timing().firstByteNanos()).isLessThanOrEqualTo(r.timing().firstTokenNanos());
        assertThat(r.timing().chunkNanos()).hasSize(3);
        // Each content event is scripted 200, 300, 400 ms after the request. Measured from dispatch these are
        // hard lower bounds (the server cannot send early); a gap between two events is not, because a late
        // first event shortens the next gap (87 ms was seen for a 100 ms pause on a loaded machine).
        for (int i = 0; i < 3; i++) {
            double at = ms(r.timing().chunkNanos()[i] - r.timing().dispatchNanos());
            assertThat(at).as("event %d after dispatch", i).isBetween(195.0 + 100 * i, 200.0 + 100 * i + 300);
        }
        for (int i = 1; i < 3; i++) {
            assertThat(ms(r.timing().chunkNanos()[i] - r.timing().chunkNanos()[i - 1])).as("gap %d", i)
                    .isLessThan(100.0 + 250);
        }
        assertThat(ms(r.e2eNanos())).isBetween(395.0, 400.0 + 300);
        assertThat(r.timing().endNanos()).isGreaterThanOrEqualTo(r.timing().lastTokenNanos());
        // usage chunk: 6 tokens over 3 events -> 2 each, server source
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(r.timing().chunkTokens()).containsExactly(2, 2, 2);
        assertThat(r.tokens().outputTokens()).isEqualTo(6);
        assertThat(r.tokens().clientCountedTokens()).isEqualTo(3);
        assertThat(r.tokens().promptTokens()).isEqualTo(11);
        assertThat(r.response().finishReason()).isEqualTo("stop");
        assertThat(r.response().streamed()).isTrue();
        assertThat(r.id()).isEqualTo(7);
        assertThat(r.step()).isEqualTo("step-1");
        assertThat(r.tokens().requestedOutputTokens()).isEqualTo(16);
    }

    @Test
    void headersDelayCountsIntoTtft() {
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                .headersDelay(200, TimeUnit.MILLISECONDS)
                .body("data: " + finish("x") + "\n\ndata: [DONE]\n\n").build());
        RequestRecord r = send(target(b -> b));
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(ms(r.timing().firstByteNanos() - r.timing().dispatchNanos())).isBetween(195.0, 200.0 + 300);
        assertThat(ms(r.ttftNanos())).isBetween(195.0, 200.0 + 300);
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.EVENTS);
    }

    @Test
    void eventsOfOneReadShareOneTimestamp() {
        enqueueSse(body().write("data: " + content("a") + "\n\ndata: " + content("b") + "\n\ndata: "
                + finish("c") + "\n\n").pause(100).write("data: [DONE]\n\n"));
        RequestRecord r = send(target(b -> b));
        assertThat(r.timing().chunkNanos()).hasSize(3);
        assertThat(r.timing().chunkNanos()[0]).isEqualTo(r.timing().chunkNanos()[1])
                .isEqualTo(r.timing().chunkNanos()[2]);
        // t_end is the [DONE] read, scripted 100 ms after the events: a hard lower bound from dispatch (a late
        // read of the events could shorten the gap between the two reads, so that gap is bounded above only).
        assertThat(ms(r.timing().endNanos() - r.timing().dispatchNanos())).isBetween(95.0, 100.0 + 300);
        assertThat(r.timing().endNanos()).isGreaterThan(r.timing().lastTokenNanos());
        assertThat(ms(r.timing().endNanos() - r.timing().lastTokenNanos())).isLessThan(100.0 + 250);
    }

    @Test
    void continuousUsageSplitsMultiTokenChunks() {
        String c1 = "{\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":1}}";
        String c2 = "{\"choices\":[{\"delta\":{\"content\":\"bcd\"},\"finish_reason\":\"length\"}],"
                + "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":4}}";
        enqueueSse(body().event(c1).event(c2).write("data: [DONE]\n\n"));
        RequestRecord r = send(target(b -> b.continuousUsageStats(true)));
        assertThat(r.timing().chunkTokens()).containsExactly(1, 3);
        assertThat(r.tokens().outputTokens()).isEqualTo(4);
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
    }

    @Test
    void requestBodyHeadersAndSecretHandling() throws Exception {
        enqueueSse(body().event(finish("x")).write("data: [DONE]\n\n"));
        String secret = "sk-test-secret-42";
        TargetConfig t = target(b -> b.continuousUsageStats(true).extraBody("ignore_eos", true)
                .extraBody("min_tokens", 16).header("X-Run", "r1")
                .apiKeyFromEnv("KP_TEST_KEY").environment(k -> secret));
        RequestSpec spec = new RequestSpec("hi", List.of(), 16, 5, Map.of("seed", 3), "fg");
        RequestRecord r;
        try (StreamingClient client = new StreamingClient(t)) {
            assertThat(client.toString()).doesNotContain(secret);
            r = client.execute(spec, new RequestContext(1, "s", false, clock.now(), clock), new Cancellation());
        }
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.tag()).isEqualTo("fg");
        assertThat(r.tokens().promptTokens()).isEqualTo(5);
        RecordedRequest req = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(req.getUrl().encodedPath()).isEqualTo("/v1/chat/completions");
        assertThat(req.getHeaders().get("Authorization")).isEqualTo("Bearer " + secret);
        assertThat(req.getHeaders().get("X-Run")).isEqualTo("r1");
        JsonNode body = OpenAiChunkDecoder.MAPPER.readTree(req.getBody().utf8());
        assertThat(body.get("model").asText()).isEqualTo("test-model");
        assertThat(body.get("messages").get(0).get("role").asText()).isEqualTo("user");
        assertThat(body.get("messages").get(0).get("content").asText()).isEqualTo("hi");
        assertThat(body.get("max_tokens").asInt()).isEqualTo(16);
        assertThat(body.get("stream").asBoolean()).isTrue();
        assertThat(body.get("stream_options").get("include_usage").asBoolean()).isTrue();
        assertThat(body.get("stream_options").get("continuous_usage_stats").asBoolean()).isTrue();
        assertThat(body.get("ignore_eos").asBoolean()).isTrue();
        assertThat(body.get("min_tokens").asInt()).isEqualTo(16);
        assertThat(body.get("seed").asInt()).isEqualTo(3);
    }

    @Test
    void completionsEndpointSendsPrompt() throws Exception {
        enqueueSse(body().event("{\"choices\":[{\"text\":\"abc\",\"finish_reason\":\"stop\"}]}").write("data: [DONE]\n\n"));
        RequestRecord r = send(target(b -> b.apiKind(ApiKind.COMPLETIONS)), new RequestSpec("p", null, -1, -1,
                null, null), new Cancellation());
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        RecordedRequest req = server.takeRequest(1, TimeUnit.SECONDS);
        assertThat(req.getUrl().encodedPath()).isEqualTo("/v1/completions");
        JsonNode body = OpenAiChunkDecoder.MAPPER.readTree(req.getBody().utf8());
        assertThat(body.get("prompt").asText()).isEqualTo("p");
        assertThat(body.has("max_tokens")).isFalse();
        assertThat(body.has("stream_options")).isTrue();
        assertThat(req.getHeaders().get("Authorization")).isNull();
    }

    @Test
    void nonStreamingResponse() throws Exception {
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .bodyDelay(150, TimeUnit.MILLISECONDS)
                .body("{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":"
                        + "\"hello there\"},\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":3,"
                        + "\"completion_tokens\":5},\"timings\":{\"predicted_ms\":12.5}}").build());
        RequestRecord r = send(target(b -> b.stream(false)));
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().streamed()).isFalse();
        assertThat(r.ttftNanos()).isEqualTo(r.e2eNanos());
        assertThat(ms(r.ttftNanos())).isBetween(145.0, 150.0 + 300);
        assertThat(r.timing().chunkTokens()).containsExactly(5);
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(r.response().finishReason()).isEqualTo("length");
        assertThat(r.response().serverTimings()).containsEntry("predicted_ms", 12.5);
        JsonNode body = OpenAiChunkDecoder.MAPPER.readTree(server.takeRequest(1, TimeUnit.SECONDS).getBody().utf8());
        assertThat(body.get("stream").asBoolean()).isFalse();
        assertThat(body.has("stream_options")).isFalse();
    }
}
