package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each adapter end to end through the client against a scripted server replaying the fixture
 * streams. Timing: the rest of the stream is written 100 ms after the first event, and the first event only
 * after the request arrived, so the last token cannot arrive less than 100 ms after dispatch (95 ms: a hard
 * lower bound, with room for clock reads). The gap between the first and the last token is no such bound: a
 * reader descheduled for over 100 ms on a loaded machine reads both parts at once and stamps them together.
 * Upper bounds are left to the timing tests of the OpenAI path.
 */
class AdapterClientTest extends ClientFixture {

    /** The fixture cut into its events (SSE) or lines (NDJSON), each written apart, 100 ms between the first two. */
    private void serve(ApiKind kind, String fixture) {
        String text = new String(Fixtures.bytes(fixture), StandardCharsets.UTF_8);
        String sep = kind.framing() == ApiKind.Framing.NDJSON ? "\n" : "\n\n";
        List<String> parts = new ArrayList<>();
        for (int from = 0; from < text.length(); ) {
            int end = text.indexOf(sep, from);
            end = end < 0 ? text.length() : end + sep.length();
            parts.add(text.substring(from, end));
            from = end;
        }
        ScriptedBody body = body();
        for (int i = 0; i < parts.size(); i++) {
            body.write(parts.get(i));
            if (i == 0) {
                body.pause(100);
            }
        }
        String type = kind.framing() == ApiKind.Framing.NDJSON ? "application/x-ndjson" : "text/event-stream";
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", type)
                .addHeader("Transfer-Encoding", "chunked").body(body)
                .onResponseEnd(mockwebserver3.SocketEffect.ShutdownConnection.INSTANCE).build());
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "TGI_GENERATE_STREAM, tgi/eos.sse, /generate_stream, 4, 5, 12, 0, eos_token, generated_tokens, 5",
        "OLLAMA_GENERATE, ollama/generate.ndjson, /api/generate, 4, 5, 26, 0, stop, eval_ms, 4232.71",
        "OLLAMA_CHAT, ollama/chat-thinking.ndjson, /api/chat, 5, 5, 11, 2, length, prompt_eval_ms, 50",
        "LLAMACPP_COMPLETION, llamacpp/completion.sse, /completion, 3, 3, 6, 0, length, predicted_ms, 30.1",
        "SGLANG_GENERATE, sglang/generate.sse, /generate, 4, 5, 8, 0, length, e2e_latency_ms, 82.1",
        "CHAT, vllm/chat-continuous.sse, /v1/chat/completions, 2, 3, 9, 0, stop, , ",
        "CHAT, vllm/chat-reasoning.sse, /v1/chat/completions, 3, 4, 9, 2, stop, , ",
        // vLLM 0.33.0 streams delta.reasoning (DeltaMessage in vllm/entrypoints/generate/base/protocol.py)
        "CHAT, vllm/chat-reasoning-v033.sse, /v1/chat/completions, 3, 4, 9, 2, stop, , ",
        "RESPONSES, responses/text.sse, /v1/responses, 3, 6, 12, 0, stop, , ",
        "MESSAGES, messages/text.sse, /v1/messages, 3, 6, 12, 0, stop, , "
    })
    void measuresEachServerShape(ApiKind kind, String fixture, String path, int events, int out, int prompt,
                                 int reasoning, String finish, String timing, Double timingValue) throws Exception {
        serve(kind, fixture);
        RequestRecord r = send(target(b -> b.api(kind)));

        assertThat(r.outcome()).as(r.outcome().detail()).isEqualTo(Outcome.OK);
        assertThat(r.timing().chunkNanos()).hasSize(events);
        assertThat(r.tokens().outputTokens()).isEqualTo(out);
        assertThat(r.tokens().promptTokens()).isEqualTo(prompt);
        assertThat(r.tokens().reasoningTokens()).isEqualTo(reasoning);
        assertThat(r.response().finishReason()).isEqualTo(finish);
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        if (timing != null) {
            assertThat(r.response().serverTimings().get(timing)).isCloseTo(timingValue, within(1e-9));
        }
        assertThat(r.timing().dispatchNanos()).isLessThanOrEqualTo(r.timing().firstByteNanos());
        assertThat(r.timing().firstByteNanos()).isLessThanOrEqualTo(r.timing().firstTokenNanos());
        assertThat(r.timing().firstTokenNanos()).isEqualTo(r.timing().chunkNanos()[0]);
        assertThat(r.timing().lastTokenNanos()).isLessThanOrEqualTo(r.timing().endNanos());
        for (int i = 1; i < events; i++) {
            assertThat(r.timing().chunkNanos()[i]).isGreaterThanOrEqualTo(r.timing().chunkNanos()[i - 1]);
        }
        // vllm/chat-reasoning opens with a role-only chunk: its first token is the second event, written after the pause
        if (!fixture.startsWith("vllm/chat-reasoning")) {
            assertThat(ms(r.timing().lastTokenNanos() - r.timing().dispatchNanos())).isGreaterThanOrEqualTo(95.0);
        } else {
            assertThat(ms(r.ttftNanos())).isGreaterThanOrEqualTo(95.0);
        }

        RecordedRequest req = server.takeRequest(5, TimeUnit.SECONDS);
        assertThat(req.getTarget()).isEqualTo(path);
        JsonNode sent = OpenAiChunkDecoder.MAPPER.readTree(req.getBody().utf8());
        assertThat(sent.toString()).contains("hello");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "TGI_GENERATE_STREAM, tgi/error.sse, STREAM_ERROR, CUDA out of memory",
        "TGI_GENERATE_STREAM, tgi/truncated.sse, TRUNCATED, ",
        "OLLAMA_GENERATE, ollama/error.ndjson, STREAM_ERROR, unexpected EOF",
        "OLLAMA_GENERATE, ollama/truncated.ndjson, TRUNCATED, ",
        "LLAMACPP_COMPLETION, llamacpp/error.sse, STREAM_ERROR, exceeds the available context size",
        "SGLANG_GENERATE, sglang/error.sse, STREAM_ERROR, overloaded",
        "SGLANG_GENERATE, sglang/truncated.sse, TRUNCATED, "
    })
    void failuresMidStream(ApiKind kind, String fixture, String outcome, String detail) {
        serve(kind, fixture);
        RequestRecord r = send(target(b -> b.api(kind)));
        assertThat(r.outcome().label()).isEqualTo(outcome);
        if (detail != null) {
            assertThat(r.outcome().detail()).contains(detail);
        }
        // what arrived before the failure is kept
        assertThat(r.timing().chunkNanos()).isNotEmpty();
        assertThat(r.timing().firstTokenNanos()).isGreaterThan(r.timing().dispatchNanos());
    }

    @Test
    void httpErrorsKeepTheServersMessage() {
        server.enqueue(new MockResponse.Builder().code(422).addHeader("Content-Type", "application/json")
                .body("{\"error\":\"Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096\","
                        + "\"error_type\":\"validation\"}").build());
        RequestRecord tgi = send(target(b -> b.api(ApiKind.TGI_GENERATE_STREAM)));
        assertThat(tgi.outcome().label()).isEqualTo("HTTP_ERROR(422)");
        assertThat(tgi.outcome().detail()).contains("Input validation error");

        // the body a real Ollama 0.17.4 sends for an unknown model (fixtures/ollama/real-error-unknown-model.json)
        server.enqueue(new MockResponse.Builder().code(404).addHeader("Content-Type", "application/json; charset=utf-8")
                .body(new String(Fixtures.bytes("ollama/real-error-unknown-model.json"), StandardCharsets.UTF_8)).build());
        RequestRecord ollama = send(target(b -> b.api(ApiKind.OLLAMA_CHAT)));
        assertThat(ollama.outcome().label()).isEqualTo("HTTP_ERROR(404)");
        assertThat(ollama.outcome().detail()).contains("model 'no-such-model' not found");
        // and for "think": true on a model without thinking: HTTP 400 before any line
        server.enqueue(new MockResponse.Builder().code(400).addHeader("Content-Type", "application/json; charset=utf-8")
                .body(new String(Fixtures.bytes("ollama/real-error-think-unsupported.json"), StandardCharsets.UTF_8)).build());
        RequestRecord think = send(target(b -> b.api(ApiKind.OLLAMA_CHAT)));
        assertThat(think.outcome().label()).isEqualTo("HTTP_ERROR(400)");
        assertThat(think.outcome().detail()).contains("does not support thinking");
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "OLLAMA_GENERATE, ollama/real-generate-nostream.json",
        "OLLAMA_CHAT, ollama/real-chat-nostream.json"
    })
    void ollamaRealNonStreamedAnswersAreOneObject(ApiKind kind, String fixture) throws Exception {
        byte[] body = Fixtures.bytes(fixture);
        JsonNode expected = OpenAiChunkDecoder.MAPPER.readTree(body);
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json; charset=utf-8")
                .body(new String(body, StandardCharsets.UTF_8)).build());
        RequestRecord r = send(target(b -> b.api(kind).stream(false)));
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().streamed()).isFalse();
        assertThat(r.tokens().outputTokens()).isEqualTo(expected.get("eval_count").asInt());
        assertThat(r.tokens().promptTokens()).isEqualTo(expected.get("prompt_eval_count").asInt());
        assertThat(r.response().finishReason()).isEqualTo(expected.get("done_reason").asText());
        assertThat(r.response().serverTimings().get("eval_ms"))
                .isCloseTo(expected.get("eval_duration").asLong() / 1e6, within(1e-9));
        assertThat(r.response().serverTimings().get("prompt_eval_ms"))
                .isCloseTo(expected.get("prompt_eval_duration").asLong() / 1e6, within(1e-9));
        JsonNode sent = OpenAiChunkDecoder.MAPPER.readTree(server.takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
        assertThat(sent.get("stream").asBoolean(true)).isFalse();
    }

    @Test
    void ollamaWithoutStreamingReadsTheOneObject() {
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json; charset=utf-8")
                .body("{\"model\":\"llama3.2\",\"created_at\":\"2024-08-04T19:22:45.499127Z\",\"response\":\"The sky is blue.\","
                        + "\"done\":true,\"done_reason\":\"stop\",\"context\":[1,2,3],\"total_duration\":5043500667,"
                        + "\"load_duration\":5025959,\"prompt_eval_count\":26,\"prompt_eval_duration\":325953000,"
                        + "\"eval_count\":6,\"eval_duration\":4709213000}").build());
        RequestRecord r = send(target(b -> b.api(ApiKind.OLLAMA_GENERATE).stream(false)));
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().streamed()).isFalse();
        assertThat(r.tokens().outputTokens()).isEqualTo(6);
        assertThat(r.tokens().promptTokens()).isEqualTo(26);
        assertThat(r.response().serverTimings().get("eval_ms")).isCloseTo(4709.213, within(1e-9));
    }
}
