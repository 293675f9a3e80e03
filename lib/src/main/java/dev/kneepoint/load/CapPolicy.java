package dev.kneepoint.load;

import java.util.Locale;

/** What an open-loop step does with a request that arrives while its in-flight cap is full. */
public enum CapPolicy {
    /**
     * The request waits for a slot; its {@code t_intended} stays the planned time, so the wait shows up
     * in {@code schedule_lag} and in every {@code _sched} metric.
     */
    QUEUE,
    /** The request is not sent: it is recorded with outcome {@code DROPPED} and no dispatch time, and counted. */
    DROP;

    /** The lower-case name written in {@code StepInfo.capPolicy}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
