package dev.kneepoint.sim;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

/**
 * The simulated pooling model's outputs, deterministic from token ids alone (no seed, no model): each token id
 * stands for a pseudo-random direction (a splitmix64 stream seeded by the id, uniform in [-1, 1) per component),
 * an input's embedding is the L2-normalised sum of its tokens' directions, and a relevance score is the cosine of
 * two embeddings mapped to [0, 1]. So the same text gets the same vector on any simulator, texts that share tokens
 * point alike, and a document scores higher against a query the more tokens they share. Stateless.
 */
final class Embedding {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private Embedding() {
    }

    /**
     * The embedding of {@code ids} in {@code size} components; asked for fewer ({@code dimensions}, as a Matryoshka
     * model is), the first {@code dimensions} of them, normalised again, as vLLM's pooler cuts and normalises.
     */
    static float[] of(long[] ids, int size, int dimensions) {
        double[] sum = new double[size];
        for (long id : ids) {
            long state = Sequence.mix(id ^ GOLDEN);
            for (int j = 0; j < size; j++) {
                state += GOLDEN;
                sum[j] += (Sequence.mix(state) >>> 11) * 0x1.0p-52 - 1.0;
            }
        }
        double norm = 0;
        for (int j = 0; j < dimensions; j++) {
            norm += sum[j] * sum[j];
        }
        double scale = norm == 0 ? 0 : 1 / Math.sqrt(norm);
        float[] out = new float[dimensions];
        for (int j = 0; j < dimensions; j++) {
            out[j] = (float) (sum[j] * scale);
        }
        return out;
    }

    /** A cross-encoder's relevance of {@code document} to {@code query}: {@code (1 + cos) / 2}, in [0, 1]. */
    static double relevance(long[] query, long[] document, int size) {
        float[] q = of(query, size, size);
        float[] d = of(document, size, size);
        double dot = 0;
        for (int j = 0; j < size; j++) {
            dot += (double) q[j] * d[j];
        }
        return Math.max(0, Math.min(1, (1 + dot) / 2));
    }

    /** OpenAI's {@code encoding_format: "base64"}: the float32 values, little-endian, in standard base64. */
    static String base64(float[] v) {
        ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : v) {
            b.putFloat(f);
        }
        return Base64.getEncoder().encodeToString(b.array());
    }
}
