package dev.kneepoint.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * No code of Kneepoint, tests included, takes a JDK thread dump: {@code HotSpotDiagnosticMXBean.dumpThreads} crashes
 * JDK 25.0.3 with SIGSEGV when a virtual thread mounts or unmounts during the dump (JDK-8364343), and under load
 * they always do. The test suite's one crash came from such a call (docs/RELIABILITY.md, "JVM crashes");
 * {@code bench/jdk/DumpThreadsCrash.java} reproduces it. Count threads from the thread containers instead (the
 * tests' {@code Resources} does).
 */
@AnalyzeClasses(packages = "dev.kneepoint")
class NoThreadDumpTest {
    @ArchTest
    static final ArchRule noThreadDumps = noClasses().should()
            .callMethod(HotSpotDiagnosticMXBean.class, "dumpThreads", String.class,
                    HotSpotDiagnosticMXBean.ThreadDumpFormat.class)
            .because("a thread dump taken while virtual threads mount or unmount crashes JDK 25.0.3 (JDK-8364343)");
}
