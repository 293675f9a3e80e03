package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TokenAccountingTest {

    private static StreamPayload.Chunk text(String s, int cumulative) {
        return new StreamPayload.Chunk(s, "", null, null, 1, -1, cumulative, -1, Map.of());
    }

    private static StreamPayload.Chunk usageOnly(int prompt, int total) {
        return new StreamPayload.Chunk("", "", null, null, 0, prompt, total, -1, Map.of());
    }

    @Test
    void largestRemainderHandDerived() {
        // 10 * (1,1,1)/3 = 3.33 each -> floors 3,3,3, one unit left goes to the lowest index (tie)
        assertThat(TokenAccounting.scaleLargestRemainder(new int[] {1, 1, 1}, 10)).containsExactly(4, 3, 3);
        // 7 * (1,2,3)/6 = 1.167, 2.333, 3.5 -> floors 1,2,3 (6); remainders 1,2,3 (/6): index 2 gets +1
        assertThat(TokenAccounting.scaleLargestRemainder(new int[] {1, 2, 3}, 7)).containsExactly(1, 2, 4);
        // server total below the number of chunks: some chunks get 0
        assertThat(TokenAccounting.scaleLargestRemainder(new int[] {1, 1, 1, 1}, 2)).containsExactly(1, 1, 0, 0);
        assertThat(TokenAccounting.scaleLargestRemainder(new int[] {0, 0}, 3)).containsExactly(2, 1);
        assertThat(TokenAccounting.scaleLargestRemainder(new int[0], 5)).isEmpty();
        assertThatThrownBy(() -> TokenAccounting.scaleLargestRemainder(new int[] {1}, -1))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void scalingIsDeterministicAndExact() {
        int[] counts = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
        for (int total = 0; total < 200; total++) {
            int[] a = TokenAccounting.scaleLargestRemainder(counts, total);
            assertThat(TokenAccounting.sum(a)).isEqualTo(total);
            assertThat(TokenAccounting.scaleLargestRemainder(counts.clone(), total)).isEqualTo(a);
            for (int i = 0; i < counts.length; i++) {
                // each share is within one unit of the exact proportional share
                double exact = counts[i] * (double) total / 39;
                assertThat((double) a[i]).isBetween(Math.floor(exact), Math.ceil(exact));
            }
        }
    }

    @Test
    void eventsCountOnePerContentEventAndRoleChunkIsNotAToken() {
        TokenTally t = new TokenTally();
        assertThat(t.onChunk(5, new StreamPayload.Chunk("", "", "assistant", null, 1, -1, -1, -1, Map.of()))).isFalse();
        t.onChunk(10, text("a", -1));
        t.onChunk(20, text("b", -1));
        RequestRecord.Builder b = new RequestRecord.Builder();
        t.settle(b, 33);
        assertThat(b.tokenSource).isEqualTo(TokenSource.EVENTS);
        assertThat(b.chunkNanos).containsExactly(10, 20);
        assertThat(b.chunkTokens).containsExactly(1, 1);
        assertThat(b.outputTokens).isEqualTo(2);
        assertThat(b.clientCountedTokens).isEqualTo(2);
        assertThat(b.promptTokens).isEqualTo(33);
        assertThat(b.firstTokenNanos).isEqualTo(10);
        assertThat(b.lastTokenNanos).isEqualTo(20);
    }

    @Test
    void continuousUsageGivesMultiTokenChunks() {
        TokenTally t = new TokenTally();
        t.onChunk(1, new StreamPayload.Chunk("", "", "assistant", null, 1, 9, 0, -1, Map.of()));
        t.onChunk(10, text("a", 1));
        t.onChunk(20, text("bcd", 4)); // one chunk, three tokens
        t.onChunk(25, new StreamPayload.Chunk("", "", null, null, 1, 9, 5, -1, Map.of())); // token, no text
        t.onChunk(30, text("e", 6)); // carries the text-less token too
        RequestRecord.Builder b = new RequestRecord.Builder();
        t.settle(b, -1);
        assertThat(b.tokenSource).isEqualTo(TokenSource.SERVER_CONTINUOUS);
        assertThat(b.chunkTokens).containsExactly(1, 3, 2);
        assertThat(b.outputTokens).isEqualTo(6);
        assertThat(b.promptTokens).isEqualTo(9);
    }

    @Test
    void finalUsageScalesDisagreeingCountsAndKeepsClientCount() {
        TokenTally t = new TokenTally();
        t.onChunk(10, text("a", -1));
        t.onChunk(20, text("b", -1));
        t.onChunk(30, text("c", -1));
        t.onChunk(40, usageOnly(17, 10));
        RequestRecord.Builder b = new RequestRecord.Builder();
        t.settle(b, 99);
        assertThat(b.tokenSource).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(b.chunkTokens).containsExactly(4, 3, 3);
        assertThat(b.outputTokens).isEqualTo(10);
        assertThat(b.clientCountedTokens).isEqualTo(3);
        assertThat(b.promptTokens).isEqualTo(17);
        assertThat(b.build().countDiscrepancy()).isTrue();
    }

    @Test
    void continuousThenFinalUsageAgreeing() {
        TokenTally t = new TokenTally();
        t.onChunk(10, text("ab", 2));
        t.onChunk(20, new StreamPayload.Chunk("c", "", null, "stop", 1, 4, 3, -1, Map.of()));
        t.onChunk(30, usageOnly(4, 3));
        RequestRecord.Builder b = new RequestRecord.Builder();
        t.settle(b, -1);
        assertThat(b.tokenSource).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(b.chunkTokens).containsExactly(2, 1);
        assertThat(b.clientCountedTokens).isEqualTo(3);
        assertThat(b.build().countDiscrepancy()).isFalse();
    }

    @Test
    void reasoningTokensCountedApart() {
        TokenTally t = new TokenTally();
        t.onChunk(10, new StreamPayload.Chunk("", "hmm", null, null, 1, -1, -1, -1, Map.of()));
        t.onChunk(20, new StreamPayload.Chunk("", "ok", null, null, 1, -1, -1, -1, Map.of()));
        t.onChunk(30, text("answer", -1));
        t.onChunk(40, usageOnly(3, 6));
        RequestRecord.Builder b = new RequestRecord.Builder();
        t.settle(b, -1);
        // 6 over (1,1,1) -> 2,2,2; the two reasoning chunks carry 4
        assertThat(b.chunkTokens).containsExactly(2, 2, 2);
        assertThat(b.reasoningTokens).isEqualTo(4);
        assertThat(b.outputTokens).isEqualTo(6);
    }
}
