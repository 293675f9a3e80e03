package dev.kneepoint.io;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.TestRecords;
import java.nio.file.Path;

/**
 * Child process of {@link CrashSafetyTest}: writes records steadily through a {@link RunDirectory} and prints
 * {@code DONE <id>} after handing each one in, until it is killed (it gives up after 60 s without closing).
 */
public final class CrashChild {
    private CrashChild() {}

    public static void main(String[] args) throws Exception {
        RunDirectory run = RunDirectory.builder(Path.of(args[0])).slug("crash").open();
        System.out.println("DIR " + run.path());
        System.out.flush();
        RunClock clock = RunClock.system();
        StepInfo step = TestRecords.closedStep("c=1", 1);
        run.stepStarted(step, 0, null);
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (long id = 0; System.nanoTime() < deadline; id++) {
            double now = clock.now() / 1e6;
            RequestRecord r = TestRecords.ok(id, "c=1", now - 3, now - 3, new double[] {now - 2, now - 1},
                    new int[] {1, 2}).build();
            run.requestFinished(r);
            System.out.println("DONE " + id);
            System.out.flush();
            Thread.sleep(100); // slow enough that the ~16 KB of buffers alone would hold records for > 1 s
        }
        System.exit(3); // never closed: the run stays incomplete
    }
}
