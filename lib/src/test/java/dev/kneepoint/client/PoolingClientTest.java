package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestSpec;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.Test;

/**
 * The pooling APIs end to end through the client (METRICS.md "Pooling requests"): the batch goes out in each API's
 * body, never streamed; the answer's items are counted and must match the batch; no output tokens; TTFT equals E2E
 * and both end when the whole answer has arrived. Timing tolerances as in {@link StreamingClientTimingTest}: a
 * scripted pause is a lower bound, the upper slack covers a noisy machine.
 */
class PoolingClientTest extends ClientFixture {
    private static final List<String> BATCH = List.of("alpha beta", "gamma", "delta epsilon zeta");
    private static final RequestSpec SPEC = RequestSpec.of("what is alpha?", 16).withInputs(BATCH, 12);

    private void enqueueJson(ScriptedBody body) {
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .addHeader("Transfer-Encoding", "chunked").body(body)
                .onResponseEnd(SocketEffect.ShutdownConnection.INSTANCE).build());
    }

    private RequestRecord send(ApiKind kind) {
        return send(target(b -> b.api(kind)), SPEC, new Cancellation());
    }

    private JsonNode sentBody() throws Exception {
        RecordedRequest r = server.takeRequest(5, java.util.concurrent.TimeUnit.SECONDS);
        return OpenAiChunkDecoder.MAPPER.readTree(r.getBody().utf8());
    }

    static String embeddings(int n, int dims, int promptTokens) {
        StringBuilder sb = new StringBuilder("{\"object\":\"list\",\"data\":[");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"object\":\"embedding\",\"index\":").append(i).append(",\"embedding\":[");
            for (int d = 0; d < dims; d++) {
                sb.append(d == 0 ? "" : ",").append("0.0").append(d % 10).append("12345678");
            }
            sb.append("]}");
        }
        return sb.append("],\"model\":\"m\",\"usage\":{\"prompt_tokens\":").append(promptTokens)
                .append(",\"total_tokens\":").append(promptTokens).append("}}").toString();
    }

    @Test
    void anEmbeddingsAnswerIsOkWithItsItemsAndPromptTokensAndTtftEqualsE2eAtTheWholeAnswer() throws Exception {
        // headers at once, the body 150 ms later: the answer counts from its last byte, not its status line
        enqueueJson(body().pause(150).write(embeddings(3, 8, 11)));
        RequestRecord r = send(ApiKind.EMBEDDINGS);

        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().items()).isEqualTo(3);
        assertThat(r.tokens().promptTokens()).isEqualTo(11);
        assertThat(r.tokens().outputTokens()).isZero();
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(r.response().streamed()).isFalse();
        assertThat(r.timing().chunkNanos()).isEmpty();
        assertThat(r.ttftNanos()).isEqualTo(r.e2eNanos());
        assertThat(ms(r.e2eNanos())).isBetween(145.0, 150.0 + 300);
        assertThat(r.ttfbNanos()).isLessThan(r.e2eNanos() - 100 * MS);
        assertThat(r.tpotNanos()).isEqualTo(RequestRecord.ABSENT);

        JsonNode sent = sentBody();
        assertThat(sent.toString()).isEqualTo("{\"model\":\"test-model\",\"input\":[\"alpha beta\",\"gamma\","
                + "\"delta epsilon zeta\"],\"encoding_format\":\"float\"}");
        assertThat(server.getRequestCount()).isEqualTo(1);
    }

    @Test
    void aRecordedLlamaServerEmbeddingsAnswerDecodes() {
        // llama-server (llama.cpp of llama-cpp-python 0.3.36) --embeddings --pooling mean, SmolLM2-135M, asked
        // for this test's three inputs in the body PoolingBodies writes: 576-float vectors, 7 prompt tokens
        enqueueJson(body().write(new String(Fixtures.bytes("llamacpp/real-embeddings.json"),
                java.nio.charset.StandardCharsets.UTF_8)));
        RequestRecord r = send(ApiKind.EMBEDDINGS);
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().items()).isEqualTo(3);
        assertThat(r.tokens().promptTokens()).isEqualTo(7);
    }

    @Test
    void aRecordedOllamaEmbedAnswerDecodes() {
        // Ollama 0.17.4 /api/embed, SmolLM2-135M, this test's three inputs: 576-float vectors, its durations in ns
        enqueueJson(body().write(new String(Fixtures.bytes("ollama/real-embed.json"),
                java.nio.charset.StandardCharsets.UTF_8)));
        RequestRecord r = send(ApiKind.OLLAMA_EMBED);
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().items()).isEqualTo(3);
        assertThat(r.tokens().promptTokens()).isEqualTo(7);
        assertThat(r.response().serverTimings()).containsKeys("total_ms", "load_ms");
    }

    @Test
    void aLargeAnswerIsCountedWithoutBeingRead() {
        enqueueJson(body().write(embeddings(64, 1024, 4096))); // about 900 KB of floats
        RequestRecord r = send(target(b -> b.api(ApiKind.EMBEDDINGS)),
                RequestSpec.of("q", 1).withInputs(java.util.Collections.nCopies(64, "text"), -1), new Cancellation());
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().items()).isEqualTo(64);
        assertThat(r.tokens().promptTokens()).isEqualTo(4096);
    }

    @Test
    void rerankSendsTheQueryAndDocumentsAndCountsTheResults() throws Exception {
        enqueueJson(body().write("{\"id\":\"rerank-1\",\"model\":\"m\",\"usage\":{\"total_tokens\":21},\"results\":["
                + "{\"index\":2,\"document\":{\"text\":\"x\"},\"relevance_score\":0.9},"
                + "{\"index\":0,\"document\":{\"text\":\"y\"},\"relevance_score\":0.5},"
                + "{\"index\":1,\"document\":{\"text\":\"z\"},\"relevance_score\":0.1}]}"));
        RequestRecord r = send(ApiKind.RERANK);
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().items()).isEqualTo(3);
        assertThat(r.tokens().promptTokens()).isEqualTo(21); // rerank reports total_tokens only
        assertThat(sentBody().toString()).isEqualTo("{\"model\":\"test-model\",\"query\":\"what is alpha?\","
                + "\"documents\":[\"alpha beta\",\"gamma\",\"delta epsilon zeta\"]}");
    }

    @Test
    void fewerItemsThanInputsIsAFailureNamingBothCounts() {
        enqueueJson(body().write("{\"results\":[{\"index\":0,\"relevance_score\":0.9}],\"usage\":{\"total_tokens\":9}}"));
        RequestRecord r = send(ApiKind.RERANK);
        assertThat(r.outcome()).isInstanceOf(Outcome.StreamError.class);
        assertThat(r.outcome().detail()).contains("1 items for the 3 inputs");
        assertThat(r.response().items()).isEqualTo(1);
    }

    @Test
    void teiRerankAnswersABareArray() throws Exception {
        enqueueJson(body().write("[{\"index\":1,\"score\":0.8},{\"index\":0,\"score\":0.3},{\"index\":2,\"score\":0.1}]"));
        RequestRecord r = send(ApiKind.TEI_RERANK);
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(r.response().items()).isEqualTo(3);
        assertThat(r.tokens().promptTokens()).isEqualTo(12); // TEI reports no usage: the requested count stays
        assertThat(sentBody().toString()).isEqualTo("{\"query\":\"what is alpha?\","
                + "\"texts\":[\"alpha beta\",\"gamma\",\"delta epsilon zeta\"]}");
    }

    @Test
    void scoreAndOllamaEmbedBodiesAndAnswers() throws Exception {
        enqueueJson(body().write("{\"id\":\"score-1\",\"object\":\"list\",\"model\":\"m\",\"data\":["
                + "{\"index\":0,\"object\":\"score\",\"score\":0.1},{\"index\":1,\"object\":\"score\",\"score\":0.2},"
                + "{\"index\":2,\"object\":\"score\",\"score\":0.3}],\"usage\":{\"prompt_tokens\":30,\"total_tokens\":30}}"));
        RequestRecord score = send(ApiKind.SCORE);
        assertThat(score.outcome()).isEqualTo(Outcome.OK);
        assertThat(score.tokens().promptTokens()).isEqualTo(30);
        assertThat(sentBody().toString()).isEqualTo("{\"model\":\"test-model\",\"text_1\":\"what is alpha?\","
                + "\"text_2\":[\"alpha beta\",\"gamma\",\"delta epsilon zeta\"]}");

        enqueueJson(body().write("{\"model\":\"m\",\"embeddings\":[[0.1,0.2],[0.3,0.4],[0.5,0.6]],"
                + "\"total_duration\":14000000,\"load_duration\":1000000,\"prompt_eval_count\":17}"));
        RequestRecord ollama = send(ApiKind.OLLAMA_EMBED);
        assertThat(ollama.outcome()).isEqualTo(Outcome.OK);
        assertThat(ollama.tokens().promptTokens()).isEqualTo(17);
        assertThat(ollama.response().serverTimings()).containsAllEntriesOf(Map.of("total_ms", 14.0, "load_ms", 1.0));
        assertThat(sentBody().toString()).isEqualTo("{\"model\":\"test-model\","
                + "\"input\":[\"alpha beta\",\"gamma\",\"delta epsilon zeta\"]}");
    }

    @Test
    void errorsAndWrongShapesAreNamed() {
        enqueueJson(body().write("{\"object\":\"error\",\"message\":\"input too long\",\"code\":400}"));
        assertThat(send(ApiKind.EMBEDDINGS).outcome().detail()).contains("input too long");
        enqueueJson(body().write("{\"object\":\"list\",\"model\":\"m\"}"));
        assertThat(send(ApiKind.EMBEDDINGS).outcome().detail()).contains("without its list of embeddings (data)");
        enqueueJson(body().write("{\"data\":[],\"usage\":{\"prompt_tokens\":0}}"));
        assertThat(send(ApiKind.EMBEDDINGS).outcome()).isEqualTo(Outcome.EMPTY);
        server.enqueue(new MockResponse.Builder().code(400).addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"bad\"}}").build());
        assertThat(send(ApiKind.EMBEDDINGS).outcome().label()).isEqualTo("HTTP_ERROR(400)");
    }

    @Test
    void aPoolingTargetNeverStreamsAndWithoutABatchSendsThePrompt() throws Exception {
        TargetConfig t = target(b -> b.api(ApiKind.EMBEDDINGS).stream(true));
        assertThat(t.stream()).isFalse();
        enqueueJson(body().write(embeddings(1, 2, 3)));
        RequestRecord r = send(t, RequestSpec.of("just me", 8), new Cancellation());
        assertThat(r.outcome()).isEqualTo(Outcome.OK);
        assertThat(sentBody().get("input").toString()).isEqualTo("[\"just me\"]");
    }
}
