package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The pooling routes (embeddings, rerank, score) over real HTTP: shapes, counts, errors, cost and metrics. */
class SimPoolingTest {
    static final ObjectMapper JSON = new ObjectMapper();
    /** Float32 rounding of 384 unit-vector components leaves the norm within ~1e-7 of 1; 1e-5 is ample. */
    static final double NORM_TOLERANCE = 1e-5;
    static Simulator sim;
    static HttpClient http;

    @BeforeAll
    static void start() {
        sim = Simulator.start(SimConfig.preset("fast"));
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        sim.close();
        http.close();
    }

    static HttpResponse<String> post(Simulator s, String path, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(s.url() + path)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode ok(String path, String body) throws Exception {
        HttpResponse<String> r = post(sim, path, body);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        return JSON.readTree(r.body());
    }

    static float[] floats(JsonNode array) {
        float[] v = new float[array.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) array.get(i).asDouble();
        }
        return v;
    }

    static double norm(float[] v) {
        double s = 0;
        for (float f : v) {
            s += (double) f * f;
        }
        return Math.sqrt(s);
    }

    static String ids(String text) {
        StringBuilder sb = new StringBuilder("[");
        for (long id : Tokenizer.encode(text)) {
            sb.append(sb.length() > 1 ? "," : "").append(id);
        }
        return sb.append(']').toString();
    }

    @Test
    void embeddingOfAStringHasVllmsShape() throws Exception {
        JsonNode r = ok("/v1/embeddings", "{\"model\":\"sim-fast\",\"input\":\"hello there, world\"}");
        assertThat(r.path("id").asText()).startsWith("embd-");
        assertThat(r.path("object").asText()).isEqualTo("list");
        assertThat(r.path("created").isIntegralNumber()).isTrue();
        assertThat(r.path("model").asText()).isEqualTo("sim-fast");
        assertThat(r.path("data")).hasSize(1);
        JsonNode d = r.at("/data/0");
        assertThat(d.path("object").asText()).isEqualTo("embedding");
        assertThat(d.path("index").asInt()).isZero();
        float[] v = floats(d.path("embedding"));
        assertThat(v).hasSize(384);
        assertThat(norm(v)).isCloseTo(1.0, within(NORM_TOLERANCE));
        int p = Tokenizer.count("hello there, world");
        assertThat(p).isEqualTo(4);
        assertThat(r.at("/usage/prompt_tokens").asInt()).isEqualTo(p);
        assertThat(r.at("/usage/total_tokens").asInt()).isEqualTo(p);
        assertThat(r.at("/usage/completion_tokens").asInt()).isZero();
    }

    @Test
    void listsOfStringsAndOfTokenIdsEmbedEachInputAndCountAllTokens() throws Exception {
        JsonNode list = ok("/v1/embeddings", "{\"input\":[\"one two three\",\"hello there, world\"]}");
        assertThat(list.path("data")).hasSize(2);
        assertThat(list.at("/data/1/index").asInt()).isEqualTo(1);
        assertThat(list.at("/usage/prompt_tokens").asInt())
                .isEqualTo(Tokenizer.count("one two three") + Tokenizer.count("hello there, world"));
        JsonNode single = ok("/v1/embeddings", "{\"input\":\"one two three\"}");
        JsonNode tokens = ok("/v1/embeddings", "{\"input\":" + ids("one two three") + "}");
        JsonNode nested = ok("/v1/embeddings", "{\"input\":[" + ids("one two three") + "," + ids("hello there, world") + "]}");
        // the same token ids give the same vector, however they are sent (and on every call: determinism)
        assertThat(floats(tokens.at("/data/0/embedding"))).isEqualTo(floats(single.at("/data/0/embedding")));
        assertThat(floats(list.at("/data/0/embedding"))).isEqualTo(floats(single.at("/data/0/embedding")));
        assertThat(floats(nested.at("/data/1/embedding"))).isEqualTo(floats(list.at("/data/1/embedding")));
        assertThat(tokens.at("/usage/prompt_tokens").asInt()).isEqualTo(3);
        assertThat(nested.at("/usage/prompt_tokens").asInt()).isEqualTo(list.at("/usage/prompt_tokens").asInt());
        assertThat(floats(list.at("/data/1/embedding"))).isNotEqualTo(floats(list.at("/data/0/embedding")));
    }

    @Test
    void base64IsTheSameFloatsAndDimensionsCutTheVector() throws Exception {
        float[] full = floats(ok("/v1/embeddings", "{\"input\":\"base sixty four\"}").at("/data/0/embedding"));
        String b64 = ok("/v1/embeddings", "{\"input\":\"base sixty four\",\"encoding_format\":\"base64\"}")
                .at("/data/0/embedding").asText();
        ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(b64)).order(ByteOrder.LITTLE_ENDIAN);
        float[] decoded = new float[bytes.remaining() / 4];
        for (int i = 0; i < decoded.length; i++) {
            decoded[i] = bytes.getFloat();
        }
        assertThat(decoded).isEqualTo(full);
        float[] cut = floats(ok("/v1/embeddings", "{\"input\":\"base sixty four\",\"dimensions\":64}")
                .at("/data/0/embedding"));
        assertThat(cut).hasSize(64);
        assertThat(norm(cut)).isCloseTo(1.0, within(NORM_TOLERANCE));
        double prefixNorm = norm(java.util.Arrays.copyOf(full, 64));
        for (int i = 0; i < 64; i++) { // the first 64 components, normalised again (float32 rounding of each: 1e-6)
            assertThat((double) cut[i]).isCloseTo(full[i] / prefixNorm, within(1e-6));
        }
        assertThat(post(sim, "/v1/embeddings", "{\"input\":\"x\",\"dimensions\":385}").statusCode()).isEqualTo(400);
        assertThat(post(sim, "/v1/embeddings", "{\"input\":\"x\",\"dimensions\":0}").statusCode()).isEqualTo(400);
        assertThat(post(sim, "/v1/embeddings", "{\"input\":\"x\",\"encoding_format\":\"int8\"}").statusCode())
                .isEqualTo(400);
    }

    @Test
    void embeddingDimensionsIsAValidatedSetting() throws Exception {
        assertThatThrownBy(() -> SimConfig.builder().embeddingDimensions(0).build())
                .hasMessageContaining("embeddingDimensions must be >= 1, was 0");
        SimConfig c = SimConfig.builder().embeddingDimensions(16).build();
        assertThat(c.toBuilder().build().embeddingDimensions()).isEqualTo(16);
        try (Simulator small = Simulator.start(c)) {
            HttpResponse<String> r = post(small, "/v1/embeddings", "{\"input\":\"sixteen\"}");
            assertThat(JSON.readTree(r.body()).at("/data/0/embedding")).hasSize(16);
            assertThat(post(small, "/v1/embeddings", "{\"input\":\"x\",\"dimensions\":17}").body())
                    .contains("only supports dimensions in range [1, 16], got 17");
        }
    }

    @Test
    void badRequestsAreRejectedLikeCompletions() throws Exception {
        HttpResponse<String> stream = post(sim, "/v1/embeddings", "{\"input\":\"x\",\"stream\":true}");
        assertThat(stream.statusCode()).isEqualTo(400);
        assertThat(stream.body()).contains("cannot be streamed");
        assertThat(post(sim, "/v1/embeddings", "{\"input\":[]}").statusCode()).isEqualTo(400);
        assertThat(post(sim, "/v1/embeddings", "{\"input\":\"\"}").statusCode()).isEqualTo(400);
        assertThat(post(sim, "/v1/rerank", "{\"query\":\"q\",\"documents\":[]}").statusCode()).isEqualTo(400);
        HttpResponse<String> model = post(sim, "/v1/embeddings", "{\"model\":\"other\",\"input\":\"x\"}");
        assertThat(model.statusCode()).isEqualTo(404);
        assertThat(model.body()).contains("other");
        HttpResponse<String> tooLong = post(sim, "/v1/embeddings", "{\"input\":\"" + "a ".repeat(8193).trim() + "\"}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(tooLong.body()).contains("maximum context length is 8192 tokens").contains("8193 input tokens");
        // a pair is one sequence: 4096 + 4097 tokens are over 8192 together
        HttpResponse<String> pair = post(sim, "/v1/score", "{\"text_1\":\"" + "a ".repeat(4096).trim()
                + "\",\"text_2\":\"" + "b ".repeat(4097).trim() + "\"}");
        assertThat(pair.statusCode()).isEqualTo(400);
        assertThat(post(sim, "/v1/score", "{\"text_1\":[\"a\",\"b\"],\"text_2\":[\"a\",\"b\",\"c\"]}").statusCode())
                .isEqualTo(400);
        HttpResponse<String> fault = post(sim, "/v1/embeddings", "{\"input\":\"x\"}", "X-Sim-Fault", "http_429");
        assertThat(fault.statusCode()).isEqualTo(429);
        HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(sim.url() + "/v1/embeddings")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(get.statusCode()).isEqualTo(405);
    }

    @Test
    void ollamaEmbedGivesTheSameVectorsInItsShape() throws Exception {
        JsonNode r = ok("/api/embed", "{\"model\":\"sim-fast\",\"input\":[\"one two three\",\"four five\"]}");
        assertThat(r.path("model").asText()).isEqualTo("sim-fast");
        assertThat(r.path("embeddings")).hasSize(2);
        float[] openAi = floats(ok("/v1/embeddings", "{\"input\":\"four five\"}").at("/data/0/embedding"));
        assertThat(floats(r.at("/embeddings/1"))).isEqualTo(openAi);
        assertThat(r.path("prompt_eval_count").asInt()).isEqualTo(5);
        assertThat(r.path("load_duration").asLong()).isZero();
        // at least one engine step (the fast preset's 2 ms overhead) passed between arrival and answer, in ns
        assertThat(r.path("total_duration").asLong()).isGreaterThanOrEqualTo(2_000_000);
        assertThat(ok("/api/embed", "{\"input\":\"four five\"}").path("embeddings")).hasSize(1);
    }

    @Test
    void rerankSortsByRelevanceHonoursTopNAndCountsEachPair() throws Exception {
        String body = "{\"model\":\"sim-fast\",\"query\":\"red fox jumps\",\"documents\":"
                + "[\"blue whale swims\",\"red fox jumps\",\"red fox sleeps\"]";
        JsonNode r = ok("/v1/rerank", body + "}");
        assertThat(r.path("id").asText()).startsWith("score-");
        assertThat(r.path("model").asText()).isEqualTo("sim-fast");
        int q = Tokenizer.count("red fox jumps");
        int p = 3 * q + Tokenizer.count("blue whale swims") + Tokenizer.count("red fox jumps") + Tokenizer.count("red fox sleeps");
        assertThat(r.at("/usage/total_tokens").asInt()).isEqualTo(p);
        assertThat(r.at("/usage/prompt_tokens").asInt()).isEqualTo(p);
        JsonNode results = r.path("results");
        assertThat(results).hasSize(3);
        List<Integer> order = new ArrayList<>();
        results.forEach(x -> order.add(x.path("index").asInt()));
        // the identical document first (cosine 1), the one sharing two of three tokens next, the unrelated one last
        assertThat(order).containsExactly(1, 2, 0);
        assertThat(results.at("/0/relevance_score").asDouble()).isCloseTo(1.0, within(1e-6));
        assertThat(results.at("/0/document/text").asText()).isEqualTo("red fox jumps");
        for (int i = 1; i < 3; i++) {
            assertThat(results.get(i).path("relevance_score").asDouble())
                    .isLessThanOrEqualTo(results.get(i - 1).path("relevance_score").asDouble()).isBetween(0.0, 1.0);
        }
        JsonNode top = ok("/rerank", body + ",\"top_n\":2}");
        assertThat(top.path("results")).hasSize(2);
        assertThat(top.at("/results/1/relevance_score").asDouble()).isEqualTo(results.at("/1/relevance_score").asDouble());
        assertThat(top.at("/usage/total_tokens").asInt()).isEqualTo(p); // every pair ran, top_n only cuts the answer
        assertThat(ok("/v2/rerank", body + "}").path("results")).hasSize(3);
    }

    @Test
    void teiRerankOnSlashRerankIsABareArray() throws Exception {
        HttpResponse<String> raw = post(sim, "/rerank", "{\"query\":\"red fox jumps\",\"texts\":"
                + "[\"blue whale swims\",\"red fox jumps\"],\"return_text\":true}");
        assertThat(raw.statusCode()).isEqualTo(200);
        JsonNode r = JSON.readTree(raw.body());
        assertThat(r.isArray()).isTrue();
        assertThat(r).hasSize(2);
        assertThat(r.at("/0/index").asInt()).isEqualTo(1);
        assertThat(r.at("/0/text").asText()).isEqualTo("red fox jumps");
        assertThat(r.at("/0/score").asDouble()).isGreaterThan(r.at("/1/score").asDouble());
        JsonNode plain = JSON.readTree(post(sim, "/rerank", "{\"query\":\"red fox jumps\",\"texts\":[\"blue whale swims\"]}").body());
        assertThat(plain.at("/0/score").asDouble()).isEqualTo(r.at("/1/score").asDouble());
        assertThat(plain.get(0).has("text")).isFalse();
    }

    @Test
    void scoreIsOneToManyOrPairwise() throws Exception {
        JsonNode r = ok("/v1/score", "{\"model\":\"sim-fast\",\"text_1\":\"red fox jumps\",\"text_2\":"
                + "[\"blue whale swims\",\"red fox jumps\"]}");
        assertThat(r.path("id").asText()).startsWith("score-");
        assertThat(r.path("object").asText()).isEqualTo("list");
        assertThat(r.path("data")).hasSize(2);
        assertThat(r.at("/data/1/object").asText()).isEqualTo("score");
        assertThat(r.at("/data/1/index").asInt()).isEqualTo(1);
        assertThat(r.at("/data/1/score").asDouble()).isCloseTo(1.0, within(1e-6));
        int p = 2 * Tokenizer.count("red fox jumps") + Tokenizer.count("blue whale swims") + Tokenizer.count("red fox jumps");
        assertThat(r.at("/usage/prompt_tokens").asInt()).isEqualTo(p);
        assertThat(r.at("/usage/total_tokens").asInt()).isEqualTo(p);
        JsonNode pairwise = ok("/score", "{\"text_1\":[\"blue whale swims\",\"red fox jumps\"],\"text_2\":"
                + "[\"blue whale swims\",\"blue whale swims\"]}");
        assertThat(pairwise.at("/data/0/score").asDouble()).isCloseTo(1.0, within(1e-6));
        // the same pair scores the same on every route: (red fox jumps, blue whale swims)
        assertThat(pairwise.at("/data/1/score").asDouble()).isEqualTo(r.at("/data/0/score").asDouble());
    }

    @Test
    void poolingCountsPromptTokensButNoGenerationOrLatencies() throws Exception {
        ok("/v1/embeddings", "{\"input\":\"warm up\"}");
        String before = sim.metricsText();
        JsonNode r = ok("/v1/embeddings", "{\"input\":[\"metrics one two\",\"metrics three\"]}");
        JsonNode s = ok("/v1/rerank", "{\"query\":\"metrics\",\"documents\":[\"one\",\"two\"]}");
        String after = sim.metricsText();
        int prompt = r.at("/usage/prompt_tokens").asInt() + s.at("/usage/prompt_tokens").asInt();
        assertThat(metric(after, "vllm:prompt_tokens_total") - metric(before, "vllm:prompt_tokens_total"))
                .isEqualTo(prompt);
        for (String name : List.of("vllm:generation_tokens_total", "vllm:time_to_first_token_seconds_count",
                "vllm:inter_token_latency_seconds_count", "vllm:e2e_request_latency_seconds_count")) {
            assertThat(metric(after, name)).as(name).isEqualTo(metric(before, name));
        }
    }

    static double metric(String text, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*} (\\S+)$").matcher(text);
        assertThat(m.find()).as(name).isTrue();
        return Double.parseDouble(m.group(1));
    }

    @Test
    void aBatchOfLongInputsCostsItsPrefill() throws Exception {
        // cpu-small: 30 ms per step + 1 ms per prefill token, 512 tokens per step, 4 sequences at once
        SimConfig c = SimConfig.preset("cpu-small");
        try (Simulator cpu = Simulator.start(c)) {
            String shortBody = "{\"input\":\"short one\"}";
            List<String> longInputs = new ArrayList<>();
            for (int k = 0; k < 4; k++) { // 4 x 100 distinct tokens: no prefix-cache hit between them
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < 100; i++) {
                    sb.append(i == 0 ? "" : " ").append(k).append(i % 10);
                }
                longInputs.add(sb.toString());
            }
            String longBody = "{\"input\":" + JSON.writeValueAsString(longInputs) + "}";
            post(cpu, "/v1/embeddings", "{\"input\":\"warm the connection\"}");
            long t0 = System.nanoTime();
            HttpResponse<String> one = post(cpu, "/v1/embeddings", shortBody);
            long shortNanos = System.nanoTime() - t0;
            t0 = System.nanoTime();
            HttpResponse<String> batch = post(cpu, "/v1/embeddings", longBody);
            long longNanos = System.nanoTime() - t0;
            assertThat(one.statusCode()).isEqualTo(200);
            assertThat(batch.statusCode()).isEqualTo(200);
            int tokens = JSON.readTree(batch.body()).at("/usage/prompt_tokens").asInt();
            assertThat(tokens).isEqualTo(4 * 200); // "k" and "i%10" are one digit token each
            // The engine never answers before its modelled steps end, so the batch takes at least its prefill:
            // 800 tokens over two 512-token steps, 2 x 30 ms + 800 ms. Jitter (3%, clamped to +-50%) can shorten a
            // step by a few percent: 0.8 of the model's time leaves room for it without letting a free prefill pass.
            long modelled = StepCost.of(c).nanos(800, 0, 800) + c.stepOverheadNanos();
            assertThat(longNanos).isGreaterThan((long) (0.8 * modelled));
            // One short input is one ~33 ms step; the batch's ~860 ms is ~25x that. Requiring only 5x tolerates the
            // short request being delayed ~5-fold by a busy shared CPU, yet fails if inputs cost no prefill.
            assertThat((double) longNanos / shortNanos).isGreaterThan(5.0);
        }
    }
}
