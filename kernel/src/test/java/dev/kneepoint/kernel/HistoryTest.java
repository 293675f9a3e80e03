package dev.kneepoint.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.spencerpark.jupyter.kernel.history.HistoryEntry;
import org.junit.jupiter.api.Test;

class HistoryTest {
    @Test
    void tailRangeAndSearch() {
        History h = new History();
        h.add(1, "int a = 1;");
        h.add(2, "a + 1");
        h.add(3, "int b = 2;");
        h.add(4, "a + 1");
        assertThat(h.tail(2)).extracting(HistoryEntry::getCellNumber).containsExactly(3, 4);
        assertThat(h.range(0, 2, 4)).extracting(HistoryEntry::getCellNumber).containsExactly(2, 3);
        assertThat(h.range(7, 1, 0)).isEmpty();
        assertThat(h.search("int*", 0, false)).extracting(HistoryEntry::getInput).containsExactly("int a = 1;", "int b = 2;");
        assertThat(h.search("a + ?", 0, true)).extracting(HistoryEntry::getCellNumber).containsExactly(4);
    }
}
