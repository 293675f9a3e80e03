package dev.kneepoint.load;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunListener;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.WindowPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.ToLongFunction;

/** Keeps every fact a run reports, in arrival order, and checks the listener contract on the way. */
class RecordingListener implements RunListener {
    final ConcurrentLinkedQueue<RequestRecord> records = new ConcurrentLinkedQueue<>();
    final List<String> events = new ArrayList<>();
    final List<StepInfo> started = new ArrayList<>();
    final List<StepWindow> windows = new ArrayList<>();
    final List<Long> stepStarts = new ArrayList<>();
    volatile String openStep;
    volatile String violation;

    @Override
    public synchronized void stepStarted(StepInfo step, long stepStartNanos, WindowPlan plan) {
        events.add("start " + step.label());
        started.add(step);
        stepStarts.add(stepStartNanos);
        openStep = step.label();
    }

    @Override
    public void requestFinished(RequestRecord record) {
        if (!record.step().equals(openStep)) {
            violation = "record " + record.id() + " of step " + record.step() + " outside its step";
        }
        records.add(record);
    }

    @Override
    public synchronized void stepFinished(StepInfo step, StepWindow window, ClientHealth client) {
        events.add("finish " + step.label() + (window.completed() ? "" : " (incomplete)"));
        windows.add(window);
        openStep = null;
    }

    List<RequestRecord> of(String step) {
        return records.stream().filter(r -> r.step().equals(step)).toList();
    }

    /** Nearest-rank percentile (p in 0..100) of a per-record value, over records where it exists. */
    static long percentile(List<RequestRecord> rs, ToLongFunction<RequestRecord> value, double p) {
        long[] v = rs.stream().mapToLong(value).filter(x -> x >= 0).sorted().toArray();
        if (v.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(p / 100.0 * v.length);
        return v[Math.max(0, rank - 1)];
    }

    static long[] sorted(List<RequestRecord> rs, ToLongFunction<RequestRecord> value) {
        long[] v = rs.stream().mapToLong(value).toArray();
        Arrays.sort(v);
        return v;
    }
}
