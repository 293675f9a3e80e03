package dev.kneepoint.client;

import static dev.kneepoint.client.ScriptedBody.content;
import static dev.kneepoint.client.ScriptedBody.usage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;

/**
 * An answer made of tool calls is generated output (METRICS.md "Tool calls"): its first tool-call delta starts
 * TTFT, its fragments are token-carrying events, and a stream of nothing else is OK, not EMPTY. Timing tolerances
 * as in {@link StreamingClientTimingTest}: a scripted pause is a lower bound, the upper slack covers a noisy machine.
 */
class ToolCallStreamTest extends ClientFixture {
    private static final String HEAD = "{\"id\":\"chatcmpl-t\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":";

    /** The first delta of a call: its id, type and function name (vLLM sends the role along). */
    static String callStart(int index, String id, String name) {
        return HEAD + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":" + index + ",\"id\":\"" + id
                + "\",\"type\":\"function\",\"function\":{\"name\":\"" + name + "\",\"arguments\":\"\"}}]},"
                + "\"logprobs\":null,\"finish_reason\":null}]}";
    }

    /** An argument fragment of call {@code index}, as JSON text inside a JSON string (escaped by the caller). */
    static String arguments(int index, String fragment) {
        return HEAD + "{\"tool_calls\":[{\"index\":" + index + ",\"function\":{\"arguments\":\"" + fragment + "\"}}]},"
                + "\"logprobs\":null,\"finish_reason\":null}]}";
    }

    static String finishToolCalls() {
        return HEAD + "{},\"logprobs\":null,\"finish_reason\":\"tool_calls\"}]}";
    }

    @Test
    void aStreamOfOnlyToolCallsIsOkWithTheServersCountAndTtftAtTheFirstCallDelta() {
        // the role chunk with no text comes at once; the call's name 200 ms later; then its arguments in fragments
        enqueueSse(body().event(HEAD + "{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}")
                .pause(200).event(callStart(0, "call_1", "get_weather"))
                .pause(50).event(arguments(0, "{\\\"city\\\": \\\""))
                .pause(50).event(arguments(0, "Paris"))
                .pause(50).event(arguments(0, "\\\"}"))
                .event(finishToolCalls()).event(usage(20, 12)).write("data: [DONE]\n\n"));
        RequestRecord r = send(target(b -> b));

        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.tokens().outputTokens()).isEqualTo(12);
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(r.timing().chunkNanos()).hasSize(4);
        assertThat(r.timing().chunkTokens()).containsExactly(3, 3, 3, 3);
        assertThat(r.tokens().reasoningTokens()).isZero();
        assertThat(r.response().finishReason()).isEqualTo("tool_calls");
        // TTFT is the name delta, 200 ms after the request (a hard lower bound): not the text-less role chunk
        assertThat(ms(r.ttftNanos())).isBetween(195.0, 200.0 + 300);
        assertThat(r.timing().firstToolCallNanos()).isEqualTo(r.timing().firstTokenNanos());
        assertThat(ms(r.e2eNanos())).isBetween(345.0, 350.0 + 300);
        assertThat(r.timing().firstAnswerNanos()).isEqualTo(RequestRecord.ABSENT); // no reasoning
    }

    @Test
    void contentBeforeTheCallStartsTtftAndTheFirstCallIsRecordedApart() {
        enqueueSse(body().pause(100).event(content("Let me check."))
                .pause(150).event(callStart(0, "call_1", "search")).event(arguments(0, "{}"))
                .pause(50).event(callStart(1, "call_2", "get_weather")).event(arguments(1, "{}"))
                .event(finishToolCalls()).event(usage(20, 9)).write("data: [DONE]\n\n"));
        RequestRecord r = send(target(b -> b));

        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.tokens().outputTokens()).isEqualTo(9);
        assertThat(r.timing().chunkNanos()).hasSize(5);
        double callAfterFirst = ms(r.timing().firstToolCallNanos() - r.timing().firstTokenNanos());
        assertThat(callAfterFirst).isBetween(145.0, 150.0 + 250);
    }

    @Test
    void reasoningThenAToolCallMakesTheCallTheFirstAnswerToken() {
        enqueueSse(body().event(HEAD + "{\"reasoning_content\":\"I need the weather\"},\"finish_reason\":null}]}")
                .pause(150).event(callStart(0, "call_1", "get_weather")).event(arguments(0, "{}"))
                .event(finishToolCalls()).write("data: [DONE]\n\n"));
        RequestRecord r = send(target(b -> b));

        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.tokens().outputTokens()).isEqualTo(3); // one per event without a server count
        assertThat(r.tokens().reasoningTokens()).isEqualTo(1);
        assertThat(r.timing().firstAnswerNanos()).isEqualTo(r.timing().firstToolCallNanos());
        assertThat(ms(r.ttfatNanos() - r.ttftNanos())).isBetween(145.0, 150.0 + 250);
    }

    @Test
    void aWholeResponseWithToolCallsIsOk() {
        server.enqueue(new MockResponse.Builder().code(200).addHeader("Content-Type", "application/json")
                .body("{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
                        + "\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\","
                        + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},"
                        + "\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":12}}")
                .build());
        RequestRecord r = send(target(b -> b.stream(false)));

        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.tokens().outputTokens()).isEqualTo(12);
        assertThat(r.timing().firstToolCallNanos()).isEqualTo(r.timing().firstTokenNanos());
        assertThat(r.response().finishReason()).isEqualTo("tool_calls");
    }
}
