package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import dev.kneepoint.metrics.ToolCall;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestSpec;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Responses and Messages APIs through the client: cached prompt tokens from their usage, TTFT at a tool call's
 * first text, and a non-streamed answer read as one object.
 */
class TypedEventApiTest extends ClientFixture {

    private void serveSse(String fixture) {
        ScriptedBody body = body();
        body.write(new String(Fixtures.bytes(fixture), StandardCharsets.UTF_8));
        enqueueSse(body);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"RESPONSES, responses/text.sse, 8", "MESSAGES, messages/text.sse, 8",
        "MESSAGES, messages/tool-use.sse, -1"})
    void cachedPromptTokensAreKeptWhereTheServerSaysThem(ApiKind kind, String fixture, int cached) {
        serveSse(fixture);
        RequestRecord r = send(target(b -> b.api(kind)));
        assertThat(r.outcome()).as(r.outcome().detail()).isEqualTo(Outcome.OK);
        assertThat(r.tokens().cachedPromptTokens()).isEqualTo(cached);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"RESPONSES, responses/function-call.sse", "MESSAGES, messages/tool-use.sse"})
    void aToolCallIsGeneratedOutputAndItsNameIsTheFirstToken(ApiKind kind, String fixture) {
        serveSse(fixture);
        RequestRecord r = send(target(b -> b.api(kind)));
        assertThat(r.outcome()).as(r.outcome().detail()).isEqualTo(Outcome.OK);
        assertThat(r.tokens().outputTokens()).isEqualTo(12);
        assertThat(r.response().finishReason()).isEqualTo("tool_calls");
        assertThat(r.timing().firstToolCallNanos()).isEqualTo(r.timing().firstTokenNanos()).isPositive();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"RESPONSES, responses/function-call.sse, call_3", "MESSAGES, messages/tool-use.sse, toolu_3"})
    void aKeptAnswerHoldsTheWholeToolCall(ApiKind kind, String fixture, String id) {
        serveSse(fixture);
        RequestRecord r = send(target(b -> b.api(kind)), RequestSpec.of("hi", 16).withKeepResponseText(true),
                new Cancellation());
        assertThat(r.response().toolCalls()).containsExactly(new ToolCall(id, "get_weather", "{\"city\":\"Paris\"}"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"RESPONSES, responses/whole.json, stop", "MESSAGES, messages/whole.json, length"})
    void aNonStreamedAnswerIsOneObject(ApiKind kind, String fixture, String finish) throws Exception {
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body(new String(Fixtures.bytes(fixture), StandardCharsets.UTF_8)).build());
        RequestRecord r = send(target(b -> b.api(kind).stream(false)));
        assertThat(r.outcome()).as(r.outcome().detail()).isEqualTo(Outcome.OK);
        assertThat(r.response().streamed()).isFalse();
        assertThat(r.tokens().outputTokens()).isEqualTo(6);
        assertThat(r.tokens().promptTokens()).isEqualTo(12);
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(r.response().finishReason()).isEqualTo(finish);
        JsonNode sent = OpenAiChunkDecoder.MAPPER.readTree(server.takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
        assertThat(sent.get("stream").asBoolean(true)).isFalse();
    }

    @Test
    void anErrorAnswerNamesTheServersMessage() {
        // Anthropic's error body (HTTP 529 overloaded) and the Responses API's (OpenAI's error object)
        server.enqueue(new MockResponse.Builder().code(529).addHeader("Content-Type", "application/json")
                .body("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}").build());
        RequestRecord m = send(target(b -> b.api(ApiKind.MESSAGES)));
        assertThat(m.outcome().label()).isEqualTo("HTTP_ERROR(529)");
        assertThat(m.outcome().detail()).contains("Overloaded");
    }
}
