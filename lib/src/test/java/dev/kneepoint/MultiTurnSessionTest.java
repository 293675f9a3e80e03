package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.ClosedLoopStep;
import dev.kneepoint.load.LoadRun;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.workload.Lengths;
import dev.kneepoint.workload.MultiTurnWorkload;
import dev.kneepoint.workload.TokenCounter;
import dev.kneepoint.workload.Workloads;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** Multi-turn sessions against the simulator through the real client: the history holds the server's answers. */
class MultiTurnSessionTest {
    private static final int USER_TOKENS = 16;
    private static final int OUTPUT_TOKENS = 32;

    /** The client's record before the runner drops the text, next to the spec it answered. */
    private record Exchanged(RequestSpec spec, RequestRecord record) { }

    @Test
    void eachTurnCarriesTheEarlierAnswersAndThePromptGrows() {
        ConcurrentLinkedQueue<Exchanged> seen = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<RequestRecord> delivered = new ConcurrentLinkedQueue<>();
        try (Simulator sim = Kneepoint.simulator("fast")) {
            TargetConfig target = Kneepoint.target(sim);
            MultiTurnWorkload sessions = Workloads.multiTurn().turns(3)
                    .userTokens(Lengths.fixed(USER_TOKENS)).outputTokens(Lengths.fixed(OUTPUT_TOKENS))
                    .calibrate(TokenCounter.server(target)).seed(7).build();
            try (StreamingClient client = new StreamingClient(target)) {
                RequestSender recording = (RequestSpec spec, RequestContext ctx, Cancellation c) -> {
                    RequestRecord r = client.execute(spec, ctx, c);
                    seen.add(new Exchanged(spec, r));
                    return r;
                };
                LoadRun.builder().sender(recording).workload(sessions).listener(delivered::add)
                        .clock(RunClock.system()).step(ClosedLoopStep.builder().concurrency(1).maxRequests(6).build())
                        .build().run();
            }
        }
        List<Exchanged> turns = seen.stream().sorted(Comparator.comparingLong(e -> e.record().id())).toList();
        assertThat(turns).hasSize(6);
        assertThat(turns).allSatisfy(e -> assertThat(e.record().isOk()).isTrue());
        // One user, 3 turns per session: requests 0-2 are session 0, 3-5 session 1.
        assertThat(turns).extracting(e -> e.spec().chatMessages().size()).containsExactly(1, 3, 5, 1, 3, 5);
        for (int i = 0; i < turns.size(); i++) {
            int turn = i % 3;
            List<RequestSpec.ChatMessage> msgs = turns.get(i).spec().chatMessages();
            for (int k = 0; k < turn; k++) {
                // The assistant message of turn k is the text the server streamed for request (i - turn + k).
                String answer = turns.get(i - turn + k).record().response().responseText();
                assertThat(answer).isNotBlank();
                assertThat(msgs.get(2 * k + 1)).isEqualTo(new RequestSpec.ChatMessage("assistant", answer));
            }
            if (turn > 0) {
                RequestRecord prev = turns.get(i - 1).record();
                RequestRecord cur = turns.get(i).record();
                assertThat(cur.timing().dispatchNanos()).isGreaterThanOrEqualTo(prev.timing().endNanos());
                // The server's prompt count grows by the new user message and the previous answer (32 tokens: without
                // it the growth would be about 16 + template overhead, far below the lower bound); the chat template
                // adds a few tokens per message and the answer's text may re-tokenize a token or two differently,
                // hence the slack of 2 below and +16 above.
                int growth = cur.tokens().promptTokens() - prev.tokens().promptTokens();
                int prevOut = prev.tokens().outputTokens();
                assertThat(growth).isBetween(USER_TOKENS + prevOut - 2, USER_TOKENS + prevOut + 16);
            }
            // The text is kept only when another turn follows.
            assertThat(turns.get(i).record().response().responseText() == null).isEqualTo(turn == 2);
        }
        assertThat(delivered).hasSize(6).allSatisfy(r -> assertThat(r.response().responseText()).isNull());
    }
}
