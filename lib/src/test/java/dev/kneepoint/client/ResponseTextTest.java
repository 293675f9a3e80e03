package dev.kneepoint.client;

import static dev.kneepoint.client.ScriptedBody.content;
import static dev.kneepoint.client.ScriptedBody.finish;
import static dev.kneepoint.client.ScriptedBody.role;
import static dev.kneepoint.client.ScriptedBody.usage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.ToolCall;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestSpec;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;

/** The opt-in answer text: the content deltas concatenated, and the tool calls whole, only when the spec asks for it. */
class ResponseTextTest extends ClientFixture {
    private static final String REASONING =
            "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"thinking\"},\"finish_reason\":null}]}";

    @Test
    void keptOnlyWhenAskedAndWithoutReasoning() {
        enqueueSse(body().event(role()).event(REASONING).event(content("Hello")).event(content(", wor"))
                .event(finish("ld")).event(usage(3, 4)).write("data: [DONE]\n\n"));
        RequestRecord kept = send(target(b -> b), RequestSpec.of("hi", 16).withKeepResponseText(true), new Cancellation());
        assertThat(kept.isOk()).isTrue();
        assertThat(kept.response().responseText()).isEqualTo("Hello, world");

        enqueueSse(body().event(content("Hello")).event(finish("!")).write("data: [DONE]\n\n"));
        RequestRecord plain = send(target(b -> b), RequestSpec.of("hi", 16), new Cancellation());
        assertThat(plain.isOk()).isTrue();
        assertThat(plain.response().responseText()).isNull();
    }

    @Test
    void keptFromANonStreamedAnswer() {
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(
                "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"whole answer\"},"
                        + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2}}").build());
        RequestRecord r = send(target(b -> b.stream(false)), RequestSpec.of("hi", 16).withKeepResponseText(true),
                new Cancellation());
        assertThat(r.isOk()).isTrue();
        assertThat(r.response().responseText()).isEqualTo("whole answer");
    }

    @Test
    void toolCallsAreKeptWholeBesideTheText() {
        // two calls interleaved by index, each named in its first fragment, its arguments in pieces after
        enqueueSse(body().event(content("Let me check. "))
                .event(ToolCallStreamTest.callStart(0, "call_a", "get_weather"))
                .event(ToolCallStreamTest.arguments(0, "{\\\"city\\\": "))
                .event(ToolCallStreamTest.callStart(1, "call_b", "calculate"))
                .event(ToolCallStreamTest.arguments(1, "{\\\"expression\\\": \\\"2+2\\\"}"))
                .event(ToolCallStreamTest.arguments(0, "\\\"Paris\\\"}"))
                .event(ToolCallStreamTest.finishToolCalls()).event(usage(20, 12)).write("data: [DONE]\n\n"));
        RequestRecord kept = send(target(b -> b), RequestSpec.of("hi", 16).withKeepResponseText(true), new Cancellation());
        assertThat(kept.isOk()).isTrue();
        assertThat(kept.response().responseText()).isEqualTo("Let me check. ");
        assertThat(kept.response().toolCalls()).containsExactly(
                new ToolCall("call_a", "get_weather", "{\"city\": \"Paris\"}"),
                new ToolCall("call_b", "calculate", "{\"expression\": \"2+2\"}"));
        assertThat(kept.withoutKeptAnswer().response().toolCalls()).isEmpty();

        enqueueSse(body().event(ToolCallStreamTest.callStart(0, "call_a", "get_weather"))
                .event(ToolCallStreamTest.finishToolCalls()).event(usage(20, 1)).write("data: [DONE]\n\n"));
        RequestRecord plain = send(target(b -> b), RequestSpec.of("hi", 16), new Cancellation());
        assertThat(plain.response().toolCalls()).isEmpty();
    }
}
