package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** KV exhaustion over HTTP: requests queue and get preempted, and /metrics shows it. */
class KvPressureHttpTest {

    static double metric(String text, String name) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "\\{[^}]*\\} (\\S+)$").matcher(text);
        if (!m.find()) {
            throw new AssertionError("no " + name);
        }
        return Double.parseDouble(m.group(1));
    }

    @Test
    void kvExhaustionShowsAsWaitingAndPreemptionsInMetrics() throws Exception {
        SimConfig c = SimConfig.presetBuilder("fast").maxModelLen(512).kvCapacityTokens(1024).prefixCaching(false)
                .build();
        String prompt = String.join(" ", java.util.Collections.nCopies(200, "word"));
        String body = "{\"prompt\":\"" + prompt + "\",\"max_tokens\":250,\"ignore_eos\":true,\"stream\":true}";
        try (Simulator s = Simulator.start(c); ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor();
             HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            List<Future<RawSse.Result>> fs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                fs.add(pool.submit(() -> RawSse.post(s.port(), "/v1/completions", body)));
            }
            double maxWaiting = 0;
            double maxKv = 0;
            while (!fs.stream().allMatch(Future::isDone)) {
                String m = http.send(HttpRequest.newBuilder(URI.create(s.url() + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                maxWaiting = Math.max(maxWaiting, metric(m, "vllm:num_requests_waiting"));
                maxKv = Math.max(maxKv, metric(m, "vllm:kv_cache_usage_perc"));
                Thread.sleep(5);
            }
            for (Future<RawSse.Result> f : fs) {
                assertThat(f.get().done()).isTrue();
                assertThat(f.get().events()).hasSize(250 + 2);
            }
            String m = s.metricsText();
            // 64 blocks of 16 hold 4 prompts of 200 tokens: 4 requests wait although 60 slots are free
            assertThat(maxWaiting).isGreaterThanOrEqualTo(3);
            assertThat(maxKv).isGreaterThan(0.8);
            assertThat(metric(m, "vllm:num_preemptions_total")).isPositive();
            assertThat(metric(m, "vllm:generation_tokens_total")).isEqualTo(8 * 250);
            assertThat(s.stats().preemptions()).isPositive();
        }
    }
}
