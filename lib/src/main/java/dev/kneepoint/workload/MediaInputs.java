package dev.kneepoint.workload;

import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Images and audio on every request (multimodal inputs): {@code images} synthetic PNGs of {@code width}×{@code height}
 * and {@code audioClips} WAV clips of {@code audioSeconds}, attached to each request's last message. Every request's
 * media are its own, drawn from the seed and the request's index ({@link SyntheticMedia}), so a server's multimodal
 * cache cannot serve one from another and a rerun sends the same bytes. The media's prompt tokens are the server's to
 * count (its usage says them); the request's requested prompt length becomes unknown.
 *
 * <pre>{@code
 * Workload vision = MediaInputs.images(2, 512, 512).applyTo(Workloads.synthetic().build());
 * }</pre>
 *
 * @param images       images per request (0: none)
 * @param width        each image's width, px
 * @param height       each image's height, px
 * @param audioClips   audio clips per request (0: none)
 * @param audioSeconds each clip's length, s
 * @param seed         what the media are drawn from, with each request's index
 */
public record MediaInputs(int images, int width, int height, int audioClips, double audioSeconds, long seed) {
    /** The most media of one kind per request, and the largest image side, px. */
    static final int MAX_COUNT = 16;
    static final int MAX_SIDE = 4096;
    /** The command line's defaults: an image's size and an audio clip's length, s. */
    public static final String DEFAULT_SIZE = "512x512";
    public static final double DEFAULT_AUDIO_SECONDS = 5;

    public MediaInputs {
        List<String> problems = new ArrayList<>();
        if (images < 0 || images > MAX_COUNT || audioClips < 0 || audioClips > MAX_COUNT) {
            problems.add("images and audio clips per request must be 0 to " + MAX_COUNT + ", got " + images + " and "
                    + audioClips);
        }
        if (images > 0 && (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)) {
            problems.add("an image's sides must be 1 to " + MAX_SIDE + " px, got " + width + "x" + height);
        }
        if (audioClips > 0 && !(audioSeconds > 0 && audioSeconds <= 600)) {
            problems.add("an audio clip must last more than 0 and at most 600 s, got " + audioSeconds);
        }
        if (images == 0 && audioClips == 0) {
            problems.add("no media: give images or audio clips per request");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("media: " + String.join("; ", problems));
        }
    }

    /** {@code count} images of {@code width}×{@code height} per request, no audio. */
    public static MediaInputs images(int count, int width, int height) {
        return new MediaInputs(count, width, height, 0, 0, 42);
    }

    /** {@code count} audio clips of {@code seconds} per request, no image. */
    public static MediaInputs audio(int count, double seconds) {
        return new MediaInputs(0, 0, 0, count, seconds, 42);
    }

    /** The same media, and {@code count} audio clips of {@code seconds}. */
    public MediaInputs withAudio(int count, double seconds) {
        return new MediaInputs(images, width, height, count, seconds, seed);
    }

    /** The same media drawn from {@code newSeed}. */
    public MediaInputs seed(long newSeed) {
        return new MediaInputs(images, width, height, audioClips, audioSeconds, newSeed);
    }

    /**
     * Parses {@code WxH} ({@code 512x512}).
     *
     * @throws IllegalArgumentException naming the form
     */
    public static int[] size(String value) {
        String[] wh = value.strip().toLowerCase(java.util.Locale.ROOT).split("x");
        try {
            if (wh.length == 2) {
                return new int[] {Integer.parseInt(wh[0].strip()), Integer.parseInt(wh[1].strip())};
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("an image size is WIDTHxHEIGHT in pixels, e.g. 512x512; got '" + value + "'");
    }

    /** For a run manifest. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("images", images);
        if (images > 0) {
            m.put("image_size", width + "x" + height);
            m.put("image_format", "png");
        }
        m.put("audio_clips", audioClips);
        if (audioClips > 0) {
            m.put("audio_seconds", audioSeconds);
            m.put("audio_format", "wav");
        }
        m.put("seed", seed);
        return m;
    }

    /** {@code workload} with these media on each request's last message. */
    public Workload applyTo(Workload workload) {
        return EveryRequest.apply(workload, this::attach, "media", describe());
    }

    /** {@code spec} with request {@code index}'s media on its last message. */
    public RequestSpec attach(long index, RequestSpec spec) {
        List<RequestSpec.Media> media = new ArrayList<>(images + audioClips);
        Base64.Encoder b64 = Base64.getEncoder();
        for (int i = 0; i < images; i++) {
            long s = LengthDistribution.mix(seed, index * MAX_COUNT * 2 + i);
            media.add(new RequestSpec.Media("image/png", b64.encodeToString(SyntheticMedia.png(width, height, s))));
        }
        for (int i = 0; i < audioClips; i++) {
            long s = LengthDistribution.mix(seed, index * MAX_COUNT * 2 + MAX_COUNT + i);
            media.add(new RequestSpec.Media("audio/wav", b64.encodeToString(SyntheticMedia.wav(audioSeconds, s))));
        }
        List<RequestSpec.ChatMessage> msgs = new ArrayList<>(spec.chatMessages());
        RequestSpec.ChatMessage last = msgs.removeLast();
        List<RequestSpec.Media> all = new ArrayList<>(last.media());
        all.addAll(media);
        msgs.add(new RequestSpec.ChatMessage(last.role(), last.content(), all));
        return spec.withMessages(msgs, -1);
    }
}
