package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import org.junit.jupiter.api.Test;

class MixWorkloadTest {
    @Test
    void weightsAreHonouredAndTagsSeparateTheClasses() {
        Workload chat = Workloads.synthetic().inputTokens(50).salt(1).build();
        Workload rag = Workloads.sharedPrefix(100, 2).inputTokens(300).salt(1).tag("rag").build();
        MixWorkload mix = Workloads.mix().add(0.8, "chat", chat).add(0.2, rag).seed(3).build();
        int n = 10_000;
        int rags = 0;
        for (int i = 0; i < n; i++) {
            RequestSpec s = mix.next(i);
            if (s.tag().equals("rag")) {
                rags++;
                assertThat(s.requestedPromptTokens()).isEqualTo(300);
            } else {
                assertThat(s.tag()).isEqualTo("chat");
                assertThat(s.requestedPromptTokens()).isEqualTo(50);
            }
        }
        // binomial p = 0.2, n = 10,000: standard error 0.004; 4 standard errors
        assertThat(rags / (double) n).isBetween(0.184, 0.216);
        assertThat(mix.next(17)).isEqualTo(mix.next(17));
        assertThat(mix.describe()).containsEntry("kind", "mix");
    }

    @Test
    void invalidMixListsEveryProblem() {
        assertThatThrownBy(() -> Workloads.mix().add(-1, i -> RequestSpec.of("x", 1)).add(0, null).build())
                .hasMessageContaining("3 problems").hasMessageContaining("component 0").hasMessageContaining("component 1");
    }
}
