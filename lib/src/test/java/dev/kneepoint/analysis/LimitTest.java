package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The "Limit:" sentence: the most specific applicable cause, never the past-usable-zone symptom when a cause applies. */
class LimitTest {

    private static Reading r(Reading.Kind k, boolean applies) {
        return new Reading(k, applies ? Reading.Status.APPLIES : Reading.Status.DOES_NOT_APPLY, k.name() + " finding.",
                "evidence");
    }

    /** Every kind, in Readings.of's order, applying where {@code applying} names it. */
    private static List<Reading> readings(Reading.Kind... applying) {
        List<Reading.Kind> on = List.of(applying);
        List<Reading> out = new ArrayList<>();
        for (Reading.Kind k : List.of(Reading.Kind.DECODE_BOUND, Reading.Kind.PREFILL_OR_ADMISSION_BOUND,
                Reading.Kind.PREFILL_STALLS_DECODE, Reading.Kind.PAST_USABLE_ZONE,
                Reading.Kind.CLIENT_OR_SCHEDULER_PATH, Reading.Kind.STABILITY, Reading.Kind.CLIENT_BOUND)) {
            out.add(r(k, on.contains(k)));
        }
        return out;
    }

    @Test
    void aCauseIsNamedBeforeThePastUsableZoneSymptom() {
        assertThat(Answer.limit(readings(Reading.Kind.PAST_USABLE_ZONE, Reading.Kind.DECODE_BOUND)))
                .isEqualTo("Limit: DECODE_BOUND finding.");
    }

    @Test
    void theMostSpecificCauseLeadsAndTheOthersAreListed() {
        assertThat(Answer.limit(readings(Reading.Kind.DECODE_BOUND, Reading.Kind.PREFILL_STALLS_DECODE,
                Reading.Kind.PAST_USABLE_ZONE))).isEqualTo("Limit: PREFILL_STALLS_DECODE finding. Also applies: "
                + "DECODE_BOUND (see the readings below).");
        assertThat(Answer.limit(readings(Reading.Kind.STABILITY, Reading.Kind.PREFILL_OR_ADMISSION_BOUND)))
                .startsWith("Limit: STABILITY finding.");
        assertThat(Answer.limit(readings(Reading.Kind.CLIENT_BOUND, Reading.Kind.CLIENT_OR_SCHEDULER_PATH,
                Reading.Kind.DECODE_BOUND))).isEqualTo("Limit: CLIENT_BOUND finding. Also applies: "
                + "CLIENT_OR_SCHEDULER_PATH, DECODE_BOUND (see the readings below).");
    }

    @Test
    void withoutACauseTheSymptomIsNamedAsSuch() {
        assertThat(Answer.limit(readings(Reading.Kind.PAST_USABLE_ZONE)))
                .isEqualTo("Limit: no reading names a cause; the symptom: PAST_USABLE_ZONE finding.");
    }

    @Test
    void withNothingApplyingTheSentenceSaysSo() {
        assertThat(Answer.limit(readings())).startsWith("Limit: no reading names a cause (none of client");
    }

    @Test
    void everyKindButThePastUsableZoneIsACause() {
        assertThat(Answer.LIMITS).doesNotContain(Reading.Kind.PAST_USABLE_ZONE)
                .hasSize(Reading.Kind.values().length - 1).doesNotHaveDuplicates();
    }

    @Test
    void onASyntheticLadderPastItsKneeTheSentenceIsTheSymptomFallback() {
        // Flat latency to c=16, then tail explodes (x3) while throughput rises 10%: PAST_USABLE_ZONE; TTFT and
        // TPOT constant, so no decode or prefill reading applies.
        KneeReport k = Knee.analyze(Ladders.run("past", Ladders.s(1, 100, 100), Ladders.s(2, 200, 100),
                Ladders.s(4, 400, 100), Ladders.s(8, 440, 300), Ladders.s(16, 450, 900)));
        assertThat(k.applicableReadings()).extracting(Reading::kind).contains(Reading.Kind.PAST_USABLE_ZONE);
        assertThat(k.answer().sentences().get(4)).startsWith("Limit: no reading names a cause; the symptom: "
                + "Throughput still rises above the knee");
    }
}
