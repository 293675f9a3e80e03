package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.workload.MediaInputs;
import picocli.CommandLine.Option;

/** Images and audio on every request ({@link MediaInputs}): {@code --images N [--image-size WxH]}, {@code --audio N}. */
final class MediaOptions {
    @Option(names = "--images", paramLabel = "N", description = "Attach N synthetic PNG images to every request's "
            + "last message (each request's its own, the same in every rerun of a seed); chat-like APIs only")
    Integer images;

    @Option(names = "--image-size", paramLabel = "WxH", description = "Size of the --images, in pixels "
            + "(default: " + MediaInputs.DEFAULT_SIZE + ")")
    String imageSize;

    @Option(names = "--audio", paramLabel = "N", description = "Attach N synthetic WAV clips (16 kHz) to every "
            + "request's last message, as input_audio; the chat API only")
    Integer audio;

    @Option(names = "--audio-seconds", paramLabel = "S", description = "Length of each --audio clip, s (default: "
            + MediaInputs.DEFAULT_AUDIO_SECONDS + ")")
    Double audioSeconds;

    /** {@code sweep} with these media, when asked; returns it. */
    Sweep applyTo(Sweep sweep) {
        if (images == null && audio == null) {
            if (imageSize != null || audioSeconds != null) {
                throw new IllegalArgumentException((imageSize != null ? "--image-size applies with --images"
                        : "--audio-seconds applies with --audio") + " only: add it");
            }
            return sweep;
        }
        int[] size = MediaInputs.size(imageSize == null ? MediaInputs.DEFAULT_SIZE : imageSize);
        return sweep.media(new MediaInputs(images == null ? 0 : images, size[0], size[1], audio == null ? 0 : audio,
                audioSeconds == null ? MediaInputs.DEFAULT_AUDIO_SECONDS : audioSeconds, 0)); // the sweep's seed
    }
}
