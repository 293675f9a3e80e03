package dev.kneepoint.cli.bench;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The machine and checkout a benchmark ran on.
 *
 * @param cpuModel    {@code model name} of /proc/cpuinfo (else {@code os.arch})
 * @param cores       processors available to the JVM
 * @param memoryBytes physical memory
 * @param os          distribution ({@code PRETTY_NAME} of /etc/os-release) or {@code os.name}
 * @param kernel      {@code os.name os.version os.arch}
 * @param jdk         vendor version and runtime version of the JDK running the parts
 * @param gc          the default collectors of that JDK on this machine (the parts' JVMs use the defaults
 *                    except where their command line says otherwise)
 * @param gitCommit   HEAD of the checkout, or "unknown"
 * @param gitDirty    whether the checkout has changes (untracked files included); null when unknown
 * @param date        when the run started
 */
record Machine(String cpuModel, int cores, long memoryBytes, String os, String kernel, String jdk, String gc,
        String gitCommit, Boolean gitDirty, Instant date) {

    /** Describes this machine, the running JDK and the git checkout at {@code root}. */
    public static Machine probe(Path root) throws InterruptedException {
        String cpu = System.getProperty("os.arch");
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).strip())
                    .findFirst().orElse(cpu);
        } catch (IOException e) {
            // not Linux: keep os.arch
        }
        String os = System.getProperty("os.name");
        try {
            os = Files.readAllLines(Path.of("/etc/os-release"), StandardCharsets.UTF_8).stream()
                    .filter(l -> l.startsWith("PRETTY_NAME=")).map(l -> l.substring(12).replace("\"", ""))
                    .findFirst().orElse(os);
        } catch (IOException e) {
            // keep os.name
        }
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        String jdk = System.getProperty("java.vendor.version", System.getProperty("java.vendor")) + " "
                + System.getProperty("java.runtime.version");
        String gc = ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
                .collect(Collectors.joining(", "));
        String commit = git(root, "rev-parse", "HEAD");
        String status = git(root, "status", "--porcelain");
        return new Machine(cpu, Runtime.getRuntime().availableProcessors(), memory, os,
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                jdk, gc, commit == null ? "unknown" : commit.strip(), status == null ? null : !status.isBlank(), Instant.now());
    }

    /** Output of {@code git -C root ARGS}, or null when git is missing, fails or takes more than 30 s. */
    private static String git(Path root, String... args) throws InterruptedException {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", root.toString()));
        cmd.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return null;
            }
            return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            return null;
        }
    }
}
