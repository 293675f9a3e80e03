import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Reproduces the JVM crash the test suite once hit (docs/RELIABILITY.md, "JVM crashes"): a JSON thread dump taken
 * while virtual threads park, unpark, start and end, as they do under load. On Temurin 25.0.3 it dies with SIGSEGV in
 * {@code GetThreadSnapshotClosure::do_thread} within seconds (JDK-8364343). {@code count} instead counts the same
 * threads from the JDK's thread containers, the way the tests now do, and survives.
 *
 * <pre>
 * java -XX:ErrorFile=/tmp/hs_err_%p.log bench/jdk/DumpThreadsCrash.java 20          # dump: crashes (exit 134)
 * java --add-exports java.base/jdk.internal.vm=ALL-UNNAMED bench/jdk/DumpThreadsCrash.java 20 count   # survives
 * </pre>
 */
public class DumpThreadsCrash {
    public static void main(String[] args) throws Exception {
        long seconds = Long.parseLong(args[0]);
        boolean dump = args.length < 2 || !args[1].equals("count");
        for (int i = 0; i < 64; i++) { // parked and unparked every 50 µs
            Thread.ofVirtual().start(() -> {
                while (true) {
                    LockSupport.parkNanos(50_000);
                }
            });
        }
        Semaphore live = new Semaphore(200); // short-lived ones, at most 200 at a time
        Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                live.acquireUninterruptibly();
                Thread.ofVirtual().start(() -> {
                    LockSupport.parkNanos(20_000);
                    live.release();
                });
            }
        });
        var bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        Path file = Files.createTempFile("threads", ".json");
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long n = 0;
        while (System.nanoTime() < end) {
            if (dump) {
                Files.deleteIfExists(file);
                bean.dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
            } else {
                count(Class.forName("jdk.internal.vm.ThreadContainers").getMethod("root").invoke(null));
            }
            n++;
        }
        Files.deleteIfExists(file);
        System.out.printf("survived %d %s in %d s on %s%n", n, dump ? "thread dumps" : "container counts", seconds,
                Runtime.version());
        System.exit(0);
    }

    static long count(Object container) throws Exception {
        Class<?> type = Class.forName("jdk.internal.vm.ThreadContainer");
        long k = ((Stream<?>) type.getMethod("threads").invoke(container)).count();
        for (Object child : ((Stream<?>) type.getMethod("children").invoke(container)).toList()) {
            k += count(child);
        }
        return k;
    }
}
