package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TokenizerTest {

    @Test
    void nShortWordsSeparatedBySingleSpacesAreNTokens() {
        String prompt = String.join(" ", java.util.Collections.nCopies(137, "word"));
        assertThat(Tokenizer.count(prompt)).isEqualTo(137);
        assertThat(Tokenizer.split(prompt)).hasSize(137);
        assertThat(Tokenizer.encode(prompt)).hasSize(137);
    }

    @Test
    void splitsLettersDigitsPunctuationAndSpaces() {
        assertThat(Tokenizer.split("hello, world 42")).containsExactly("hello", ",", " world", " 4", "2");
        assertThat(Tokenizer.split("abcdefghij")).containsExactly("abcdef", "ghij");
        assertThat(Tokenizer.split("a  b ")).containsExactly("a", " ", " b", " ");
        assertThat(Tokenizer.split("x\ny")).containsExactly("x", "\n", "y");
        assertThat(Tokenizer.split("")).isEmpty();
    }

    @Test
    void decodeInvertsEncodeExactly() {
        for (String s : List.of("The quick brown fox, 1999!", "  leading and trailing  ", "ünïcödé ✓ 漢字", "Zz9 ZZZZZZZ")) {
            assertThat(Tokenizer.decode(Tokenizer.encode(s))).isEqualTo(s);
            assertThat(Tokenizer.count(s)).isEqualTo(Tokenizer.encode(s).length);
        }
    }

    @Test
    void chatTemplateAddsFourPerMessageAndThreeForTheReply() {
        var msgs = List.of(new ChatTemplate.Message("system", "be brief"),
                new ChatTemplate.Message("user", "one two three"));
        assertThat(ChatTemplate.count(msgs)).isEqualTo((4 + 2) + (4 + 3) + 3);
        assertThat(ChatTemplate.encode(msgs)).hasSize(16);
        assertThat(Tokenizer.decode(ChatTemplate.encode(msgs)))
                .isEqualTo("<|start|>system<|sep|>be brief<|end|>\n<|start|>user<|sep|>one two three<|end|>\n"
                        + "<|start|>assistant<|sep|>");
    }

    @Test
    void generatedWordsAreOneTokenEach() {
        for (String w : Sse.VOCAB) {
            assertThat(Tokenizer.count(" " + w)).as(w).isEqualTo(1);
        }
    }
}
