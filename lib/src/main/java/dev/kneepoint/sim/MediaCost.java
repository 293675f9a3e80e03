package dev.kneepoint.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

/**
 * What an image or an audio clip of a chat message costs in prompt tokens, as a vision or audio encoder's output
 * would: an image of w×h pixels is {@code ceil(w/28)·ceil(h/28)} tokens (14-pixel patches merged 2×2, as Qwen2-VL's),
 * an audio clip {@code ceil(25·seconds)} (one per 40 ms, as Qwen2-Audio's). The token ids are drawn from the media's
 * bytes, so the same image is the same tokens (and a prefix-cache hit) and different ones are not. Reads the parts of
 * OpenAI chat ({@code image_url} data URLs, {@code input_audio}), the Responses API ({@code input_image}), the
 * Messages API ({@code image} with a base64 {@code source}) and Ollama's {@code images}; PNG sizes from the IHDR
 * chunk, JPEG from its frame header, WAV lengths from its header. Media it cannot read are 400s.
 */
final class MediaCost {
    /** Pixels per token along each side. */
    static final int PATCH = 28;
    /** Audio tokens per second. */
    static final int AUDIO_PER_S = 25;

    private MediaCost() {
    }

    /** The base64 data of a content part that carries media, or null for a text part. */
    static String data(JsonNode part) {
        JsonNode url = part.path("image_url");
        String u = url.isTextual() ? url.asText() : url.path("url").asText(null);
        if (u != null) {
            int comma = u.indexOf(',');
            if (!u.startsWith("data:") || comma < 0) {
                throw new IllegalArgumentException("the simulator reads images given as data: URLs only");
            }
            return u.substring(comma + 1);
        }
        if (part.path("source").has("data")) {
            return part.path("source").path("data").asText();
        }
        if (part.path("input_audio").has("data")) {
            return part.path("input_audio").path("data").asText();
        }
        return null;
    }

    /** The prompt token ids of one medium given as base64. */
    static long[] tokens(String base64) {
        byte[] b;
        try {
            b = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("media data is not base64: " + e.getMessage());
        }
        int n = count(b);
        long h = Sequence.mix(java.util.Arrays.hashCode(b) ^ ((long) b.length << 32));
        long[] ids = new long[n];
        for (int i = 0; i < n; i++) {
            ids[i] = 1_000_000 + (Sequence.mix(h + i) >>> 40);
        }
        return ids;
    }

    private static int count(byte[] b) {
        ByteBuffer big = ByteBuffer.wrap(b);
        if (b.length >= 24 && (b[0] & 0xff) == 0x89 && b[1] == 'P' && b[12] == 'I' && b[13] == 'H') {
            return image(big.getInt(16), big.getInt(20));
        }
        if (b.length >= 4 && (b[0] & 0xff) == 0xff && (b[1] & 0xff) == 0xd8) {
            for (int i = 2; i + 9 < b.length; ) {
                int marker = b[i + 1] & 0xff;
                int len = big.getShort(i + 2) & 0xffff;
                if (marker >= 0xc0 && marker <= 0xc3) {
                    return image(big.getShort(i + 7) & 0xffff, big.getShort(i + 5) & 0xffff);
                }
                i += 2 + len;
            }
        }
        if (b.length >= 44 && b[0] == 'R' && b[1] == 'I' && b[8] == 'W' && b[9] == 'A') {
            ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            int channels = le.getShort(22);
            int rate = le.getInt(24);
            int bits = le.getShort(34);
            double seconds = le.getInt(40) / (double) Math.max(1, rate * channels * bits / 8);
            return (int) Math.ceil(AUDIO_PER_S * seconds);
        }
        throw new IllegalArgumentException("the simulator reads PNG, JPEG and WAV media; this one is none of them");
    }

    private static int image(int width, int height) {
        if (width < 1 || height < 1) {
            throw new IllegalArgumentException("an image of " + width + "x" + height + " pixels");
        }
        return ((width + PATCH - 1) / PATCH) * ((height + PATCH - 1) / PATCH);
    }
}
