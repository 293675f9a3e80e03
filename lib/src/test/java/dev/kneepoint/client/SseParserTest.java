package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseParserTest {

    /** Records every callback as a line of text, in order. */
    static final class Rec implements SseParser.Listener {
        final List<String> calls = new ArrayList<>();

        @Override
        public void onEvent(String type, String id, String data) {
            calls.add("event[" + type + "|" + id + "|" + data + "]");
        }

        @Override
        public void onComment(String text) {
            calls.add("comment[" + text + "]");
        }

        @Override
        public void onError(SseParser.ErrorKind kind, String message) {
            calls.add("error[" + kind + "]");
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static Rec parse(byte[]... reads) {
        Rec r = new Rec();
        SseParser p = new SseParser(r);
        for (byte[] read : reads) {
            p.feed(read, 0, read.length);
        }
        if (p.finish()) {
            r.calls.add("partial");
        }
        return r;
    }

    @Test
    void dataWithAndWithoutSpaceAndSeveralEventsPerRead() {
        Rec r = parse(utf8("data: a\n\ndata:b\n\ndata:  c\n\n"));
        // exactly one leading space is dropped
        assertThat(r.calls).containsExactly("event[||a]", "event[||b]", "event[|| c]");
    }

    @Test
    void multiLineDataIsJoinedWithNewline() {
        assertThat(parse(utf8("data: one\ndata: two\ndata:\n\n")).calls).containsExactly("event[||one\ntwo\n]");
    }

    @Test
    void eventAndIdFieldsRetryIgnoredIdPersists() {
        Rec r = parse(utf8("event: delta\nid: 7\nretry: 1000\ndata: x\n\ndata: y\n\n"));
        assertThat(r.calls).containsExactly("event[delta|7|x]", "event[|7|y]");
    }

    @Test
    void commentsAreReportedApart() {
        Rec r = parse(utf8(": ping\n\n:keepalive\ndata: x\n\n"));
        assertThat(r.calls).containsExactly("comment[ping]", "comment[keepalive]", "event[||x]");
    }

    @Test
    void crlfAndCrLineEndings() {
        assertThat(parse(utf8("data: a\r\n\r\ndata: b\r\rdata: c\n\n")).calls)
                .containsExactly("event[||a]", "event[||b]", "event[||c]");
    }

    @Test
    void crAtEndOfReadAndLfAtStartOfNext() {
        // the LF completing the CR must not count as a second (blank) line
        Rec r = parse(utf8("data: a\r"), utf8("\ndata: b\r"), utf8("\n\r"), utf8("\n"));
        assertThat(r.calls).containsExactly("event[||a\nb]");
    }

    @Test
    void fieldWithoutDataDoesNotDispatch() {
        assertThat(parse(utf8("event: x\n\ndata: y\n\n")).calls).containsExactly("event[||y]");
    }

    @Test
    void eventSplitAcrossReadsAndFinishReportsPartial() {
        Rec r = parse(utf8("da"), utf8("ta: hel"), utf8("lo\n"), utf8("\ndata: cut"));
        assertThat(r.calls).containsExactly("event[||hello]", "partial");
        assertThat(parse(utf8("data: done\n\n")).calls).containsExactly("event[||done]");
        assertThat(parse(utf8("data: no blank line\n")).calls).containsExactly("partial");
    }

    @Test
    void identicalEventsForEverySplitPosition() {
        byte[] stream = utf8(": ping\r\nevent: e\r\ndata: {\"a\":\"你好\"}\r\n\r\ndata: x\rdata: 😀y\r\r"
                + "id: 3\ndata: last\n\n");
        List<String> whole = parse(stream).calls;
        assertThat(whole).containsExactly("comment[ping]", "event[e||{\"a\":\"你好\"}]", "event[||x\n😀y]",
                "event[|3|last]");
        for (int i = 0; i <= stream.length; i++) {
            for (int j = i; j <= stream.length; j += 7) {
                List<String> split = parse(Arrays.copyOfRange(stream, 0, i), Arrays.copyOfRange(stream, i, j),
                        Arrays.copyOfRange(stream, j, stream.length)).calls;
                assertThat(split).as("split at %d and %d", i, j).isEqualTo(whole);
            }
        }
    }

    @Test
    void byteByByteFeeding() {
        byte[] stream = utf8("data: 你好 😀\r\n\r\n");
        Rec r = new Rec();
        SseParser p = new SseParser(r);
        for (byte b : stream) {
            p.feed(new byte[] {b}, 0, 1);
        }
        assertThat(p.finish()).isFalse();
        assertThat(r.calls).containsExactly("event[||你好 😀]");
    }

    @Test
    void feedHonoursOffsetAndLength() {
        byte[] buf = utf8("XXdata: a\n\nYY");
        Rec r = new Rec();
        SseParser p = new SseParser(r);
        p.feed(buf, 2, buf.length - 4);
        assertThat(r.calls).containsExactly("event[||a]");
    }

    @Test
    void invalidUtf8IsReportedAndStopsTheParser() {
        byte[] bad = {'d', 'a', 't', 'a', ':', ' ', (byte) 0xC3, (byte) 0x28, '\n', '\n'};
        Rec r = parse(bad, utf8("data: after\n\n"));
        assertThat(r.calls).containsExactly("error[INVALID_UTF8]");
        // a truncated sequence at the end of a line, an overlong encoding and a lone surrogate
        assertThat(parse(new byte[] {'d', 'a', 't', 'a', ':', (byte) 0xE4, (byte) 0xBD, '\n', '\n'}).calls)
                .containsExactly("error[INVALID_UTF8]");
        assertThat(parse(new byte[] {'d', 'a', 't', 'a', ':', (byte) 0xC0, (byte) 0x80, '\n', '\n'}).calls)
                .containsExactly("error[INVALID_UTF8]");
        assertThat(parse(new byte[] {'d', 'a', 't', 'a', ':', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '\n', '\n'})
                .calls).containsExactly("error[INVALID_UTF8]");
    }

    @Test
    void tenMegabyteEventInManyReads() {
        int size = 10_000_000;
        byte[] payload = new byte[size];
        Arrays.fill(payload, (byte) 'x');
        byte[] head = utf8("data: ");
        byte[] tail = utf8("\n\n");
        List<String> datas = new ArrayList<>();
        SseParser p = new SseParser(new SseParser.Listener() {
            @Override
            public void onEvent(String type, String id, String data) {
                datas.add(data);
            }

            @Override
            public void onError(SseParser.ErrorKind kind, String message) {
                datas.add("error " + kind);
            }
        });
        p.feed(head, 0, head.length);
        for (int off = 0; off < size; off += 65536) {
            p.feed(payload, off, Math.min(65536, size - off));
        }
        p.feed(tail, 0, tail.length);
        assertThat(datas).hasSize(1);
        assertThat(datas.get(0)).hasSize(size);
    }

    @Test
    void oversizeEventIsAnErrorWithinOneReadOrAcrossReads() {
        Rec r = new Rec();
        SseParser p = new SseParser(r, 100);
        byte[] big = utf8("data: " + "y".repeat(200) + "\n\n");
        p.feed(big, 0, big.length);
        assertThat(r.calls).containsExactly("error[OVERSIZE]");
        assertThat(p.failed()).isTrue();

        Rec r2 = new Rec();
        SseParser p2 = new SseParser(r2, 100);
        byte[] part = utf8("data: " + "z".repeat(40) + "\n");
        for (int i = 0; i < 5; i++) {
            p2.feed(part, 0, part.length);
        }
        // 5 lines of 47 bytes exceed 100 bytes on the third line although no single line does
        assertThat(r2.calls).containsExactly("error[OVERSIZE]");

        Rec r3 = new Rec();
        SseParser p3 = new SseParser(r3, 100);
        byte[] half = utf8("data: " + "w".repeat(60));
        p3.feed(half, 0, half.length);
        p3.feed(half, 0, half.length);
        assertThat(r3.calls).containsExactly("error[OVERSIZE]");
    }

    @Test
    void eventsUnderTheLimitPassAndTheCountResetsPerEvent() {
        Rec r = new Rec();
        SseParser p = new SseParser(r, 50);
        byte[] ev = utf8("data: " + "q".repeat(30) + "\n\n");
        for (int i = 0; i < 10; i++) {
            p.feed(ev, 0, ev.length);
        }
        assertThat(r.calls).hasSize(10).allMatch(s -> s.startsWith("event["));
    }
}
