package dev.kneepoint.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TestRecords;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The eight-bytes-at-a-time line splitting and number parsing against plain byte-by-byte loops. */
class FastParsingTest {

    @Test
    void newlineFindsTheFirstNewlineLikeAPlainLoop() {
        SplittableRandom rnd = new SplittableRandom(3);
        for (int round = 0; round < 2_000; round++) {
            byte[] buf = new byte[1 + rnd.nextInt(40)];
            for (int i = 0; i < buf.length; i++) {
                // Mostly bytes next to '\n' (0x09, 0x0b) and high bytes, where a borrow could mislead the trick.
                int pick = rnd.nextInt(6);
                buf[i] = (byte) (pick == 0 ? '\n' : pick == 1 ? 0x0b : pick == 2 ? 0x09 : pick == 3 ? 0x8a : rnd.nextInt(256));
            }
            int from = rnd.nextInt(buf.length);
            int to = from + rnd.nextInt(buf.length - from + 1);
            int expected = from;
            while (expected < to && buf[expected] != '\n') {
                expected++;
            }
            assertThat(RequestLines.newline(buf, from, to)).as("round %d", round).isEqualTo(expected);
        }
    }

    @Test
    void eightDigitsIsTheDecimalValue() {
        SplittableRandom rnd = new SplittableRandom(5);
        for (int round = 0; round < 10_000; round++) {
            long value = round < 3 ? new long[] {0, 99_999_999, 10_000_000}[round] : rnd.nextLong(100_000_000);
            String s = String.format(java.util.Locale.ROOT, "%08d", value); // ASCII digits whatever the default locale
            long digits = 0;
            for (int i = 7; i >= 0; i--) {
                digits = digits << 8 | (s.charAt(i) - '0'); // the first digit in the lowest byte
            }
            assertThat(CanonicalRequestParser.eightDigits(digits)).isEqualTo(value);
        }
    }

    @Test
    void theFastPathReadsEveryNumberLengthAsJacksonDoes() throws Exception {
        RequestParser parser = new RequestParser();
        CanonicalRequestParser canonical = new CanonicalRequestParser();
        long[] values = {0, 1, 9, 10, 12_345_678, 99_999_999, 100_000_000, 123_456_789_012L, 1_234_567_890_123_456L,
            99_999_999_999_999_999L, 123_456_789_012_345_678L};
        for (long v : values) {
            RequestRecord.Builder b = TestRecords.ok(v, "c=1", 0, 0, new double[] {1, 2}, new int[] {1, 1});
            b.id = v;
            b.chunkNanos = new long[] {v, v + 7};
            b.endNanos = v;
            b.promptTokens = (int) Math.min(Integer.MAX_VALUE, v);
            RequestRecord r = b.build();
            byte[] line = line(r);
            assertThat(canonical.parse(line, 0, line.length)).as("%d", v).isEqualTo(r);
            assertThat(parser.parseGeneral(line, 0, line.length)).isEqualTo(r);
        }
        // 19 digits may overflow a long: the fast path leaves it to Jackson, which reads it exactly.
        RequestRecord big = TestRecords.failed(1_234_567_890_123_456_789L, "c=1", 0, 1, Outcome.CANCELLED);
        byte[] line = line(big);
        assertThat(canonical.parse(line, 0, line.length)).isNull();
        assertThat(parser.parse(line, 0, line.length)).isEqualTo(big);
        // A digit run that the line's end cuts short is not read past the end.
        byte[] cut = (new String(line(TestRecords.failed(12_345_678_901L, "c=1", 0, 1, Outcome.CANCELLED)),
                StandardCharsets.UTF_8).substring(0, 12) + "99999999").getBytes(StandardCharsets.UTF_8);
        assertThat(canonical.parse(cut, 0, 12)).isNull();
    }

    @Test
    void theFastPathReadsNumbersOfEveryLengthAndEndingAsJacksonDoes() throws Exception {
        RequestParser parser = new RequestParser();
        CanonicalRequestParser canonical = new CanonicalRequestParser();
        SplittableRandom rnd = new SplittableRandom(11);
        for (int round = 0; round < 3_000; round++) {
            int chunks = rnd.nextInt(6);
            long[] nanos = new long[chunks];
            int[] tokens = new int[chunks];
            for (int i = 0; i < chunks; i++) {
                nanos[i] = digits(rnd, 1 + rnd.nextInt(18)); // 1-18 digits, then ',' or ']'
                tokens[i] = (int) digits(rnd, 1 + rnd.nextInt(9));
            }
            RequestRecord.Builder b = TestRecords.ok(digits(rnd, 1 + rnd.nextInt(18)), "c=1", 0, 0, new double[] {},
                    new int[] {});
            b.chunkNanos = nanos;
            b.chunkTokens = tokens;
            b.intendedNanos = rnd.nextBoolean() ? -1 : digits(rnd, 1 + rnd.nextInt(18));
            b.endNanos = -digits(rnd, 1 + rnd.nextInt(18));
            b.outputTokens = (int) digits(rnd, 1 + rnd.nextInt(9));
            RequestRecord r = b.build();
            byte[] line = line(r);
            assertThat(canonical.parse(line, 0, line.length)).as("round %d", round).isEqualTo(r)
                    .isEqualTo(parser.parseGeneral(line, 0, line.length));
            for (int cut = 0; cut < line.length; cut += 1 + rnd.nextInt(40)) { // a line's end in any number
                assertThat(canonical.parse(line, 0, cut)).isNull();
            }
        }
    }

    /** A random number of exactly {@code n} digits (one digit: 0-9). */
    private static long digits(SplittableRandom rnd, int n) {
        long low = n == 1 ? 0 : (long) Math.pow(10, n - 1);
        return low + rnd.nextLong((long) Math.pow(10, n) - low);
    }

    @Test
    void aRetriedRecordKeepsItsFlagOnEveryReadPathAndOthersKeepTheCompactForm() throws Exception {
        RequestParser parser = new RequestParser();
        CanonicalRequestParser canonical = new CanonicalRequestParser();
        RequestRecord.Builder b = TestRecords.ok(3, "c=1", 0, 0, new double[] {1, 2}, new int[] {1, 1});
        RequestRecord plain = b.build();
        b.retried = true;
        RequestRecord retried = b.build();
        assertThat(retried).isNotEqualTo(plain);
        byte[] plainLine = line(plain);
        byte[] retriedLine = line(retried);
        assertThat(new String(plainLine, StandardCharsets.UTF_8)).doesNotContain("retried");
        assertThat(new String(retriedLine, StandardCharsets.UTF_8)).contains("\"retried\":true");
        assertThat(canonical.parse(plainLine, 0, plainLine.length)).isEqualTo(plain);
        // the rare retried line leaves the fast path to Jackson, which reads the flag
        assertThat(canonical.parse(retriedLine, 0, retriedLine.length)).isNull();
        assertThat(parser.parse(retriedLine, 0, retriedLine.length)).isEqualTo(retried);
        assertThat(parser.parse(retriedLine, 0, retriedLine.length).response().retried()).isTrue();
        assertThat(RequestJson.read(Json.MAPPER.readTree(retriedLine)).response().retried()).isTrue();
        assertThat(RequestJson.read(Json.MAPPER.readTree(plainLine)).response().retried()).isFalse();
    }

    private static byte[] line(RequestRecord r) throws Exception {
        StringWriter w = new StringWriter();
        try (var g = Json.MAPPER.getFactory().createGenerator(w)) {
            RequestJson.write(g, r);
        }
        return w.toString().getBytes(StandardCharsets.UTF_8);
    }
}
