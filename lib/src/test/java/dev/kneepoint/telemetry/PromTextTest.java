package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PromTextTest {
    @Test
    void labelsWithEscapesSpecialValuesAndTimestamps() {
        String text = """
                # HELP m_total A help with a \\\\ backslash and \\n newline.
                # TYPE m_total counter
                m_total{path="/a\\"b\\\\c",msg="line1\\nline2" , empty=""} 12.5 1712345678901
                m_total{path="x"} +Inf
                g NaN
                g2 -Inf
                g3{a="1",} 1e-3
                # a free comment
                untyped_thing 42
                # EOF
                """;
        PromText.Exposition e = PromText.parse(text);
        assertThat(e.problems()).isEmpty();
        assertThat(e.samples()).hasSize(6);
        PromText.Sample s = e.samples().get(0);
        assertThat(s.labels()).isEqualTo(Map.of("path", "/a\"b\\c", "msg", "line1\nline2", "empty", ""));
        assertThat(s.value()).isEqualTo(12.5);
        assertThat(s.timestampMs()).hasValue(1712345678901L);
        assertThat(e.samples().get(1).value()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(e.samples().get(1).timestampMs()).isEmpty();
        assertThat(e.samples().get(2).value()).isNaN();
        assertThat(e.samples().get(3).value()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(e.samples().get(4).labels()).containsExactly(Map.entry("a", "1"));
        assertThat(e.samples().get(4).value()).isEqualTo(0.001);
        assertThat(e.families().get("m_total").type()).isEqualTo("counter");
        assertThat(e.families().get("m_total").help()).isEqualTo("A help with a \\ backslash and \n newline.");
        assertThat(e.typeOf("untyped_thing")).isEqualTo("untyped");
    }

    @Test
    void malformedLinesAreReportedAndSkippedNotFatal() {
        String text = "ok 1\nbad{a=\"1\" 2\nnovalue\nok2{a=unquoted} 3\nok3 notanumber\nok4 1 2 3\nlast 7\r\n";
        PromText.Exposition e = PromText.parse(text);
        assertThat(e.samples()).extracting(PromText.Sample::name).containsExactly("ok", "last");
        assertThat(e.problems()).hasSize(5);
        assertThat(e.problems().get(0)).startsWith("line 2: ");
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("bad value 'notanumber'"));
    }

    @Test
    void histogramSeriesBelongToTheirFamily() {
        PromText.Exposition e = PromText.parse(Fixtures.metrics("vllm"));
        assertThat(e.problems()).isEmpty();
        assertThat(e.familyOf("vllm:time_to_first_token_seconds_bucket")).get()
                .extracting(PromText.Family::type).isEqualTo("histogram");
        var buckets = e.series("vllm:time_to_first_token_seconds_bucket");
        assertThat(buckets).hasSize(11);
        assertThat(buckets.get(10).labels()).containsEntry("le", "+Inf");
        assertThat(buckets.get(10).value()).isEqualTo(1024.0);
        assertThat(e.value("vllm:time_to_first_token_seconds_sum")).hasValue(56.32);
        assertThat(e.value("process_resident_memory_bytes")).hasValue(2.84563456e9);
    }

    @ParameterizedTest
    @CsvSource({"vllm, 41", "sglang, 25", "tgi, 31", "llamacpp, 15", "dcgm, 12"})
    void everyFixtureParsesCleanly(String server, int samples) {
        PromText.Exposition e = PromText.parse(Fixtures.metrics(server));
        assertThat(e.problems()).isEmpty();
        // sample counts counted by hand from the fixture files (grep -vc '^#')
        assertThat(e.samples()).hasSize(samples);
    }
}
