package dev.kneepoint.client;

/** Strict, allocation-free UTF-8 decoding into a {@link StringBuilder}. */
final class Utf8 {
    private Utf8() {
    }

    /**
     * Appends the decoded text of {@code b[off, off+len)} to {@code out}.
     *
     * @return -1 when the bytes are valid UTF-8, else the index of the first offending byte
     *         ({@code out} then holds a partial decode and should be discarded)
     */
    static int decode(byte[] b, int off, int len, StringBuilder out) {
        int end = off + len;
        int i = off;
        while (i < end) {
            int c = b[i];
            if (c >= 0) {
                out.append((char) c);
                i++;
                continue;
            }
            c &= 0xff;
            int need;
            int cp;
            int min;
            if (c >= 0xc2 && c <= 0xdf) {
                need = 1;
                cp = c & 0x1f;
                min = 0x80;
            } else if (c >= 0xe0 && c <= 0xef) {
                need = 2;
                cp = c & 0x0f;
                min = 0x800;
            } else if (c >= 0xf0 && c <= 0xf4) {
                need = 3;
                cp = c & 0x07;
                min = 0x10000;
            } else {
                return i;
            }
            if (i + need >= end) {
                return i;
            }
            for (int k = 1; k <= need; k++) {
                int cc = b[i + k] & 0xff;
                if ((cc & 0xc0) != 0x80) {
                    return i;
                }
                cp = (cp << 6) | (cc & 0x3f);
            }
            if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
                return i;
            }
            out.appendCodePoint(cp);
            i += need + 1;
        }
        return -1;
    }
}
