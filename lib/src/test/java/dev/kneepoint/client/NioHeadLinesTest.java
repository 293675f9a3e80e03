package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link NioConnection#headLines} must split a header block exactly as {@code split("\r?\n")} did. */
class NioHeadLinesTest {
    @Test
    void agreesWithRegexSplitOnRandomBlocks() {
        SplittableRandom rnd = new SplittableRandom(11);
        String alphabet = "ab:\r\n ";
        for (int k = 0; k < 50_000; k++) {
            StringBuilder b = new StringBuilder();
            int len = rnd.nextInt(14);
            for (int i = 0; i < len; i++) {
                b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            String s = b.toString();
            assertThat(NioConnection.headLines(s)).as("'%s'", s.replace("\r", "\\r").replace("\n", "\\n"))
                    .containsExactly(s.split("\r?\n"));
        }
    }

    @Test
    void aResponseHead() {
        assertThat(NioConnection.headLines("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"))
                .containsExactly("HTTP/1.1 200 OK", "Content-Type: text/event-stream");
        assertThat(NioConnection.headLines("HTTP/1.0 200 OK\nA: b\n")).containsExactly("HTTP/1.0 200 OK", "A: b");
    }
}
