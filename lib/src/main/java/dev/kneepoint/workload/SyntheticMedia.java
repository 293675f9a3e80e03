package dev.kneepoint.workload;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.zip.Adler32;
import java.util.zip.CRC32;

/**
 * Deterministic synthetic media, different for every seed (so a server's multimodal cache cannot answer one request
 * from another's): PNG images of seeded noise (RGB, uncompressed deflate: the bytes are as many as a photo's; a
 * 512×512 one and its base64 cost 2.2 ms of the request thread, docs/PERFORMANCE.md) and WAV clips of a seeded tone
 * (16 kHz mono, 16-bit).
 */
final class SyntheticMedia {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    /** Samples per second of the WAV clips. */
    static final int SAMPLE_RATE = 16_000;

    private SyntheticMedia() {
    }

    /** A {@code width}×{@code height} PNG of noise drawn from {@code seed}. */
    static byte[] png(int width, int height, long seed) {
        int row = 1 + 3 * width;
        byte[] raw = new byte[row * height];
        SplittableRandom random = new SplittableRandom(seed);
        for (int y = 0; y < height; y++) {
            raw[y * row] = 0; // filter: none
            for (int x = 1; x < row; x += 8) {
                long bits = random.nextLong();
                for (int b = 0; b < 8 && x + b < row; b++) {
                    raw[y * row + x + b] = (byte) (bits >>> (8 * b));
                }
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length + raw.length / 65_535 * 5 + 64);
        out.writeBytes(PNG_SIGNATURE);
        ByteBuffer ihdr = ByteBuffer.allocate(13).putInt(width).putInt(height).put((byte) 8).put((byte) 2)
                .put((byte) 0).put((byte) 0).put((byte) 0);
        chunk(out, "IHDR", ihdr.array());
        chunk(out, "IDAT", storedZlib(raw));
        chunk(out, "IEND", new byte[0]);
        return out.toByteArray();
    }

    /** A WAV clip of {@code seconds} of a tone whose pitch is drawn from {@code seed}. */
    static byte[] wav(double seconds, long seed) {
        int samples = (int) Math.round(seconds * SAMPLE_RATE);
        double hz = 200 + new SplittableRandom(seed).nextInt(800);
        ByteBuffer b = ByteBuffer.allocate(44 + 2 * samples).order(ByteOrder.LITTLE_ENDIAN);
        b.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(36 + 2 * samples)
                .put("WAVEfmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16).putShort((short) 1).putShort((short) 1)
                .putInt(SAMPLE_RATE).putInt(2 * SAMPLE_RATE).putShort((short) 2).putShort((short) 16)
                .put("data".getBytes(StandardCharsets.US_ASCII)).putInt(2 * samples);
        for (int i = 0; i < samples; i++) {
            b.putShort((short) (8000 * Math.sin(2 * Math.PI * hz * i / SAMPLE_RATE)));
        }
        return b.array();
    }

    /** zlib framing of {@code data} in stored (uncompressed) deflate blocks. */
    private static byte[] storedZlib(byte[] data) {
        ByteArrayOutputStream z = new ByteArrayOutputStream(data.length + data.length / 65_535 * 5 + 16);
        z.write(0x78);
        z.write(0x01);
        for (int off = 0; off < data.length || off == 0; ) {
            int n = Math.min(65_535, data.length - off);
            boolean last = off + n >= data.length;
            z.write(last ? 1 : 0);
            z.write(n & 0xff);
            z.write(n >>> 8);
            z.write(~n & 0xff);
            z.write((~n >>> 8) & 0xff);
            z.write(data, off, n);
            off += n;
            if (last) {
                break;
            }
        }
        Adler32 adler = new Adler32();
        adler.update(data);
        z.writeBytes(ByteBuffer.allocate(4).putInt((int) adler.getValue()).array());
        return z.toByteArray();
    }

    private static void chunk(ByteArrayOutputStream out, String type, byte[] data) {
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        out.writeBytes(ByteBuffer.allocate(4).putInt(data.length).array());
        out.writeBytes(t);
        out.writeBytes(data);
        CRC32 crc = new CRC32();
        crc.update(t);
        crc.update(data);
        out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }
}
