package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Exact prompt lengths against the simulator's own /tokenize (exact by construction, see docs/SIMULATOR.md). */
class CalibrationTest {
    private static Simulator sim;
    private static TargetConfig chat;
    private static TargetConfig completions;
    private static PromptCalibrator cal;

    @BeforeAll
    static void start() {
        sim = Simulator.start(SimConfig.preset("fast"));
        chat = TargetConfig.builder().baseUrl(sim.url() + "/v1").model(SimConfig.preset("fast").modelName()).build();
        completions = TargetConfig.builder().baseUrl(sim.url()).model(SimConfig.preset("fast").modelName())
                .apiKind(ApiKind.COMPLETIONS).build();
        cal = PromptCalibrator.measure(TokenCounter.server(chat));
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    @Test
    void serverTokenizerSpeaksTheVllmShapeAndCountsChatWithTheTemplate() {
        TokenCounter c = TokenCounter.server(chat);
        assertThat(c.count("one two three")).isEqualTo(3);
        // simulator template: sum(4 + content) + 3
        assertThat(c.countChat(List.of(new RequestSpec.ChatMessage("system", "a b"),
                new RequestSpec.ChatMessage("user", "c d e")))).isEqualTo(4 + 2 + 4 + 3 + 3);
        assertThat(c.exact()).isTrue();
        assertThat(c.describe()).contains("/tokenize").contains("vllm shape");
        assertThat(cal.promptOverhead()).isZero();
        assertThat(cal.chatOverhead(List.of("user"))).isEqualTo(7);
        assertThat(cal.exact()).isTrue();
    }

    @Test
    void syntheticChatPromptsHitEveryRequestedLengthExactly() {
        SyntheticWorkload w = Workloads.synthetic().calibrator(cal).inputTokens(Lengths.uniform(8, 900))
                .outputTokens(Lengths.fixed(16)).seed(3).build();
        CalibrationReport r = w.verify(60);
        assertThat(r.samples()).hasSize(60);
        assertThat(r.samples().stream().map(CalibrationReport.Sample::requested).distinct().count()).isGreaterThan(30);
        assertThat(r.allExact()).as(r.summary()).isTrue();
        assertThat(r.summary()).startsWith("60/60 prompts exact");
    }

    @Test
    void completionsPromptsSharedPrefixesAndMultiTurnHitExactly() {
        SyntheticWorkload comp = Workloads.synthetic().calibrate(completions).inputTokens(Lengths.logNormal(300, 100))
                .seed(5).build();
        assertThat(comp.verify(30).allExact()).as(comp.verify(30).summary()).isTrue();

        SyntheticWorkload rag = Workloads.sharedPrefix(200, 3).calibrator(cal).inputTokens(Lengths.uniform(260, 400))
                .salt(9).build();
        CalibrationReport rr = rag.verify(30);
        assertThat(rr.allExact()).as(rr.summary()).isTrue();
        // requests 0 and 3 share the group-0 system prompt; 0 and 1 do not
        assertThat(rag.next(0).messages().get(0)).isEqualTo(rag.next(3).messages().get(0));
        assertThat(rag.next(0).messages().get(0)).isNotEqualTo(rag.next(1).messages().get(0));

        MultiTurnWorkload mt = Workloads.multiTurn().turns(4).systemTokens(30).userTokens(Lengths.uniform(5, 60))
                .outputTokens(Lengths.uniform(10, 50)).calibrator(cal).build();
        CalibrationReport mr = mt.verify(12);
        assertThat(mr.allExact()).as(mr.summary()).isTrue();
    }

    @Test
    void serverUsageConfirmsRequestedPromptAndOutputLengthsEndToEnd() {
        SyntheticWorkload w = Workloads.synthetic().calibrate(chat).inputTokens(Lengths.uniform(20, 400))
                .outputTokens(Lengths.uniform(2, 12)).output(OutputControl.exact(OutputControl.Server.SIMULATOR)).build();
        java.util.List<dev.kneepoint.metrics.RequestRecord> records = new java.util.ArrayList<>();
        try (dev.kneepoint.client.StreamingClient client = new dev.kneepoint.client.StreamingClient(chat)) {
            dev.kneepoint.metrics.RunClock clock = dev.kneepoint.metrics.RunClock.system();
            for (int i = 0; i < 8; i++) {
                records.add(client.execute(w.next(i), new dev.kneepoint.request.RequestContext(i, "s", false, clock.now(), clock),
                        new dev.kneepoint.request.Cancellation()));
            }
        }
        LengthCheck check = LengthCheck.of(records, true);
        assertThat(check.checkedOutput()).isEqualTo(8);
        assertThat(check.checkedPrompt()).isEqualTo(8);
        assertThat(check.ok()).as(check.warnings().toString()).isTrue();
        assertThat(check.promptExact()).isEqualTo(8);
        assertThat(check.outputExact()).isEqualTo(8);
    }

    @Test
    void fitCutsAndExtendsRealTextToExactLengthInFewCalls() {
        String text = "In 2024, the cluster's p99 latency rose by 37% (from 1.2s to 1.6s); see section 4.3.";
        for (int n : new int[] {5, 20, 57, 300}) {
            PromptCalibrator.Fitted f = cal.fit(text, n);
            assertThat(f.tokens()).as("fit to %d", n).isEqualTo(n);
            assertThat(TokenCounter.server(chat).count(f.text())).isEqualTo(n);
            // a binary search over <= ~200 cut points plus a few doublings and checks
            assertThat(f.calls()).isLessThanOrEqualTo(16);
        }
    }

    @Test
    void wordsOfSeveralTokensAreStillAssembledExactly() {
        // a tokenizer where words longer than four letters cost two tokens, plus a BOS token
        TokenCounter twoForLong = TokenCounter.of("test:long words cost 2", true, t -> {
            int n = 1;
            for (String w : t.split(" ")) {
                n += w.isEmpty() ? 0 : w.length() > 4 ? 2 : 1;
            }
            return n;
        });
        PromptCalibrator c = PromptCalibrator.measure(twoForLong);
        assertThat(c.promptOverhead()).isEqualTo(1);
        SyntheticWorkload w = Workloads.synthetic().calibrator(c).api(ApiKind.COMPLETIONS)
                .inputTokens(Lengths.uniform(3, 200)).build();
        CalibrationReport r = w.verify(50);
        assertThat(r.allExact()).as(r.summary()).isTrue();
    }

    @Test
    void estimateIsFlaggedAndSaltChangesTextButNotLengths() {
        SyntheticWorkload a = Workloads.synthetic().calibrate(TokenCounter.estimate()).salt(1).build();
        SyntheticWorkload b = Workloads.synthetic().calibrate(TokenCounter.estimate()).salt(2).build();
        assertThat(a.verify(3).summary()).contains("[ESTIMATE]");
        assertThat(a.describe()).containsEntry("lengths_exact", false);
        assertThat(a.next(4).requestedPromptTokens()).isEqualTo(b.next(4).requestedPromptTokens());
        assertThat(a.next(4).prompt()).isNotEqualTo(b.next(4).prompt());
        assertThat(a.next(4)).isEqualTo(a.next(4));
        // default salt is fresh per build: two builds differ unless warmCache() is asked for
        assertThat(Workloads.synthetic().build().next(0).prompt()).isNotEqualTo(Workloads.synthetic().build().next(0).prompt());
        assertThat(Workloads.synthetic().warmCache().build().next(0).prompt())
                .isEqualTo(Workloads.synthetic().warmCache().build().next(0).prompt());
    }

    @Test
    void llamaCppShapeIsDetectedWhenThePromptFieldIsIgnored() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder().body("{\"tokens\":[]}").build());
            server.enqueue(new MockResponse.Builder().body("{\"tokens\":[1,2,3,4]}").build());
            server.enqueue(new MockResponse.Builder().body("{\"tokens\":[5,6]}").build());
            server.start();
            TokenCounter c = TokenCounter.server(server.url("/").toString(), "m");
            assertThat(c.count("a b c d")).isEqualTo(4);
            assertThat(c.count("x y")).isEqualTo(2);
            assertThat(c.describe()).contains("llama.cpp shape");
            assertThat(server.takeRequest().getBody().utf8()).contains("\"prompt\":\"a b c d\"");
            assertThat(server.takeRequest().getBody().utf8()).contains("\"content\":\"a b c d\"");
            assertThat(server.takeRequest().getBody().utf8()).contains("\"content\":\"x y\"");
        }
    }

    @Test
    void serverErrorsBecomeTokenizerExceptionsNamingTheUrl() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            for (int i = 0; i < 4; i++) { // one per dialect tried: vLLM, llama.cpp, TGI, llama_cpp.server
                server.enqueue(new MockResponse.Builder().code(404).body("not found").build());
            }
            server.start();
            assertThatThrownBy(() -> TokenCounter.server(server.url("/v1").toString(), "m").count("x"))
                    .isInstanceOf(TokenizerException.class).hasMessageContaining("/tokenize").hasMessageContaining("404");
        }
    }

    @Test
    void invalidBuilderReportsAllProblemsAtOnce() {
        assertThatThrownBy(() -> Workloads.sharedPrefix(-1, 0).tag(" ").build())
                .hasMessageContaining("3 problems").hasMessageContaining("prefix tokens")
                .hasMessageContaining("groups").hasMessageContaining("tag");
    }
}
