package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kneepoint run --response-format json|json-schema[:FILE]}: JSON answers, checked; and the errors. */
class ResponseFormatOptionTest {
    @TempDir
    Path out;

    @Test
    void runAsksForJsonAndSaysWhenAnswersAreNotIt() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            // ignore_eos (the default) runs every answer to max_tokens: each ends mid-JSON, and the text says so
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "2", "--max-requests", "6", "--warmup", "0s", "--output-tokens", "8",
                    "--response-format", "json", "--no-telemetry", "--no-client-warmup", "--out", out.toString(),
                    "--name", "json"), System.out, 0);
            assertThat(printed).contains("answers asked as JSON (json_object; each checked)");
            assertThat(printed).contains("6 of 6 answers in c=2 were not the JSON asked for");
            String room = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "2", "--max-requests", "6", "--warmup", "0s", "--output-tokens", "64",
                    "--no-ignore-eos", "--response-format", "json-schema", "--no-telemetry", "--no-client-warmup",
                    "--out", out.toString(), "--name", "schema"), System.out, 0);
            assertThat(room).contains("answers asked as JSON (json_schema, schema builtin; each checked)")
                    .doesNotContain("were not the JSON asked for");
        }
    }

    @Test
    void anUnknownFormatOrAnApiWithoutItIsRefused() throws Exception {
        String bad = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--response-format", "xml", "--out", out.toString()), System.err, 2);
        assertThat(bad).contains("response format 'xml' is none of json, json-schema, json-schema:FILE");
        String api = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--api", "tgi", "--response-format", "json", "--out", out.toString()),
                System.err, 2);
        assertThat(api).contains("structured output is asked with response_format");
    }
}
