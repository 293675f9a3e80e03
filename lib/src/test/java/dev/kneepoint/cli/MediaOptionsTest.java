package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.io.RunLoader;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kneepoint run --images N --image-size WxH}, {@code --audio N}: multimodal requests, and the errors. */
class MediaOptionsTest {
    @TempDir
    Path out;

    @Test
    void runSendsImagesWhosePromptTokensTheServerCounts() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "2", "--max-requests", "4", "--warmup", "0s", "--input-tokens", "32",
                    "--output-tokens", "4", "--images", "1", "--image-size", "56x84", "--no-telemetry",
                    "--no-client-warmup", "--out", out.toString(), "--name", "vision"), System.out, 0);
            assertThat(printed).contains("with 1 image of 56x84 per request");
            Path dir;
            try (Stream<Path> l = Files.list(out)) {
                dir = l.filter(Files::isDirectory).findFirst().orElseThrow();
            }
            // the prompt calibrated to 32 tokens of text, plus the image's 2 x 3 patches of 28 px
            assertThat(RunLoader.load(dir).records()).hasSize(4).allSatisfy(r -> {
                assertThat(r.isOk()).isTrue();
                assertThat(r.tokens().promptTokens()).isEqualTo(38);
            });
        }
    }

    @Test
    void aPlainPromptApiOrAudioBeyondChatIsRefused() throws Exception {
        String completions = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--api", "completions", "--images", "1", "--out", out.toString()), System.err, 2);
        assertThat(completions).contains("media ride on chat messages");
        String audio = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--api", "messages", "--audio", "1", "--out", out.toString()), System.err, 2);
        assertThat(audio).contains("audio is sent as OpenAI chat's input_audio");
        String size = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--images", "1", "--image-size", "big", "--out", out.toString()), System.err, 2);
        assertThat(size).contains("an image size is WIDTHxHEIGHT in pixels");
    }
}
