package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Fields#split} must return exactly what the regex split it replaced returned, for every input. */
class FieldsTest {
    @Test
    void agreesWithRegexSplitOnRandomLines() {
        SplittableRandom rnd = new SplittableRandom(7);
        String alphabet = "ab \t\n\r\u000B\f1.#"; // separators of both sets, mixed with field characters
        for (int k = 0; k < 20_000; k++) {
            StringBuilder b = new StringBuilder();
            int len = rnd.nextInt(12);
            for (int i = 0; i < len; i++) {
                b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
            }
            String s = b.toString();
            for (int limit : new int[] {0, 1, 2, 3, -1}) {
                assertThat(Fields.split(s, Fields.BLANKS, limit)).as("[ \\t]+ limit %d on '%s'", limit, s)
                        .containsExactly(s.split("[ \t]+", limit));
                assertThat(Fields.split(s, Fields.WHITESPACE, limit)).as("\\s+ limit %d on '%s'", limit, s)
                        .containsExactly(s.split("\\s+", limit));
            }
        }
    }

    @Test
    void namedCases() {
        assertThat(Fields.split("HELP vllm:x Number of  requests", Fields.BLANKS, 3))
                .containsExactly("HELP", "vllm:x", "Number of  requests"); // the rest keeps its inner blanks
        assertThat(Fields.split("1.5\t1700000000000", Fields.BLANKS, 0)).containsExactly("1.5", "1700000000000");
        assertThat(Fields.split("", Fields.BLANKS, 0)).containsExactly("");
        assertThat(Fields.split("  ", Fields.BLANKS, 0)).isEmpty();
        assertThat(Fields.split(" a", Fields.BLANKS, 0)).containsExactly("", "a");
    }
}
