package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link TextColumns}: each column as wide as its widest cell, the first left-aligned, the rest right-aligned. */
class TextColumnsTest {

    @Test
    void alignsEachColumnToItsWidestCell() {
        String text = TextColumns.of(List.of(
                new String[] {"step", "req/s", "p99"},
                new String[] {"c1", "12.5", "-"},
                new String[] {"c128", "1234.0", "98.1"}));
        assertThat(text).isEqualTo("""
                step   req/s   p99
                c1      12.5     -
                c128  1234.0  98.1
                """);
    }

    @Test
    void noRowsIsNoText() {
        assertThat(TextColumns.of(List.of())).isEmpty();
    }
}
