package dev.kneepoint.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Abandonment}: the chosen requests are given up at their time and end ABANDONED; the others, and a stop of
 * the step, are left as they were. The sender here stands for a transport: it runs until its cancellation fires
 * (then CANCELLED, as the real ones do) or for 2 s (then OK). Tolerances: the give-up time is a lower bound; the
 * upper slack covers a shared machine.
 */
class AbandonmentTest {
    private static final RunClock CLOCK = RunClock.system();

    /** Blocks until cancelled or 2 s passed; CANCELLED or OK, stamped on the run clock. */
    private static final RequestSender SLOW = (spec, context, cancellation) -> {
        RequestRecord.Builder b = context.recordBuilder(spec);
        b.dispatchNanos = context.clock().now();
        CountDownLatch cancelled = new CountDownLatch(1);
        cancellation.onCancel(cancelled::countDown);
        boolean cut;
        try {
            cut = cancelled.await(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            cut = true;
        }
        b.endNanos = context.clock().now();
        b.outcome = cut ? Outcome.CANCELLED : Outcome.OK;
        return b.build();
    };

    private static RequestContext context(long id) {
        return new RequestContext(id, "c=1", false, CLOCK.now(), CLOCK);
    }

    private static long firstId(Abandonment a, boolean chosen) {
        long id = 0;
        while (a.chosen(id) != chosen) {
            id++;
        }
        return id;
    }

    @Test
    void aChosenRequestIsGivenUpAtItsTimeAndTheOthersRunToTheirEnd() {
        Abandonment a = Abandonment.afterTime(0.5, Duration.ofMillis(100), 7);
        RequestSender sender = a.applyTo(SLOW);
        RequestRecord given = sender.execute(RequestSpec.of("x", 4), context(firstId(a, true)), new Cancellation());
        assertThat(given.outcome()).isInstanceOf(Outcome.Abandoned.class);
        assertThat(given.outcome().label()).isEqualTo("ABANDONED");
        assertThat(given.outcome().detail()).isEqualTo("given up 100 ms after dispatch");
        double ms = (given.timing().endNanos() - given.timing().dispatchNanos()) / 1e6;
        assertThat(ms).isBetween(99.0, 100.0 + 400);
        RequestRecord kept = sender.execute(RequestSpec.of("x", 4), context(firstId(a, false)), new Cancellation());
        assertThat(kept.outcome()).isEqualTo(Outcome.OK);
    }

    @Test
    void aStopOfTheStepStaysACancellation() throws Exception {
        Abandonment a = Abandonment.afterTime(1, Duration.ofSeconds(10), 7);
        Cancellation step = new Cancellation();
        Thread stopper = Thread.ofVirtual().start(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                return;
            }
            step.cancel();
        });
        RequestRecord r = a.applyTo(SLOW).execute(RequestSpec.of("x", 4), context(0), step);
        stopper.join();
        assertThat(r.outcome()).isEqualTo(Outcome.CANCELLED);
    }

    @Test
    void theShareChosenIsTheRateAndTheSameForTheSameSeed() {
        Abandonment a = Abandonment.afterTime(0.1, Duration.ofMillis(1), 42);
        int n = 20_000;
        int chosen = 0;
        int differ = 0;
        Abandonment other = Abandonment.afterTime(0.1, Duration.ofMillis(1), 43);
        for (long id = 0; id < n; id++) {
            chosen += a.chosen(id) ? 1 : 0;
            assertThat(a.chosen(id)).isEqualTo(Abandonment.afterTime(0.1, Duration.ofMillis(5), 42).chosen(id));
            differ += a.chosen(id) != other.chosen(id) ? 1 : 0;
        }
        // binomial: sd = sqrt(n p (1-p)) = 42; 5 sd
        assertThat(chosen).isBetween(2000 - 210, 2000 + 210);
        assertThat(differ).isGreaterThan(1000);
    }

    @Test
    void aRateOutsideAShareOrATimeNotAfterDispatchIsRefused() {
        assertThatThrownBy(() -> Abandonment.afterTime(0, Duration.ofMillis(1), 1)).hasMessageContaining("(0, 1]");
        assertThatThrownBy(() -> Abandonment.afterTime(1.5, Duration.ofMillis(1), 1)).hasMessageContaining("got 1.5");
        assertThatThrownBy(() -> Abandonment.afterTime(0.5, Duration.ZERO, 1)).hasMessageContaining("positive time");
        assertThatThrownBy(() -> Abandonment.afterTokens(0.5, 0, 1)).hasMessageContaining("positive token count");
        assertThatThrownBy(() -> new Abandonment(0.5, Duration.ofMillis(1), 3, 1)).hasMessageContaining("not both");
    }
}
