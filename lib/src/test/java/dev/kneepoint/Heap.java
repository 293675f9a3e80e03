package dev.kneepoint;

/** Heap measurement for memory tests. */
public final class Heap {
    private Heap() {}

    /** Bytes in use after three requested collections, 10 ms apart (what a retained-memory bound is checked on). */
    public static long usedAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(10);
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
