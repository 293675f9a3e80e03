package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The decoder's fast path gives exactly the Jackson path's result whenever it answers, and answers for
 * the common chunk shapes (the point of having it).
 */
class ChunkFastPathTest {
    private static final String HEAD = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"m\",\"choices\":";

    /** Payloads as servers send them (simulator, vLLM, OpenAI, SGLang-style), plus odd but valid JSON. */
    static List<String> corpus() {
        List<String> c = new ArrayList<>();
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"content\":\" alpha beta\"},\"logprobs\":null,\"finish_reason\":null}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"content\":\" x\"},\"logprobs\":null,\"finish_reason\":null}],\"usage\":null}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"length\"}],\"usage\":"
                + "{\"prompt_tokens\":8,\"total_tokens\":20,\"completion_tokens\":12}}");
        c.add(HEAD + "[],\"usage\":{\"prompt_tokens\":8,\"total_tokens\":20,\"completion_tokens\":12}}");
        c.add("{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"created\":1,\"model\":\"m\",\"choices\":"
                + "[{\"index\":0,\"text\":\" gamma\",\"logprobs\":null,\"finish_reason\":null}]}");
        c.add("{\"id\":\"cmpl-1\",\"object\":\"text_completion\",\"choices\":[{\"index\":0,\"text\":\"\",\"logprobs\":null,"
                + "\"finish_reason\":\"stop\",\"stop_reason\":null}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"reasoning_content\":\"hmm\",\"content\":null},\"finish_reason\":null}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"reasoning\":\"a\",\"reasoning_content\":\"b\",\"content\":\"c\"}}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"content\":\"a\"}},{\"index\":1,\"delta\":{\"content\":\"b\"},"
                + "\"finish_reason\":\"stop\"}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"content\":\"\\n\\\"quoted\\\" \\u00e9\"}}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"content\":\"caf\u00e9 \ud83d\ude00\"},\"logprobs\":{\"content\":[{\"token\":\"x\","
                + "\"logprob\":-0.25,\"bytes\":[120],\"top_logprobs\":[]}]}}]}");
        c.add(" { \"choices\" : [ { \"delta\" : { \"content\" : \"sp\" } , \"finish_reason\" : null } ] ,"
                + " \"usage\" : { \"prompt_tokens\" : 3 , \"completion_tokens\" : -0 } } \n");
        c.add("{\"choices\":null,\"usage\":{\"prompt_tokens\":1.5,\"completion_tokens\":2e3}}");
        c.add("{\"choices\":[{\"delta\":null,\"text\":7,\"finish_reason\":true}],\"x\":[1,-2.5e-3,true,false,null,{},[]]}");
        c.add("{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"whole\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1,\"completion_tokens_details\":{\"reasoning_tokens\":0}}}");
        c.add("{\"object\":\"error\",\"message\":\"boom\",\"code\":500}");
        c.add("{\"error\":{\"message\":\"bad\",\"type\":\"internal\"}}");
        c.add("{\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"choices\":[{\"delta\":{\"content\":\"b\"}},{}]}");
        c.add("{\"choices\":[{\"finish_reason\":\"a\"},{\"finish_reason\":\"b\"}],\"usage\":{\"prompt_tokens\":2147483647}}");
        c.add("{\"timings\":{\"predicted_ms\":1.5},\"choices\":[]}");
        c.add("{}");
        c.add("{\"choices\":[{\"delta\":{\"role\":null,\"content\":\"x\"}}]}");
        // 23-28: tool calls as vLLM streams them (the name first, then argument fragments), the legacy function_call,
        // odd shapes, and a fragment with escapes (fast path gives up)
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,"
                + "\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]},"
                + "\"logprobs\":null,\"finish_reason\":null}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\" Paris\"}}]},"
                + "\"logprobs\":null,\"finish_reason\":null}]}");
        c.add(HEAD + "[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"arguments\":\"a\"}},"
                + "{\"index\":1,\"id\":\"call_2\",\"function\":{\"name\":\"search\",\"arguments\":null}}]}}]}");
        c.add(HEAD + "[{\"delta\":{\"function_call\":{\"name\":\"f\",\"arguments\":\"x\"}}}]}");
        c.add(HEAD + "[{\"delta\":{\"tool_calls\":[null,7,{},{\"function\":null},{\"function\":{\"name\":1}}],"
                + "\"function_call\":[]}}]}");
        c.add(HEAD + "[{\"delta\":{\"tool_calls\":[{\"function\":{\"arguments\":\"{\\\"city\\\": \\\"\"}}]}}]}");
        // 29-31: usage with the prefix cache's count (vLLM --enable-prompt-tokens-details, OpenAI), odd forms of it
        c.add(HEAD + "[],\"usage\":{\"prompt_tokens\":80,\"total_tokens\":92,\"completion_tokens\":12,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":64,\"audio_tokens\":0}}}");
        c.add(HEAD + "[],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":1,\"prompt_tokens_details\":null}}");
        c.add(HEAD + "[],\"usage\":{\"prompt_tokens\":8,\"completion_tokens\":1,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":\"6\",\"cached_tokens\":5}}}");
        return c;
    }

    @Test
    void answersTheCommonShapes() {
        List<String> c = corpus();
        for (int k : new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 14, 18, 21, 22, 23, 24, 25, 26, 27, 29, 30}) {
            assertThat(ChunkFastPath.tryDecode(c.get(k))).as(c.get(k)).isNotNull();
        }
    }

    @Test
    void readsToolCallNamesAndArgumentFragments() {
        List<String> c = corpus();
        assertThat(generated(ChunkFastPath.tryDecode(c.get(23)))).isEqualTo("get_weather");
        assertThat(generated(ChunkFastPath.tryDecode(c.get(24)))).isEqualTo(" Paris");
        assertThat(generated(ChunkFastPath.tryDecode(c.get(25)))).isEqualTo("asearch");
        assertThat(generated(ChunkFastPath.tryDecode(c.get(26)))).isEqualTo("fx");
        assertThat(ChunkFastPath.tryDecode(c.get(27)).carriesText()).isFalse();
        assertThat(ChunkFastPath.tryDecode(c.get(28))).isNull();
        assertThat(generated((StreamPayload.Chunk) OpenAiChunkDecoder.decode(c.get(28)))).isEqualTo("{\"city\": \"");
        StreamPayload.Chunk first = ChunkFastPath.tryDecode(c.get(23));
        assertThat(first.carriesText()).isTrue();
        assertThat(first.reasoningOnly()).isFalse();
    }

    @Test
    void keepsEachFragmentsCallIndexIdAndName() {
        List<String> c = corpus();
        assertThat(ChunkFastPath.tryDecode(c.get(23)).toolCalls())
                .containsExactly(new StreamPayload.ToolCallDelta(0, "call_1", "get_weather", ""));
        assertThat(ChunkFastPath.tryDecode(c.get(25)).toolCalls()).containsExactly(
                new StreamPayload.ToolCallDelta(0, null, null, "a"),
                new StreamPayload.ToolCallDelta(1, "call_2", "search", ""));
        assertThat(ChunkFastPath.tryDecode(c.get(26)).toolCalls()) // the legacy function_call: one call, index 0
                .containsExactly(new StreamPayload.ToolCallDelta(0, null, "f", "x"));
        // entries that are not objects are skipped, but keep their place: an entry without an index is its position
        assertThat(ChunkFastPath.tryDecode(c.get(27)).toolCalls()).extracting(StreamPayload.ToolCallDelta::index)
                .containsExactly(2, 3, 4);
    }

    /** A chunk's tool-call text: each fragment's name and arguments, in order. */
    private static String generated(StreamPayload.Chunk c) {
        StringBuilder sb = new StringBuilder();
        for (StreamPayload.ToolCallDelta d : c.toolCalls()) {
            sb.append(d.name() == null ? "" : d.name()).append(d.arguments());
        }
        return sb.toString();
    }

    @Test
    void readsThePrefixCachesCount() {
        List<String> c = corpus();
        assertThat(ChunkFastPath.tryDecode(c.get(29)).cachedTokens()).isEqualTo(64);
        assertThat(ChunkFastPath.tryDecode(c.get(30)).cachedTokens()).isEqualTo(-1);
        assertThat(ChunkFastPath.tryDecode(c.get(31))).isNull();
        assertThat(((StreamPayload.Chunk) OpenAiChunkDecoder.decode(c.get(31))).cachedTokens()).isEqualTo(5);
        assertThat(ChunkFastPath.tryDecode(c.get(4)).cachedTokens()).isEqualTo(-1);
    }

    @Test
    void equalsTheJacksonPathOnTheCorpusEveryTruncationAndRandomMutations() {
        SplittableRandom random = new SplittableRandom(42);
        String alphabet = "{}[]:,\" \\0123456789.-+eEtrufalsn\u00e9x\n";
        int answered = 0;
        int checked = 0;
        for (String base : corpus()) {
            List<String> variants = new ArrayList<>();
            variants.add(base);
            for (int cut = 0; cut < base.length(); cut++) {
                variants.add(base.substring(0, cut));
            }
            for (int m = 0; m < 300; m++) {
                StringBuilder sb = new StringBuilder(base);
                int edits = 1 + random.nextInt(3);
                for (int e = 0; e < edits; e++) {
                    int at = random.nextInt(sb.length() + 1);
                    char ch = alphabet.charAt(random.nextInt(alphabet.length()));
                    switch (random.nextInt(3)) {
                        case 0 -> sb.insert(at, ch);
                        case 1 -> {
                            if (at < sb.length()) {
                                sb.deleteCharAt(at);
                            }
                        }
                        default -> {
                            if (at < sb.length()) {
                                sb.setCharAt(at, ch);
                            }
                        }
                    }
                }
                variants.add(sb.toString());
            }
            for (String v : variants) {
                StreamPayload.Chunk fast = ChunkFastPath.tryDecode(v);
                checked++;
                if (fast != null) {
                    answered++;
                    assertThat((Object) fast).as("payload %s", v).isEqualTo(OpenAiChunkDecoder.decodeGeneral(v));
                }
            }
        }
        // the comparison must have had something to compare: at least the 16 answered bases, and a share of
        // the mutations (a changed digit or letter inside a string keeps the payload valid)
        assertThat(answered).isGreaterThan(500);
        assertThat(checked).isGreaterThan(answered);
    }
}
