package dev.kneepoint.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import jdk.jshell.SourceCodeAnalysis.Completeness;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class JShellSessionTest {
    static JShellSession session;

    @BeforeAll
    static void start() throws Exception {
        session = JShellSession.start(KernelMain.classPath(), KernelMain.startupScript());
    }

    @AfterAll
    static void stop() {
        session.close();
    }

    @Test
    void lastExpressionIsTheRealObjectNotItsString() throws Exception {
        Optional<CellValue> v = session.eval("var xs = new ArrayList<Integer>(List.of(1, 2));\nxs.add(3);\nxs");
        assertThat(v).isPresent();
        assertThat(v.get().value()).isInstanceOf(ArrayList.class).isEqualTo(List.of(1, 2, 3));
        assertThat(session.eval("6 * 7").orElseThrow().value()).isEqualTo(42);
        assertThat(session.eval("int declared = 5;")).isEmpty();
    }

    /**
     * An interrupt that lands while a cell is being handed to JShell (after the kernel's last check, before the
     * session is marked running) is kept: the session checks the kernel's flag once it runs the cell, and runs
     * none of it.
     */
    @Test
    void aCellInterruptedBeforeItRunsRunsNothing() throws Exception {
        assertThatThrownBy(() -> session.eval("int neverDeclared = 1;", () -> true))
                .isInstanceOf(CellException.Interrupted.class);
        assertThat(session.eval("int declaredAfter = 2;", () -> false)).isEmpty();
        assertThat(session.eval("declaredAfter").orElseThrow().value()).isEqualTo(2);
        assertThatThrownBy(() -> session.eval("neverDeclared")).isInstanceOf(CellException.class);
    }

    @Test
    void everyStartupImportWorks() throws Exception {
        assertThat(session.startupProblems()).isEmpty();
        // One name from each imported library package, resolved without qualification.
        for (String name : List.of("Kneepoint", "Sweep", "SweepHandle", "RunResult", "StepSequence", "RequestSpec", "Tables", "Plots",
                "TargetConfig", "Simulator", "SimConfig", "Table", "XYChart", "Duration")) {
            assertThat(session.eval(name + ".class.getName()")).as(name).isPresent();
        }
    }

    @Test
    void startupImportsTheLibraryAndTheNotebookHelpers() throws Exception {
        Object v = session.eval("Distribution.empty().count()").orElseThrow().value();
        assertThat(v).isEqualTo(0L);
        Object d = session.eval("Duration.ofSeconds(2)").orElseThrow().value();
        // Same class loader as the kernel: renderers can match library types by instanceof.
        assertThat(session.eval("Distribution.empty()").orElseThrow().value())
                .isInstanceOf(dev.kneepoint.metrics.Distribution.class);
        assertThat(d).isEqualTo(java.time.Duration.ofSeconds(2));
    }

    /**
     * The resource is the one startup script, shared with {@code bin/kneepoint jshell} (where the kernel's classes are
     * not on the class path): the notebook helpers' static import is added by the kernel only, and resolves there.
     */
    @Test
    void theSharedScriptLeavesTheNotebookHelpersToTheKernel() throws Exception {
        String shared;
        try (var in = KernelMain.class.getResourceAsStream("startup.jshell")) {
            shared = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        assertThat(shared).doesNotContain("dev.kneepoint.kernel");
        assertThat(KernelMain.startupScript()).startsWith(shared).endsWith(KernelMain.NOTEBOOK_IMPORT + "\n");
        // Compiles only if display(...) is imported; declaring the lambda sends nothing to a notebook.
        assertThat(session.eval("java.util.function.Function<Object, String> shown = v -> display(v);")).isEmpty();
    }

    @Test
    void aTypoGivesAShortCompileErrorPointingAtIt() {
        assertThatThrownBy(() -> session.eval("int a = 1;\nint b = udefinedName + 1;"))
                .isInstanceOfSatisfying(CellException.CompileError.class, e -> {
                    assertThat(e.lines().get(0)).startsWith("error: cannot find symbol");
                    assertThat(String.join("\n", e.lines())).contains("udefinedName + 1").contains("^");
                    assertThat(e.lines()).hasSizeLessThan(8);
                });
    }

    @Test
    void aRuntimeExceptionIsNamedWithAFewFramesOnly() {
        assertThatThrownBy(() -> session.eval("int zero = 0;\n10 / zero"))
                .isInstanceOfSatisfying(CellException.RuntimeError.class, e -> {
                    assertThat(e.exceptionClass()).isEqualTo("java.lang.ArithmeticException");
                    assertThat(e.lines().get(0)).isEqualTo("java.lang.ArithmeticException: / by zero");
                    assertThat(e.lines()).hasSizeLessThanOrEqualTo(ErrorFormat.MAX_FRAMES + 2);
                });
    }

    @Test
    void interruptStopsABusyLoopWithinASecond() throws Exception {
        assertStopsWithinASecond("long spins = 0; while (true) { spins++; }");
        assertThat(session.eval("1 + 1").orElseThrow().value()).isEqualTo(2);
    }

    @Test
    void interruptStopsABlockedLibraryCallAndKeepsItsPartialResult() throws Exception {
        CellException.Interrupted e = assertStopsWithinASecond(
                "var partial = dev.kneepoint.kernel.StandInSweep.runUntilInterrupted();");
        assertThat(e).isNotNull();
        Object size = session.eval("partial.size()").orElseThrow().value();
        // It ran ~300 ms at one step per 5 ms before the interrupt: some steps, on a noisy machine at least 1.
        assertThat((Integer) size).isGreaterThan(0);
    }

    /**
     * An interrupt while the cell is still being compiled, before its code runs: JShell's own stop does nothing
     * then, and the code started afterwards used to sleep on (the kernel's first cell after start-up compiles for
     * most of a second, so an early interrupt was lost about one time in four in the kernel tests). The block of
     * 300 statements makes the compile long enough for the interrupt, sent the moment the cell runs, to land in it.
     * Without the fix this test times out.
     */
    @Test
    void interruptWhileTheCellCompilesStopsItWhenItStarts() throws Exception {
        StringBuilder cell = new StringBuilder("{ long z0 = 1;");
        for (int i = 1; i < 300; i++) {
            cell.append(" long z").append(i).append(" = z").append(i - 1).append(" * 31 + ").append(i).append(';');
        }
        cell.append(" Thread.sleep(600_000); }");
        assertStopsWithinASecond(cell.toString(), 0);
        assertThat(session.eval("2 + 2").orElseThrow().value()).isEqualTo(4);
    }

    private static CellException.Interrupted assertStopsWithinASecond(String cell) throws Exception {
        return assertStopsWithinASecond(cell, 300);
    }

    private static CellException.Interrupted assertStopsWithinASecond(String cell, long afterMs) throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                session.eval(cell);
                outcome.complete(null);
            } catch (Throwable ex) {
                outcome.complete(ex);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!session.isRunning() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        Thread.sleep(afterMs);
        long t0 = System.nanoTime();
        session.interrupt();
        // Stopping takes ~50 ms here; 1 s is the requirement, so a pass is meaningful and a miss is a defect.
        Throwable ex = outcome.get(1, TimeUnit.SECONDS);
        long tookMs = (System.nanoTime() - t0) / 1_000_000;
        t.join(1000);
        assertThat(tookMs).isLessThan(1000);
        assertThat(ex).isInstanceOf(CellException.Interrupted.class);
        return (CellException.Interrupted) ex;
    }

    @Test
    void completenessFollowsJShell() {
        assertThat(session.completeness("int q = 1;")).isEqualTo(Completeness.COMPLETE);
        assertThat(session.completeness("for (int i = 0; i < 3; i++) {")).isEqualTo(Completeness.DEFINITELY_INCOMPLETE);
        assertThat(session.completeness("int a = 1; int b = 2;")).isEqualTo(Completeness.COMPLETE);
    }
}
