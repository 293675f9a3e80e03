package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OpenAiChunkDecoderTest {

    private static StreamPayload.Chunk chunk(String json) {
        StreamPayload p = OpenAiChunkDecoder.decode(json);
        assertThat(p).isInstanceOf(StreamPayload.Chunk.class);
        return (StreamPayload.Chunk) p;
    }

    @Test
    void roleOnlyChunkIsNotAToken() {
        StreamPayload.Chunk c = chunk("{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}");
        assertThat(c.role()).isEqualTo("assistant");
        assertThat(c.carriesText()).isFalse();
        assertThat(c.choices()).isEqualTo(1);
        assertThat(c.finishReason()).isNull();
        assertThat(c.hasUsage()).isFalse();
    }

    @Test
    void contentChunkWithFinishReason() {
        StreamPayload.Chunk c = chunk("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\\u006co \\\"x\\\"\"},"
                + "\"finish_reason\":\"length\"}],\"usage\":null}");
        assertThat(c.content()).isEqualTo("Hello \"x\"");
        assertThat(c.carriesText()).isTrue();
        assertThat(c.finishReason()).isEqualTo("length");
        assertThat(c.hasUsage()).isFalse();
    }

    @Test
    void reasoningChunkBothSpellings() {
        StreamPayload.Chunk a = chunk("{\"choices\":[{\"delta\":{\"reasoning_content\":\"think\",\"content\":null}}]}");
        assertThat(a.reasoning()).isEqualTo("think");
        assertThat(a.content()).isEmpty();
        assertThat(a.carriesText()).isTrue();
        StreamPayload.Chunk b = chunk("{\"choices\":[{\"delta\":{\"reasoning\":\"hmm\"}}]}");
        assertThat(b.reasoning()).isEqualTo("hmm");
    }

    @Test
    void usageOnlyChunkWithEmptyChoices() {
        StreamPayload.Chunk c = chunk("{\"id\":\"x\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
                + "\"total_tokens\":52,\"completion_tokens\":40,"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":7}}}");
        assertThat(c.choices()).isZero();
        assertThat(c.carriesText()).isFalse();
        assertThat(c.promptTokens()).isEqualTo(12);
        assertThat(c.completionTokens()).isEqualTo(40);
        assertThat(c.reasoningTokens()).isEqualTo(7);
    }

    @Test
    void continuousUsageOnAContentChunk() {
        StreamPayload.Chunk c = chunk("{\"choices\":[{\"delta\":{\"content\":\" world\"}}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}");
        assertThat(c.content()).isEqualTo(" world");
        assertThat(c.completionTokens()).isEqualTo(3);
        assertThat(c.promptTokens()).isEqualTo(5);
    }

    @Test
    void errorObjectsBothShapes() {
        assertThat(OpenAiChunkDecoder.decode("{\"error\":{\"message\":\"out of memory\",\"type\":\"server_error\"}}"))
                .isEqualTo(new StreamPayload.ServerError("out of memory"));
        assertThat(OpenAiChunkDecoder.decode("{\"object\":\"error\",\"message\":\"bad request\",\"code\":400}"))
                .isEqualTo(new StreamPayload.ServerError("bad request"));
        assertThat(OpenAiChunkDecoder.decode("{\"error\":\"Input validation error\",\"error_type\":\"validation\"}"))
                .isEqualTo(new StreamPayload.ServerError("Input validation error"));
        // a null error field is not an error
        assertThat(OpenAiChunkDecoder.decode("{\"error\":null,\"choices\":[{\"text\":\"a\"}]}"))
                .isInstanceOf(StreamPayload.Chunk.class);
    }

    @Test
    void llamaCppTimingsKeepNumericFields() {
        StreamPayload.Chunk c = chunk("{\"choices\":[{\"finish_reason\":\"stop\",\"delta\":{}}],"
                + "\"timings\":{\"prompt_n\":10,\"prompt_ms\":12.5,\"predicted_n\":32,\"predicted_ms\":400.25,"
                + "\"note\":\"x\",\"nested\":{\"a\":1}}}");
        assertThat(c.timings()).containsOnlyKeys("prompt_n", "prompt_ms", "predicted_n", "predicted_ms");
        assertThat(c.timings().get("predicted_ms")).isEqualTo(400.25);
        assertThat(c.timings().get("prompt_n")).isEqualTo(10.0);
        assertThat(c.finishReason()).isEqualTo("stop");
    }

    @Test
    void completionsShapeAndNonStreamingMessage() {
        StreamPayload.Chunk c = chunk("{\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\"abc\","
                + "\"logprobs\":null,\"finish_reason\":null}]}");
        assertThat(c.content()).isEqualTo("abc");
        StreamPayload.Chunk m = chunk("{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"role\":\"assistant\","
                + "\"content\":\"full answer\"},\"finish_reason\":\"stop\"}],\"usage\":{\"completion_tokens\":2}}");
        assertThat(m.content()).isEqualTo("full answer");
        assertThat(m.completionTokens()).isEqualTo(2);
    }

    @Test
    void doneSentinel() {
        assertThat(OpenAiChunkDecoder.decode("[DONE]")).isSameAs(StreamPayload.DONE);
        assertThat(OpenAiChunkDecoder.decode(" [DONE] ")).isSameAs(StreamPayload.DONE);
    }

    @Test
    void malformedJson() {
        assertThat(OpenAiChunkDecoder.decode("{\"choices\":[{\"delta\":{\"content\":\"a\"")).isInstanceOf(
                StreamPayload.Malformed.class);
        assertThat(OpenAiChunkDecoder.decode("not json")).isInstanceOf(StreamPayload.Malformed.class);
        assertThat(OpenAiChunkDecoder.decode("[1,2]")).isInstanceOf(StreamPayload.Malformed.class);
        assertThat(OpenAiChunkDecoder.decode("{\"a\":1} trailing")).isInstanceOf(StreamPayload.Malformed.class);
        assertThat(OpenAiChunkDecoder.decode("{\"choices\":[1]}")).isInstanceOf(StreamPayload.Malformed.class);
        assertThat(((StreamPayload.Malformed) OpenAiChunkDecoder.decode("oops")).message()).contains("oops");
    }
}
