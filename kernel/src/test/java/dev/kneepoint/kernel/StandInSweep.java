package dev.kneepoint.kernel;

import java.util.ArrayList;
import java.util.List;

/**
 * Stands in for the library's blocking {@code Sweep.run()}: library code (not instrumented by JShell) that
 * works until its thread is interrupted and then returns the partial results it has.
 */
public final class StandInSweep {
    private StandInSweep() {}

    /** Appends a step every 5 ms until interrupted; returns the steps done. */
    public static List<Integer> runUntilInterrupted() {
        List<Integer> done = new ArrayList<>();
        try {
            for (int i = 0; ; i++) {
                Thread.sleep(5);
                done.add(i);
            }
        } catch (InterruptedException e) {
            return done;
        }
    }
}
