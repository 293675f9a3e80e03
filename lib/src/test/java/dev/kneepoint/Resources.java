package dev.kneepoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * What the process holds: platform threads (by name), all threads including virtual ones (from the JDK's
 * thread containers, which track virtual threads too), open file descriptors (every entry of
 * {@code /proc/self/fd}, the listing's own directory descriptor included) and, of those, the sockets (links to
 * {@code socket:[...]}); both Linux only: -1 elsewhere.
 *
 * <p>Threads that may appear during a test without being a leak (they are the JDK's or OkHttp's and
 * process-wide, bounded in number and end on their own when idle) are ignored: the virtual-thread carriers
 * ({@code ForkJoinPool-*-worker-*}, at most one per core), okio's {@code Okio Watchdog}, OkHttp's
 * {@code OkHttp TaskRunner} (both end after 60 s idle), the JDK's {@code process reaper},
 * {@code Common-Cleaner}, {@code Attach Listener}, the virtual-thread I/O pollers ({@code MasterPoller},
 * {@code Read-Poller}, {@code Write-Poller}, {@code VirtualThread-unblocker}: started on first use, one set per
 * process) and JUnit's timeout thread. OkHttp's {@code ConnectionPool connection closer} is NOT ignored: it
 * runs while a pool holds idle connections.
 */
record Resources(Set<String> platformThreads, int allThreads, int sockets, int fds) {
    private static final List<String> IGNORED = List.of("ForkJoinPool", "Okio Watchdog", "OkHttp TaskRunner",
            "process reaper", "Common-Cleaner", "Attach Listener", "junit-timeout", "InnocuousThread",
            "Notification Thread", "Signal Dispatcher", "Reference Handler", "Finalizer", "main",
            "MasterPoller", "Read-Poller", "Write-Poller", "VirtualThread-unblocker");

    static boolean socketsCountable() {
        return Files.isDirectory(Path.of("/proc/self/fd"));
    }

    static Resources take() throws IOException {
        Set<String> names = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && IGNORED.stream().noneMatch(t.getName()::startsWith)) {
                names.add(t.getName() + "#" + t.threadId());
            }
        }
        int[] fds = countDescriptors();
        return new Resources(names, countThreads(), fds[1], fds[0]);
    }

    /**
     * Threads the JDK's thread containers hold, platform and virtual, that are not ignored: the root container and
     * every container below it (each {@code newThreadPerTaskExecutor} is one). Counted from the containers' own
     * sets, never from a thread dump: {@code HotSpotDiagnosticMXBean.dumpThreads} crashes JDK 25.0.3 when a
     * virtual thread mounts or unmounts during the dump (JDK-8364343; see docs/RELIABILITY.md, "JVM crashes"), and
     * this count is taken under load. Needs {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED} (lib's
     * surefire {@code argLine}).
     */
    private static int countThreads() {
        try {
            Class<?> containers = Class.forName("jdk.internal.vm.ThreadContainers");
            return countIn(containers.getMethod("root").invoke(null), Class.forName("jdk.internal.vm.ThreadContainer"));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot count virtual threads: run the tests with --add-exports "
                    + "java.base/jdk.internal.vm=ALL-UNNAMED (lib/pom.xml's surefire argLine sets it)", e);
        }
    }

    private static int countIn(Object container, Class<?> type) throws ReflectiveOperationException {
        int n = 0;
        for (Object t : ((Stream<?>) type.getMethod("threads").invoke(container)).toList()) {
            String name = ((Thread) t).getName();
            if (IGNORED.stream().noneMatch(name::startsWith)) {
                n++;
            }
        }
        for (Object child : ((Stream<?>) type.getMethod("children").invoke(container)).toList()) {
            n += countIn(child, type);
        }
        return n;
    }

    /** Open descriptors and sockets among them, from one listing of {@code /proc/self/fd}; -1, -1 when absent. */
    private static int[] countDescriptors() throws IOException {
        if (!socketsCountable()) {
            return new int[] {-1, -1};
        }
        int all = 0;
        int sockets = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    all++;
                    if (link.startsWith("socket:")) {
                        sockets++;
                    }
                } catch (IOException e) {
                    // the descriptor closed while listing
                }
            }
        }
        return new int[] {all, sockets};
    }

    /** Threads present now that were not in {@code before}. */
    List<String> newThreadsSince(Resources before) {
        List<String> added = new ArrayList<>(platformThreads);
        added.removeAll(before.platformThreads);
        return added;
    }

    /**
     * Polls (every 20 ms, up to {@code maxMillis}) until nothing grew beyond {@code before}; returns the
     * last snapshot (the caller asserts on it).
     */
    static Resources settle(Resources before, long maxMillis) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + maxMillis * 1_000_000L;
        Resources now;
        do {
            now = take();
            if (now.newThreadsSince(before).isEmpty() && now.allThreads <= before.allThreads
                    && now.sockets <= before.sockets) {
                return now;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        return now;
    }
}
