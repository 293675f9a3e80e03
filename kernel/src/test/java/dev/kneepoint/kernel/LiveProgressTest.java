package dev.kneepoint.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.StepProgress;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class LiveProgressTest {
    record Message(String kind, String id, String text, String html) {}

    static final class Recorder implements LiveProgress.Sink {
        final List<Message> messages = new ArrayList<>();

        @Override
        public synchronized void show(String id, DisplayData d) {
            messages.add(new Message("show", id, (String) d.getData(MIMEType.TEXT_PLAIN), (String) d.getData(MIMEType.TEXT_HTML)));
        }

        @Override
        public synchronized void update(String id, DisplayData d) {
            messages.add(new Message("update", id, (String) d.getData(MIMEType.TEXT_PLAIN), (String) d.getData(MIMEType.TEXT_HTML)));
        }

        synchronized List<Message> snapshot() {
            return List.copyOf(messages);
        }
    }

    static StepProgress progress(long done) {
        return new StepProgress("c=8", done, 1, 4, 1234.5, 81.25, 95.5, 8);
    }

    @Test
    void aHeadlineSaysWhereTheSweepIsUntilTheEnd() {
        AtomicReference<String> where = new AtomicReference<>("step 1 of 2 (c=8), about 3 s left");
        Recorder sink = new Recorder();
        LiveProgress live = new LiveProgress(() -> Optional.of(progress(1)), where::get, sink, "id-h", 500, () -> 0L);
        live.poll();
        where.set("step 2 of 2 (c=16), about 1 s left");
        assertThat(live.poll()).as("the headline changed").isTrue();
        live.close();
        List<Message> m = sink.snapshot();
        assertThat(m.get(0).text()).startsWith("running 0.0 s: step 1 of 2 (c=8), about 3 s left: step c=8");
        assertThat(m.get(1).html()).contains("step 2 of 2 (c=16), about 1 s left");
        assertThat(m.get(2).text()).startsWith("done 0.0 s: step c=8"); // the end shows the last step, no estimate
    }

    @Test
    void showsOnceThenUpdatesInPlaceOnlyWhenTheSnapshotChanges() {
        AtomicReference<Optional<StepProgress>> current = new AtomicReference<>(Optional.empty());
        AtomicLong now = new AtomicLong(0);
        Recorder sink = new Recorder();
        LiveProgress live = new LiveProgress(current::get, sink, "id-1", 500, now::get);

        assertThat(live.poll()).isTrue();
        now.set(500_000_000L);
        assertThat(live.poll()).as("nothing changed but the clock").isFalse();
        current.set(Optional.of(progress(10)));
        assertThat(live.poll()).isTrue();
        current.set(Optional.of(progress(25)));
        now.set(1_500_000_000L);
        assertThat(live.poll()).isTrue();
        live.close();
        live.close();

        List<Message> m = sink.snapshot();
        assertThat(m).extracting(Message::kind).containsExactly("show", "update", "update", "update");
        assertThat(m).extracting(Message::id).containsOnly("id-1");
        assertThat(m.get(0).text()).contains("waiting for the first step");
        assertThat(m.get(2).text()).isEqualTo(
                "running 1.5 s: step c=8: 25 done, 1 failed, 1234.5 out tok/s, ttft p99 81.25 ms (sched 95.50 ms), 8 in flight");
        assertThat(m.get(2).html()).contains("<td>c=8</td><td>25</td><td>1</td>");
        assertThat(m.get(3).text()).startsWith("done 1.5 s: step c=8: 25 done");
    }

    @Test
    void itsThreadPollsUntilClosedAndStopsThen() throws Exception {
        AtomicLong done = new AtomicLong();
        Recorder sink = new Recorder();
        LiveProgress live = new LiveProgress(() -> Optional.of(progress(done.incrementAndGet())), sink, "id-2", 10,
                System::nanoTime).start();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (sink.snapshot().size() < 4 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        live.close();
        int afterClose = sink.snapshot().size();
        Thread.sleep(60);
        // A 10 ms period gives several updates well within 5 s; after close() nothing more may arrive.
        assertThat(afterClose).isGreaterThanOrEqualTo(4);
        assertThat(sink.snapshot()).hasSize(afterClose);
        assertThat(sink.snapshot().get(afterClose - 1).text()).startsWith("done");
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("kneepoint-progress-id-2"));
    }

    @Test
    void aFinishedSweepThatReportsNoProgressKeepsShowingItsLastStep() {
        AtomicReference<Optional<StepProgress>> current = new AtomicReference<>(Optional.of(progress(40)));
        Recorder sink = new Recorder();
        LiveProgress live = new LiveProgress(current::get, sink, "id-3", 500, () -> 0L);
        live.poll();
        current.set(Optional.empty()); // SweepHandle.progress() once the sweep ended
        assertThat(live.poll()).as("same step shown: nothing to update").isFalse();
        live.close();
        List<Message> m = sink.snapshot();
        assertThat(m.get(m.size() - 1).text()).startsWith("done 0.0 s: step c=8: 40 done");
    }
}
