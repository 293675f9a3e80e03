package dev.kneepoint.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TestRecords;
import dev.kneepoint.metrics.TokenSource;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The field table's own promises, on which the readers rely. */
class RequestFieldTest {

    /**
     * The streaming readers leave a field the line lacks as the builder has it: so each field's absent value must be
     * the builder's default (the tree reader reads the table's).
     */
    @Test
    void everyAbsentValueIsTheBuildersDefault() {
        RequestRecord defaults = new RequestRecord.Builder().build();
        for (RequestField f : RequestField.STORED) {
            if (f.required()) {
                continue;
            }
            switch (f.kind()) {
                case LONG -> assertThat(f.longOf(defaults)).as(f.json()).isEqualTo(f.absentLong());
                case INT -> assertThat(f.intOf(defaults)).as(f.json()).isEqualTo(f.absentInt());
                case FLAG -> assertThat(f.flagOf(defaults)).as(f.json()).isEqualTo(f.absentFlag());
                case TEXT -> assertThat(f.textOf(defaults)).as(f.json()).isEqualTo(f.absentText());
                case LONGS -> assertThat(f.longsOf(defaults)).as(f.json()).isEmpty();
                case INTS -> assertThat(f.intsOf(defaults)).as(f.json()).isEmpty();
                case TIMINGS -> assertThat(f.timingsOf(defaults)).as(f.json()).isEmpty();
                case MILLIS, DECIMAL -> throw new AssertionError(f + " is derived");
            }
        }
    }

    /** Each stored field's pair of methods is its kind's: what one takes from a record, the other puts back. */
    @Test
    void everyStoredFieldCarriesItsValueBothWays() {
        RequestRecord.Builder b = TestRecords.ok(7, "c=2", 1, 2, new double[] {5, 6}, new int[] {2, 1});
        b.tag = "chat";
        b.warmup = true;
        b.reasoningTokens = 1;
        b.requestedPromptTokens = 50;
        b.requestedOutputTokens = 3;
        b.clientCountedTokens = 4;
        b.firstAnswerNanos = 6_000_000;
        b.firstToolCallNanos = 7_000_000;
        b.cachedPromptTokens = 32;
        b.items = 5;
        b.model = "adapter-a";
        b.retried = true;
        b.streamed = false;
        b.serverTimings = Map.of("queue_ms", 2.0);
        b.tokenSource = TokenSource.TOKENIZER;
        b.outcome = new Outcome.HttpError(500, "boom");
        RequestRecord r = b.build();
        RequestDraft d = new RequestDraft();
        for (RequestField f : RequestField.STORED) {
            switch (f.kind()) {
                case LONG -> f.putLong(d, f.longOf(r));
                case INT -> f.putInt(d, f.intOf(r));
                case FLAG -> f.putFlag(d, f.flagOf(r));
                case TEXT -> f.putText(d, f.textOf(r));
                case LONGS -> f.putLongs(d, f.longsOf(r));
                case INTS -> f.putInts(d, f.intsOf(r));
                case TIMINGS -> f.putTimings(d, f.timingsOf(r));
                case MILLIS, DECIMAL -> throw new AssertionError(f + " is derived");
            }
        }
        RequestRecord back = d.build();
        assertThat(back).isEqualTo(r);
        assertThat(back.outcome()).isEqualTo(r.outcome()); // the detail too, which equals leaves out
    }

    @Test
    void theAlwaysWrittenFieldsOpenTheTableAndNamesAreUnique() {
        assertThat(RequestField.PREFIX).containsExactly(Arrays.copyOf(RequestField.ALL, RequestField.PREFIX.length));
        assertThat(Arrays.stream(RequestField.ALL).map(RequestField::json).distinct()).hasSize(RequestField.ALL.length);
        for (RequestField f : RequestField.ALL) {
            assertThat(RequestField.named(f.json())).isSameAs(f);
        }
        assertThat(RequestField.named("response_text")).isNull();
    }
}
