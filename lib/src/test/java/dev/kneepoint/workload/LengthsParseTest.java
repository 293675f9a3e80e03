package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Lengths as typed after --input-tokens / --output-tokens. */
class LengthsParseTest {
    @Test
    void everyFormReadsAsItsDistribution() {
        assertThat(Lengths.parse("128")).isEqualTo(Lengths.fixed(128));
        assertThat(Lengths.parse(" fixed:64 ")).isEqualTo(Lengths.fixed(64));
        assertThat(Lengths.parse("uniform:32..96")).isEqualTo(Lengths.uniform(32, 96));
        assertThat(Lengths.parse("Uniform: 32 .. 96")).isEqualTo(Lengths.uniform(32, 96));
        assertThat(Lengths.parse("normal:512,64")).isEqualTo(Lengths.normal(512, 64));
        assertThat(Lengths.parse("lognormal:512, 128")).isEqualTo(Lengths.logNormal(512, 128));
        assertThat(Lengths.parse("empirical:100,200,350").describe()).isEqualTo(Lengths.empirical(100, 200, 350).describe());
    }

    @Test
    void badTextNamesItselfWhatIsWrongAndTheForms() {
        assertThatThrownBy(() -> Lengths.parse("12x")).hasMessageContaining("cannot read the length '12x' (not a number)")
                .hasMessageContaining("uniform:MIN..MAX").hasMessageContaining("e.g. 128 or uniform:32..96");
        assertThatThrownBy(() -> Lengths.parse("uniform:32-96")).hasMessageContaining("uniform needs MIN..MAX");
        assertThatThrownBy(() -> Lengths.parse("uniform:96..32")).hasMessageContaining("1 <= min <= max");
        assertThatThrownBy(() -> Lengths.parse("normal:512")).hasMessageContaining("normal needs MEAN,SD");
        assertThatThrownBy(() -> Lengths.parse("zipf:1,2")).hasMessageContaining("unknown distribution 'zipf'");
        assertThatThrownBy(() -> Lengths.parse("0")).hasMessageContaining("fixed length must be >= 1");
        assertThatThrownBy(() -> Lengths.parse(null)).hasMessageContaining("cannot read the length 'null'");
    }
}
