package dev.kneepoint.metrics;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.function.LongConsumer;

/**
 * Holds back a closed-loop step's first wave from the client self-check's schedule lag (METRICS.md "Client
 * self-check"): each of the step's c users opens its connection with its first request, so those c requests leave
 * late by the connection set-up (tens of ms at c=64, hundreds at c=5,000) however idle the client is. The c
 * requests with the earliest intended start (warm-up ones included: with a warm-up the wave is spent there) are
 * the wave; every other request's lag goes to {@code settled}. Which requests those are does not depend on the
 * order the records arrive in (ties broken by id), so every aggregation of a step agrees. Memory: c entries.
 * Not thread-safe (the aggregator holds its lock).
 */
final class FirstWave {
    /** {intended, id, lag, warm-up (1) or not (0)}; the head is the latest intended start held. */
    private final PriorityQueue<long[]> held = new PriorityQueue<>(
            Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]).reversed());
    private final int size;
    private final LongConsumer settled;

    /** A wave of {@code size} requests (0: none held back); the other requests' lags go to {@code settled}. */
    FirstWave(int size, LongConsumer settled) {
        this.size = Math.max(0, size);
        this.settled = settled;
    }

    /** The wave of a step: its users for a closed loop, none for an open loop (its connections open as load grows). */
    static int sizeOf(StepInfo info) {
        return info.isOpenLoop() ? 0 : Math.max(0, info.concurrency());
    }

    void add(RequestRecord r) {
        long[] e = {r.timing().intendedNanos(), r.id(), r.scheduleLagNanos(), r.warmup() ? 1 : 0};
        if (size == 0) {
            pass(e);
            return;
        }
        held.add(e);
        if (held.size() > size) {
            pass(held.poll());
        }
    }

    private void pass(long[] e) {
        if (e[3] == 0 && e[2] >= 0) {
            settled.accept(e[2]);
        }
    }
}
