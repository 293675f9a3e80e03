package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A burst of outputs due at once is written by two threads; each stream keeps its order and schedule. */
class EngineSplitTest {

    /** Records what each call saw, and on which thread. */
    static final class Recorder implements TokenSink {
        final List<Integer> generated = new ArrayList<>();
        final List<Long> scheduled = new ArrayList<>();
        final List<Long> calledAt = new ArrayList<>();
        final List<String> threads = new ArrayList<>();
        final CountDownLatch done = new CountDownLatch(1);

        @Override
        public synchronized void onTokens(int tokens, int gen, boolean finished, long scheduledNanos) {
            calledAt.add(System.nanoTime());
            generated.add(gen);
            scheduled.add(scheduledNanos);
            threads.add(Thread.currentThread().getName());
            if (finished) {
                done.countDown();
            }
        }
    }

    @Test
    void aBatchSynchronousStepIsWrittenByTwoThreadsInOrderAndNeverEarly() throws Exception {
        int streams = 3 * Engine.SPLIT_MIN_DUE; // every step's outputs are due at one instant: a burst
        int output = 12;
        SimConfig c = SimConfig.presetBuilder("fast").maxNumSeqs(streams).maxNumBatchedTokens(streams * 16)
                .kvCapacityTokens(streams * 64).stepOverheadNanos(3_000_000).prefillNanosPerToken(0)
                .decodeNanosPerSeq(0).attentionNanosPerContextToken(0).emitNanosPerSeq(0).build();
        List<Recorder> rs = new ArrayList<>();
        try (Engine engine = new Engine(c, new SimMetrics("m"), System.nanoTime())) {
            for (int i = 0; i < streams; i++) {
                Recorder r = new Recorder();
                rs.add(r);
                engine.submit(EngineModelTest.seq(i, 8, output, 16).withSink(r));
            }
            for (Recorder r : rs) {
                assertThat(r.done.await(20, TimeUnit.SECONDS)).isTrue();
            }
        }
        int byEmitter = 0;
        for (int i = 0; i < streams; i++) {
            Recorder r = rs.get(i);
            synchronized (r) {
                // every token exactly once, in order
                assertThat(r.generated).hasSize(output);
                for (int k = 0; k < output; k++) {
                    assertThat(r.generated.get(k)).isEqualTo(k + 1);
                    assertThat(r.calledAt.get(k)).isGreaterThanOrEqualTo(r.scheduled.get(k));
                    if (k > 0) {
                        assertThat(r.calledAt.get(k)).isGreaterThan(r.calledAt.get(k - 1));
                    }
                }
                for (String t : r.threads) {
                    if (t.equals("kneepoint-sim-emitter")) {
                        byEmitter++;
                        // only odd-numbered sequences ever go to the second thread
                        assertThat(i % 2).as("sequence %d written by the emitter", i).isEqualTo(1);
                    } else {
                        assertThat(t).isEqualTo("kneepoint-sim-engine");
                    }
                }
            }
        }
        // Each decode step has all streams due at once (>= SPLIT_MIN_DUE), so the odd half of every such step
        // goes to the emitter: at least the odd sequences' decode outputs of most steps. Only the first step
        // (prefill of streams that may have been admitted over two steps) can stay whole; lower bound: half of
        // the odd sequences' outputs.
        assertThat(byEmitter).isGreaterThanOrEqualTo(streams / 2 * output / 2);
    }
}
