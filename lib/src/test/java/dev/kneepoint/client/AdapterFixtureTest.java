package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * Every fixture stream (the exact bytes each server emits) fed to its adapter's framer and decoder
 * whole, split in two at every byte position, and one byte per read: the outcome, counts, finish
 * reason and server timings must not depend on how the bytes were cut, and timestamps must follow
 * the reads.
 */
class AdapterFixtureTest {

    /** What a fixture must decode to; {@code chunkTokens} null when not checked. */
    record Expect(ApiKind kind, String path, String outcome, String detail, int events, int out, int prompt,
                  int reasoning, String finish, TokenSource source, int[] chunkTokens, Map<String, Double> timings) {
        @Override
        public String toString() {
            return path;
        }
    }

    static Stream<Expect> fixtures() {
        return Stream.of(
                // 4 text tokens + the special EOS: generated_tokens 5 is the total, EOS has no timestamp
                new Expect(ApiKind.TGI_GENERATE_STREAM, "tgi/eos.sse", "OK", "", 4, 5, 12, 0, "eos_token",
                        TokenSource.SERVER_USAGE, new int[] {2, 1, 1, 1}, Map.of("generated_tokens", 5.0, "input_length", 12.0)),
                new Expect(ApiKind.TGI_GENERATE_STREAM, "tgi/length.sse", "OK", "", 3, 3, 7, 0, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1}, Map.of("generated_tokens", 3.0)),
                new Expect(ApiKind.TGI_GENERATE_STREAM, "tgi/error.sse", "STREAM_ERROR", "CUDA out of memory", 1, 1, -1, 0,
                        null, TokenSource.SERVER_CONTINUOUS, null, Map.of()),
                new Expect(ApiKind.TGI_GENERATE_STREAM, "tgi/truncated.sse", "TRUNCATED", "", 2, 2, -1, 0, null,
                        TokenSource.SERVER_CONTINUOUS, new int[] {1, 1}, Map.of()),
                new Expect(ApiKind.OLLAMA_GENERATE, "ollama/generate.ndjson", "OK", "", 4, 5, 26, 0, "stop",
                        TokenSource.SERVER_USAGE, new int[] {2, 1, 1, 1}, Map.of("total_ms", 10706.818083, "load_ms", 6338.219291,
                        "prompt_eval_ms", 130.079, "eval_ms", 4232.71, "prompt_eval_count", 26.0, "eval_count", 5.0)),
                // two thinking lines, three content lines: reasoning 2 of 5
                new Expect(ApiKind.OLLAMA_CHAT, "ollama/chat-thinking.ndjson", "OK", "", 5, 5, 11, 2, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1, 1, 1}, Map.of("eval_ms", 2000.0, "total_ms", 2500.0)),
                // Recorded from a real Ollama 0.17.4 (fixtures/ollama/README.md). A stop by EOS: 90 text lines, but
                // eval_count 91 counts the end-of-sequence token, which has no line; the extra unit goes to the first chunk.
                new Expect(ApiKind.OLLAMA_GENERATE, "ollama/real-generate-stop.ndjson", "OK", "", 90, 91, 13, 0, "stop",
                        TokenSource.SERVER_USAGE, null, Map.of("total_ms", 833.392385, "load_ms", 56.090963,
                        "prompt_eval_ms", 86.783768, "eval_ms", 664.698888, "prompt_eval_count", 13.0, "eval_count", 91.0)),
                // stopped by num_predict: one line per token, eval_count = lines
                new Expect(ApiKind.OLLAMA_GENERATE, "ollama/real-generate-length.ndjson", "OK", "", 8, 8, 13, 0, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1, 1, 1, 1, 1, 1}, Map.of("total_ms", 103.965703,
                        "load_ms", 46.107226, "prompt_eval_ms", 7.899952, "eval_ms", 46.525159, "eval_count", 8.0)),
                new Expect(ApiKind.OLLAMA_CHAT, "ollama/real-chat-stop.ndjson", "OK", "", 90, 91, 13, 0, "stop",
                        TokenSource.SERVER_USAGE, null, Map.of("eval_ms", 668.882633, "prompt_eval_count", 13.0)),
                new Expect(ApiKind.OLLAMA_CHAT, "ollama/real-chat-length.ndjson", "OK", "", 8, 8, 13, 0, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1, 1, 1, 1, 1, 1}, Map.of("eval_ms", 46.066831,
                        "prompt_eval_ms", 6.370816, "total_ms", 84.619339, "load_ms", 28.692783)),
                // Cyrillic and CJK letters are 2-3 byte-level tokens; Ollama holds incomplete UTF-8 back, so 53 lines carry 60
                // tokens. Without logprobs the per-line split is unknown (spread by largest remainder; total exact) ...
                new Expect(ApiKind.OLLAMA_GENERATE, "ollama/real-generate-multibyte.ndjson", "OK", "", 53, 60, 22, 0, "length",
                        TokenSource.SERVER_USAGE, null, Map.of("eval_count", 60.0, "eval_ms", 399.032165)),
                // ... with "logprobs": true each line lists its tokens: exact per-line counts (3 for 晨, 葱, 2 for 明, ...)
                new Expect(ApiKind.OLLAMA_GENERATE, "ollama/real-generate-multibyte-logprobs.ndjson", "OK", "", 53, 60, 22, 0,
                        "length", TokenSource.SERVER_USAGE, new int[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 2,
                            1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
                        Map.of("eval_count", 60.0)),
                // logprobs on a stop by EOS: 90 lines list 90 tokens, eval_count 91 adds the end-of-sequence token
                new Expect(ApiKind.OLLAMA_CHAT, "ollama/real-chat-stop-logprobs.ndjson", "OK", "", 90, 91, 13, 0, "stop",
                        TokenSource.SERVER_USAGE, null, Map.of("eval_ms", 662.408164)),
                // Ollama's OpenAI-compatible /v1 with stream_options.include_usage: finish chunk, then a usage-only chunk
                new Expect(ApiKind.CHAT, "ollama/real-openai-chat.sse", "OK", "", 8, 8, 13, 0, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1, 1, 1, 1, 1, 1}, Map.of()),
                new Expect(ApiKind.CHAT, "ollama/real-openai-chat-stop.sse", "OK", "", 90, 91, 13, 0, "stop",
                        TokenSource.SERVER_USAGE, null, Map.of()),
                // /v1/completions puts an all-zero usage object on every chunk before the real one
                new Expect(ApiKind.COMPLETIONS, "ollama/real-openai-completions.sse", "OK", "", 8, 8, 13, 0, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1, 1, 1, 1, 1, 1}, Map.of()),
                new Expect(ApiKind.OLLAMA_GENERATE, "ollama/error.ndjson", "STREAM_ERROR", "unexpected EOF", 1, 1, -1, 0,
                        null, TokenSource.EVENTS, null, Map.of()),
                new Expect(ApiKind.OLLAMA_GENERATE, "ollama/truncated.ndjson", "TRUNCATED", "", 2, 2, -1, 0, null,
                        TokenSource.EVENTS, null, Map.of()),
                new Expect(ApiKind.LLAMACPP_COMPLETION, "llamacpp/completion.sse", "OK", "", 3, 3, 6, 0, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1}, Map.of("prompt_n", 6.0, "prompt_ms", 12.5,
                        "predicted_n", 3.0, "predicted_ms", 30.1, "tokens_cached", 8.0)),
                new Expect(ApiKind.LLAMACPP_COMPLETION, "llamacpp/completion-old.sse", "OK", "", 2, 3, 4, 0, "stop",
                        TokenSource.SERVER_USAGE, new int[] {2, 1}, Map.of("predicted_ms", 21.0)),
                new Expect(ApiKind.LLAMACPP_COMPLETION, "llamacpp/error.sse", "STREAM_ERROR",
                        "exceeds the available context size", 1, 1, -1, 0, null, TokenSource.SERVER_CONTINUOUS, null, Map.of()),
                // cumulative text and completion_tokens 1, 2, 4, 5: the third event carried two tokens
                new Expect(ApiKind.SGLANG_GENERATE, "sglang/generate.sse", "OK", "", 4, 5, 8, 0, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 2, 1}, Map.of("e2e_latency_ms", 82.1,
                        "completion_tokens", 5.0, "prompt_tokens", 8.0, "cached_tokens", 0.0)),
                new Expect(ApiKind.SGLANG_GENERATE, "sglang/error.sse", "STREAM_ERROR", "overloaded", 1, 1, 8, 0, null,
                        TokenSource.SERVER_CONTINUOUS, null, Map.of()),
                new Expect(ApiKind.SGLANG_GENERATE, "sglang/truncated.sse", "TRUNCATED", "", 2, 2, 8, 0, null,
                        TokenSource.SERVER_CONTINUOUS, new int[] {1, 1}, Map.of()),
                // role + first token in one chunk, continuous usage, separate finish chunk, usage-only last
                new Expect(ApiKind.CHAT, "vllm/chat-continuous.sse", "OK", "", 2, 3, 9, 0, "stop",
                        TokenSource.SERVER_USAGE, new int[] {2, 1}, Map.of()),
                // role-only chunk, two reasoning deltas, one answer delta; the EOS the total adds is an answer token
                new Expect(ApiKind.CHAT, "vllm/chat-reasoning.sse", "OK", "", 3, 4, 9, 2, "stop",
                        TokenSource.SERVER_USAGE, new int[] {2, 1, 1}, Map.of()),
                // the Responses API: typed events, text deltas only in response.output_text.delta, usage on the last
                new Expect(ApiKind.RESPONSES, "responses/text.sse", "OK", "", 3, 6, 12, 0, "stop",
                        TokenSource.SERVER_USAGE, new int[] {2, 2, 2}, Map.of()),
                // reasoning deltas are output (the server's reasoning_tokens kept); max_output_tokens is a length stop
                new Expect(ApiKind.RESPONSES, "responses/reasoning-length.sse", "OK", "", 3, 4, 9, 3, "length",
                        TokenSource.SERVER_USAGE, null, Map.of()),
                // a function call: its name (output_item.added) and argument fragments are the generated text
                new Expect(ApiKind.RESPONSES, "responses/function-call.sse", "OK", "", 3, 12, 40, 0, "tool_calls",
                        TokenSource.SERVER_USAGE, new int[] {4, 4, 4}, Map.of()),
                new Expect(ApiKind.RESPONSES, "responses/error.sse", "STREAM_ERROR", "CUDA out of memory", 1, 1, -1, 0,
                        null, TokenSource.EVENTS, null, Map.of()),
                // the Messages API: message_start has the prompt, message_delta the stop reason and output total
                new Expect(ApiKind.MESSAGES, "messages/text.sse", "OK", "", 3, 6, 12, 0, "stop",
                        TokenSource.SERVER_USAGE, new int[] {2, 2, 2}, Map.of()),
                new Expect(ApiKind.MESSAGES, "messages/thinking-max-tokens.sse", "OK", "", 3, 3, 9, 2, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1}, Map.of()),
                new Expect(ApiKind.MESSAGES, "messages/tool-use.sse", "OK", "", 3, 12, 40, 0, "tool_calls",
                        TokenSource.SERVER_USAGE, new int[] {4, 4, 4}, Map.of()),
                new Expect(ApiKind.MESSAGES, "messages/error.sse", "STREAM_ERROR", "Overloaded", 1, 1, 9, 0, null,
                        TokenSource.EVENTS, null, Map.of()),
                // vLLM before 0.34: [DONE] after message_stop; message_delta repeats the input counts (input_tokens
                // without the 8 the cache held: the prompt is 12)
                new Expect(ApiKind.MESSAGES, "messages/vllm-done.sse", "OK", "", 3, 6, 12, 0, "stop",
                        TokenSource.SERVER_USAGE, new int[] {2, 2, 2}, Map.of()),
                // vLLM before 0.34: a length stop is response.completed with status incomplete
                new Expect(ApiKind.RESPONSES, "responses/completed-incomplete.sse", "OK", "", 3, 4, 9, 3, "length",
                        TokenSource.SERVER_USAGE, null, Map.of()),
                // recorded from the real llama-server the tests build (llama.cpp of llama-cpp-python 0.3.36): its
                // Messages and Responses streams, 8 tokens asked; its Responses API says "completed" for a length stop
                new Expect(ApiKind.MESSAGES, "llamacpp/real-messages.sse", "OK", "", 8, 8, 33, 0, "length",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1, 1, 1, 1, 1, 1}, Map.of()),
                new Expect(ApiKind.RESPONSES, "llamacpp/real-responses.sse", "OK", "", 8, 8, 33, 0, "stop",
                        TokenSource.SERVER_USAGE, new int[] {1, 1, 1, 1, 1, 1, 1, 1}, Map.of()),
                // no message_stop: cut short
                new Expect(ApiKind.MESSAGES, "messages/truncated.sse", "TRUNCATED", "", 2, 2, 9, 0, null,
                        TokenSource.EVENTS, new int[] {1, 1}, Map.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void decodesTheSameWhateverTheReadBoundaries(Expect e) {
        byte[] bytes = Fixtures.bytes(e.path());
        RequestRecord whole = Fixtures.replay(e.kind(), bytes);
        check(e, whole);
        for (int cut = 1; cut < bytes.length; cut++) {
            RequestRecord r = Fixtures.replay(e.kind(), bytes, cut);
            assertThat(summary(r)).as("split at byte %d", cut).isEqualTo(summary(whole));
        }
        RequestRecord bytewise = Fixtures.replay(e.kind(), bytes, Fixtures.everyByte(bytes.length));
        assertThat(summary(bytewise)).as("one-byte reads").isEqualTo(summary(whole));
        long[] t = bytewise.timing().chunkNanos();
        for (int i = 1; i < t.length; i++) {
            assertThat(t[i]).as("chunk %d after chunk %d", i, i - 1).isGreaterThan(t[i - 1]);
        }
        if (t.length > 0) {
            assertThat(bytewise.timing().firstTokenNanos()).isEqualTo(t[0]);
            assertThat(bytewise.timing().endNanos()).isGreaterThanOrEqualTo(t[t.length - 1])
                    .isLessThanOrEqualTo(bytes.length);
        }
    }

    private static void check(Expect e, RequestRecord r) {
        assertThat(r.outcome().label()).isEqualTo(e.outcome());
        assertThat(r.outcome().detail()).contains(e.detail());
        assertThat(r.timing().chunkNanos()).hasSize(e.events());
        assertThat(r.tokens().outputTokens()).isEqualTo(e.out());
        assertThat(r.tokens().promptTokens()).isEqualTo(e.prompt());
        assertThat(r.tokens().reasoningTokens()).isEqualTo(e.reasoning());
        assertThat(r.response().finishReason()).isEqualTo(e.finish());
        assertThat(r.tokens().tokenSource()).isEqualTo(e.source());
        if (e.chunkTokens() != null) {
            assertThat(r.timing().chunkTokens()).containsExactly(e.chunkTokens());
        }
        e.timings().forEach((k, v) -> assertThat(r.response().serverTimings()).as(k).containsKey(k)
                .extractingByKey(k).satisfies(x -> assertThat(x).isCloseTo(v, within(1e-9))));
    }

    /** Everything but timestamps. */
    private static String summary(RequestRecord r) {
        return r.outcome().label() + "|" + r.outcome().detail() + "|" + r.timing().chunkNanos().length + "|"
                + Arrays.toString(r.timing().chunkTokens()) + "|" + r.tokens().outputTokens() + "|"
                + r.tokens().promptTokens() + "|" + r.tokens().reasoningTokens() + "|" + r.response().finishReason()
                + "|" + r.tokens().tokenSource() + "|" + r.response().serverTimings();
    }

    @Test
    void firstTokenIsTheReadThatCompletesTheFirstContentEvent() {
        // role and first token share the first chunk: TTFT is the end of the first event
        byte[] vllm = Fixtures.bytes("vllm/chat-continuous.sse");
        RequestRecord r = Fixtures.replay(ApiKind.CHAT, vllm, Fixtures.everyByte(vllm.length));
        assertThat(r.timing().firstTokenNanos()).isEqualTo(indexOf(vllm, "\n\n", 0) + 2);
        // a role-only chunk is not a token; the first reasoning delta is
        byte[] reasoning = Fixtures.bytes("vllm/chat-reasoning.sse");
        RequestRecord q = Fixtures.replay(ApiKind.CHAT, reasoning, Fixtures.everyByte(reasoning.length));
        assertThat(q.timing().firstTokenNanos())
                .isEqualTo(indexOf(reasoning, "\n\n", indexOf(reasoning, "\n\n", 0) + 2) + 2);
        // TGI: the ':' keep-alive and special EOS never count; NDJSON: a line ends at its newline
        byte[] ollama = Fixtures.bytes("ollama/generate.ndjson");
        RequestRecord o = Fixtures.replay(ApiKind.OLLAMA_GENERATE, ollama, Fixtures.everyByte(ollama.length));
        assertThat(o.timing().firstTokenNanos()).isEqualTo(indexOf(ollama, "\n", 0) + 1);
        assertThat(o.timing().endNanos()).isEqualTo(ollama.length);
    }

    @Test
    void ollamaCompletionsZeroUsageOnEveryChunkIsNoCount() {
        // Ollama's /v1/completions sends "usage":{"completion_tokens":0,...} on every chunk; cut before the real usage
        // chunk (the finish chunk still ends the stream), the tokens are the events counted, not a "continuous" 0.
        String all = new String(Fixtures.bytes("ollama/real-openai-completions.sse"), StandardCharsets.UTF_8);
        byte[] cut = all.substring(0, all.indexOf("data: {\"id\"", all.indexOf("\"finish_reason\":\"length\"")))
                .getBytes(StandardCharsets.UTF_8);
        RequestRecord r = Fixtures.replay(ApiKind.COMPLETIONS, cut);
        assertThat(r.outcome().label()).isEqualTo("OK");
        assertThat(r.response().finishReason()).isEqualTo("length");
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.EVENTS);
        assertThat(r.tokens().outputTokens()).isEqualTo(8);
    }

    @Test
    void sglangDeltasComeFromTheCumulativeText() {
        SglangDecoder d = new SglangDecoder();
        StringBuilder text = new StringBuilder();
        for (String line : new String(Fixtures.bytes("sglang/generate.sse"), StandardCharsets.UTF_8).split("\n\n")) {
            if (line.startsWith("data: ") && d.decode(line.substring(6)) instanceof StreamPayload.Chunk c) {
                text.append('[').append(c.content()).append(']');
            }
        }
        assertThat(text.toString()).isEqualTo("[Paris][ is][ the capital \u2014][ yes.]");
        // a server with incremental output: text that does not extend the previous one is the delta itself
        SglangDecoder inc = new SglangDecoder();
        inc.decode("{\"text\":\"Hello\",\"meta_info\":{\"completion_tokens\":1}}");
        StreamPayload p = inc.decode("{\"text\":\" world\",\"meta_info\":{\"completion_tokens\":2}}");
        assertThat(((StreamPayload.Chunk) p).content()).isEqualTo(" world");
    }

    @Test
    void invalidUtf8AndOversizeLinesAreStreamErrorsInNdjson() {
        byte[] bad = "{\"response\":\"a\",\"done\":false}\n{\"response\":\"\u00e9\"}\n".getBytes(StandardCharsets.UTF_8);
        bad[bad.length - 5] = (byte) 0xff;
        RequestRecord r = Fixtures.replay(ApiKind.OLLAMA_GENERATE, bad);
        assertThat(r.outcome().label()).isEqualTo("STREAM_ERROR");
        assertThat(r.outcome().detail()).contains("NDJSON").contains("invalid UTF-8");
        assertThat(r.timing().chunkNanos()).hasSize(1);

        StreamState s = new StreamState(ApiKind.OLLAMA_GENERATE);
        NdjsonParser p = new NdjsonParser(s, 40);
        byte[] big = ("{\"response\":\"" + "x".repeat(50) + "\",\"done\":false}\n").getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < big.length; i += 7) {
            p.feed(big, i, Math.min(7, big.length - i));
        }
        assertThat(s.endOutcome(p.finish()).detail()).contains("larger than the limit of 40 bytes");
    }

    @Test
    void ndjsonHandlesCrlfBlankLinesAndAFinalLineWithoutNewline() {
        String body = "{\"response\":\"a\",\"done\":false}\r\n\r\n{\"response\":\"b\",\"done\":false}\r"
                + "\n{\"response\":\"\",\"done\":true,\"eval_count\":2}";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        RequestRecord r = Fixtures.replay(ApiKind.OLLAMA_GENERATE, bytes, Fixtures.everyByte(bytes.length));
        assertThat(r.outcome().label()).isEqualTo("OK");
        assertThat(r.tokens().outputTokens()).isEqualTo(2);
        // a last line cut mid-object is a truncation, not a malformed stream
        byte[] cut = "{\"response\":\"a\",\"done\":false}\n{\"response\":\"b\",\"do".getBytes(StandardCharsets.UTF_8);
        assertThat(Fixtures.replay(ApiKind.OLLAMA_GENERATE, cut).outcome().label()).isEqualTo("TRUNCATED");
    }

    @Test
    void serverTimingsAndReasoningReachRequestsJsonl() throws Exception {
        RequestRecord r = Fixtures.replay(ApiKind.OLLAMA_CHAT, Fixtures.bytes("ollama/chat-thinking.ndjson"));
        java.io.StringWriter w = new java.io.StringWriter();
        try (com.fasterxml.jackson.core.JsonGenerator g = OpenAiChunkDecoder.MAPPER.getFactory().createGenerator(w)) {
            dev.kneepoint.io.RequestJson.write(g, r);
        }
        String line = w.toString();
        assertThat(line).contains("\"reasoning_tokens\":2").contains("\"eval_ms\":2000")
                .contains("\"prompt_eval_ms\":50").contains("\"total_ms\":2500").contains("\"finish_reason\":\"length\"");
        RequestRecord back = dev.kneepoint.io.RequestJson.read(OpenAiChunkDecoder.MAPPER.readTree(line));
        assertThat(back.response().serverTimings()).isEqualTo(r.response().serverTimings());
        assertThat(back.tokens().reasoningTokens()).isEqualTo(2);
    }

    @Test
    void sseReportsFieldsOtherThanTheStandardOnesButNotRetry() {
        java.util.List<String> seen = new java.util.ArrayList<>();
        SseParser p = new SseParser(new SseParser.Listener() {
            @Override
            public void onEvent(String type, String id, String data) {
                seen.add("event " + data);
            }

            @Override
            public void onOtherField(String name, String value) {
                seen.add(name + "=" + value);
            }

            @Override
            public void onError(SseParser.ErrorKind kind, String message) {
                seen.add("error " + kind);
            }
        });
        byte[] b = "retry: 10\nerror: {\"code\":500}\nx-custom:v\ndata: d\n\n".getBytes(StandardCharsets.UTF_8);
        p.feed(b, 0, b.length);
        assertThat(seen).containsExactly("error={\"code\":500}", "x-custom=v", "event d");
    }

    private static int indexOf(byte[] hay, String needle, int from) {
        byte[] n = needle.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = from; i <= hay.length - n.length; i++) {
            for (int k = 0; k < n.length; k++) {
                if (hay[i + k] != n[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
