package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SyntheticPromptsTest {
    @Test
    void promptHasExactlyTheRequestedWordsOfShortLowercaseLetters() {
        String p = new SyntheticPrompts(7).prompt(3, 250);
        String[] words = p.split(" ", -1);
        assertThat(words).hasSize(250);
        assertThat(words).allMatch(w -> w.matches("[a-z]{2,6}"));
    }

    @Test
    void deterministicBySeedAndIndexAndDifferentAcrossIndexes() {
        SyntheticPrompts a = new SyntheticPrompts(1);
        assertThat(a.prompt(5, 40)).isEqualTo(new SyntheticPrompts(1).prompt(5, 40));
        assertThat(a.prompt(5, 40)).isNotEqualTo(a.prompt(6, 40));
        assertThat(a.prompt(5, 40)).isNotEqualTo(new SyntheticPrompts(2).prompt(5, 40));
    }

    @Test
    void rejectsEmptyPrompt() {
        assertThatThrownBy(() -> new SyntheticPrompts(1).prompt(0, 0)).hasMessageContaining("at least 1 word");
    }
}
