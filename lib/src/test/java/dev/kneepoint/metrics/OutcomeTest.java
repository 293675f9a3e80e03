package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class OutcomeTest {

    @Test
    void everyOutcomeRoundTripsThroughItsLabel() {
        List<Outcome> all = List.of(Outcome.OK, new Outcome.HttpError(429, "slow down"),
                new Outcome.Timeout(Outcome.TimeoutKind.FIRST_TOKEN), new Outcome.ConnectionError("refused"),
                new Outcome.StreamError("bad json"), Outcome.EMPTY, Outcome.TRUNCATED, Outcome.CANCELLED,
                Outcome.UNFINISHED, Outcome.DROPPED);
        for (Outcome o : all) {
            assertThat(Outcome.parse(o.label()).label()).isEqualTo(o.label());
        }
        assertThat(new Outcome.Timeout(Outcome.TimeoutKind.FIRST_TOKEN).label()).isEqualTo("TIMEOUT(first_token)");
        assertThat(new Outcome.HttpError(503, "").kind()).isEqualTo("HTTP_ERROR");
    }

    @Test
    void unfinishedReadsBackAsItselfAndIsNotOk() {
        assertThat(Outcome.parse("UNFINISHED")).isEqualTo(Outcome.UNFINISHED).isInstanceOf(Outcome.Unfinished.class);
        assertThat(Outcome.UNFINISHED.isOk()).isFalse();
        assertThat(Outcome.UNFINISHED.kind()).isEqualTo("UNFINISHED");
        assertThat(new Outcome.Truncated("content type text/html").detail()).isEqualTo("content type text/html");
        assertThat(Outcome.TRUNCATED).isEqualTo(new Outcome.Truncated(""));
    }

    @Test
    void withDetailReplacesTheDetailOfOutcomesThatCarryOne() {
        assertThat(new Outcome.HttpError(429, "key sk-1").withDetail("key <redacted>"))
                .isEqualTo(new Outcome.HttpError(429, "key <redacted>"));
        assertThat(Outcome.parse("CONNECTION_ERROR").withDetail("refused")).isEqualTo(new Outcome.ConnectionError("refused"));
        assertThat(Outcome.parse("STREAM_ERROR").withDetail("bad json")).isEqualTo(new Outcome.StreamError("bad json"));
        assertThat(Outcome.TRUNCATED.withDetail("text/html")).isEqualTo(new Outcome.Truncated("text/html"));
        Outcome timeout = new Outcome.Timeout(Outcome.TimeoutKind.IDLE);
        assertThat(timeout.withDetail("ignored")).isSameAs(timeout);
        assertThat(Outcome.OK.withDetail("ignored")).isSameAs(Outcome.OK);
    }

    @Test
    void unknownLabelNamesTheProblemAndTheAcceptedForms() {
        assertThatThrownBy(() -> Outcome.parse("TIMEOUT(forever)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("TIMEOUT(forever)")
                .hasMessageContaining("connect|first_token|idle|total");
    }
}
