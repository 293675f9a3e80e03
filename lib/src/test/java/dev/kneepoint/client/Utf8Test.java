package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class Utf8Test {
    private static String ok(String text) {
        byte[] b = ("##" + text + "##").getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder("pre:");
        assertThat(Utf8.decode(b, 2, b.length - 4, out)).isEqualTo(-1);
        return out.toString();
    }

    @Test
    void shortAndLongAsciiRunsMixedWithMultiByteText() {
        String longAscii = "{\"choices\":[{\"delta\":{\"content\":\"x\"}}]}";
        assertThat(ok("ab")).isEqualTo("pre:ab");
        assertThat(ok(longAscii)).isEqualTo("pre:" + longAscii);
        String mixed = longAscii + "é漢😀" + longAscii + "ü" + "a".repeat(15) + "ß" + "b".repeat(16);
        assertThat(ok(mixed)).isEqualTo("pre:" + mixed);
    }

    @Test
    void invalidByteAfterALongAsciiRunIsReportedAtItsAbsoluteIndex() {
        byte[] ascii = "0123456789abcdefghij".getBytes(StandardCharsets.US_ASCII); // 20 bytes, a bulk run
        byte[] b = new byte[3 + ascii.length + 2];
        System.arraycopy(ascii, 0, b, 3, ascii.length);
        b[3 + ascii.length] = (byte) 0xFF;
        b[3 + ascii.length + 1] = 'z';
        assertThat(Utf8.decode(b, 3, ascii.length + 2, new StringBuilder())).isEqualTo(3 + ascii.length);
        // a truncated two-byte sequence at the end of the range
        byte[] cut = {'a', (byte) 0xC3};
        assertThat(Utf8.decode(cut, 0, 2, new StringBuilder())).isEqualTo(1);
    }
}
