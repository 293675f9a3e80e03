package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.request.RequestSpec;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

/** Synthetic images and audio on every request: valid files of the asked size, each request's own, reproducible. */
class MediaInputsTest {
    private static final RequestSpec CHAT = new RequestSpec("", List.of(new RequestSpec.ChatMessage("system", "s"),
            new RequestSpec.ChatMessage("user", "describe it")), 16, 40, java.util.Map.of(), "fg");

    @Test
    void theImagesAreRealPngsOfTheAskedSizeAndEachRequestsOwn() throws Exception {
        MediaInputs m = MediaInputs.images(2, 64, 48).withAudio(1, 0.5);
        RequestSpec a = m.attach(0, CHAT);
        RequestSpec again = m.attach(0, CHAT);
        RequestSpec b = m.attach(1, CHAT);
        RequestSpec.ChatMessage last = a.messages().getLast();
        assertThat(last.content()).isEqualTo("describe it");
        assertThat(last.media()).extracting(RequestSpec.Media::mimeType).containsExactly("image/png", "image/png",
                "audio/wav");
        assertThat(a.messages().getFirst().media()).isEmpty(); // the system prompt stays text
        assertThat(a.requestedPromptTokens()).as("the media's tokens are the server's to count").isEqualTo(-1);
        assertThat(a.hasMedia()).isTrue();
        // a PNG decoder reads them, at the asked size
        for (int i = 0; i < 2; i++) {
            BufferedImage img = ImageIO.read(new ByteArrayInputStream(Base64.getDecoder().decode(last.media().get(i).base64())));
            assertThat(img.getWidth()).isEqualTo(64);
            assertThat(img.getHeight()).isEqualTo(48);
        }
        assertThat(last.media().get(0)).isNotEqualTo(last.media().get(1));
        assertThat(a.messages()).isEqualTo(again.messages()); // reproducible
        assertThat(b.messages().getLast().media().get(0)).isNotEqualTo(last.media().get(0)); // each request's own
        // the WAV: 16 kHz mono 16-bit, 0.5 s of samples
        ByteBuffer wav = ByteBuffer.wrap(Base64.getDecoder().decode(last.media().get(2).base64()))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertThat(wav.getInt(24)).isEqualTo(16_000);
        assertThat(wav.getInt(40)).isEqualTo(16_000);
        assertThat(m.describe()).containsEntry("image_size", "64x48").containsEntry("audio_clips", 1);
    }

    @Test
    void badSettingsAreNamed() {
        assertThatThrownBy(() -> MediaInputs.images(0, 10, 10)).hasMessageContaining("no media");
        assertThatThrownBy(() -> MediaInputs.images(1, 0, 10)).hasMessageContaining("sides must be 1 to 4096 px");
        assertThatThrownBy(() -> MediaInputs.audio(1, 0)).hasMessageContaining("more than 0 and at most 600 s");
        assertThatThrownBy(() -> MediaInputs.size("512")).hasMessageContaining("WIDTHxHEIGHT");
        assertThat(MediaInputs.size("640x480")).containsExactly(640, 480);
    }
}
