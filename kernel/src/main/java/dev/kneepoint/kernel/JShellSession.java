package dev.kneepoint.kernel;

import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import jdk.jshell.Diag;
import jdk.jshell.ExpressionSnippet;
import jdk.jshell.JShell;
import jdk.jshell.JShellException;
import jdk.jshell.Snippet;
import jdk.jshell.SnippetEvent;
import jdk.jshell.SourceCodeAnalysis;
import jdk.jshell.SourceCodeAnalysis.CompletionInfo;
import jdk.jshell.SourceCodeAnalysis.Completeness;
import jdk.jshell.VarSnippet;

/**
 * One JShell evaluating cells inside the kernel JVM: cells are split into snippets and run in order,
 * stopping at the first error; the real object of the last expression is handed back.
 *
 * <p>Threading: {@link #eval}, completion, inspection and class-path changes are serialized on one lock
 * (JShell's analysis races with class-path changes); {@link #interrupt()} may be called from any thread
 * while a cell runs. It sets JShell's stop flag (busy loops in snippet code end at their next back-branch)
 * and interrupts the snippet thread (a blocked, interruptible call such as a running sweep returns).
 */
public final class JShellSession implements AutoCloseable {

    private final JShell shell;
    private final KernelExecutionControl control;
    private final Object lock = new Object();
    private final Set<String> classPath = new LinkedHashSet<>();
    private final List<String> startupProblems = new ArrayList<>();
    private volatile boolean interrupted;
    private volatile long cells; // cells evaluated so far; written under lock
    private volatile boolean running;

    private JShellSession(JShell shell, KernelExecutionControl control) {
        this.shell = shell;
        this.control = control;
    }

    /**
     * Starts JShell with {@code classPath} (joined into one call, before any analysis runs) and evaluates
     * {@code startup} (import statements and helpers) snippet by snippet. A startup snippet that fails (an
     * import of a package not on this class path) is skipped and listed in {@link #startupProblems()}.
     */
    public static JShellSession start(List<String> classPath, String startup) {
        KernelExecutionControl.Provider provider = new KernelExecutionControl.Provider();
        JShell shell = JShell.builder()
                .executionEngine(provider, Map.of())
                .compilerOptions("-proc:none", "-Xlint:-options")
                .build();
        JShellSession session = new JShellSession(shell, provider.control());
        List<String> cp = classPath.stream().filter(p -> !p.isBlank()).distinct().toList();
        if (!cp.isEmpty()) {
            shell.addToClasspath(String.join(File.pathSeparator, cp));
            session.classPath.addAll(cp);
        }
        if (startup != null && !startup.isBlank()) {
            for (String line : startup.split("\n")) {
                if (line.isBlank() || line.strip().startsWith("//")) {
                    continue;
                }
                try {
                    session.eval(line);
                } catch (CellException e) {
                    session.startupProblems.add(line.strip() + " -> " + e.getMessage());
                }
            }
        }
        return session;
    }

    /** Startup lines that did not evaluate, with the reason. */
    public List<String> startupProblems() {
        return List.copyOf(startupProblems);
    }

    /** Evaluates a cell; returns the value of its last snippet when that is an expression. */
    public Optional<CellValue> eval(String code) throws CellException {
        return eval(code, () -> false);
    }

    /**
     * Evaluates a cell unless {@code cancelled} says it was interrupted before it started. The check comes after
     * the session is marked running, and an interrupter sets its flag before it looks at {@link #isRunning()}, so
     * an interrupt that arrives while the cell is being handed to JShell is never lost: either this check sees
     * the flag, or {@link #interrupt()} sees the cell running and stops it.
     */
    public Optional<CellValue> eval(String code, java.util.function.BooleanSupplier cancelled) throws CellException {
        synchronized (lock) {
            interrupted = false;
            control.beginCell(++cells);
            running = true;
            try {
                if (cancelled.getAsBoolean()) {
                    throw new CellException.Interrupted(Optional.empty());
                }
                return evalLocked(code);
            } finally {
                running = false;
                Thread.interrupted();
            }
        }
    }

    private Optional<CellValue> evalLocked(String code) throws CellException {
        SourceCodeAnalysis analysis = shell.sourceCodeAnalysis();
        String remaining = code;
        Optional<CellValue> last = Optional.empty();
        while (!remaining.isBlank()) {
            if (interrupted) {
                throw new CellException.Interrupted(last);
            }
            CompletionInfo info = analysis.analyzeCompletion(remaining);
            if (info.completeness() == Completeness.EMPTY) {
                break;
            }
            String source;
            if (info.completeness().isComplete()) {
                source = info.source();
                remaining = info.remaining();
            } else {
                source = remaining;
                remaining = "";
            }
            last = run(source);
        }
        if (interrupted) {
            throw new CellException.Interrupted(last);
        }
        return last;
    }

    private Optional<CellValue> run(String source) throws CellException {
        List<SnippetEvent> events = shell.eval(source);
        Optional<CellValue> value = Optional.empty();
        List<String> compileErrors = new ArrayList<>();
        for (SnippetEvent e : events) {
            if (e.causeSnippet() != null) {
                continue;
            }
            Snippet s = e.snippet();
            if (e.status() == Snippet.Status.REJECTED) {
                List<Diag> diags = shell.diagnostics(s).toList();
                if (diags.isEmpty()) {
                    compileErrors.add("error: cannot compile: " + s.source().strip());
                }
                for (Diag d : diags) {
                    compileErrors.addAll(ErrorFormat.diagnostic(s.source(), d));
                }
                continue;
            }
            JShellException ex = e.exception();
            if (ex != null) {
                if (interrupted) {
                    throw new CellException.Interrupted(Optional.empty());
                }
                List<String> lines = ErrorFormat.exception(ex);
                String cls = ex instanceof jdk.jshell.EvalException ee ? ee.getExceptionClassName() : "UnresolvedReference";
                throw new CellException.RuntimeError(cls, ErrorFormat.headline(ex), lines);
            }
            if (e.status() == Snippet.Status.RECOVERABLE_DEFINED || e.status() == Snippet.Status.RECOVERABLE_NOT_DEFINED) {
                List<String> unresolved = shell.unresolvedDependencies(declarationOf(s)).toList();
                if (!unresolved.isEmpty()) {
                    System.err.println("note: " + s.source().strip().lines().findFirst().orElse("")
                            + " is usable once " + unresolved + " is declared");
                }
            }
            value = valueOf(s, e);
        }
        if (!compileErrors.isEmpty()) {
            throw new CellException.CompileError(compileErrors.get(0), compileErrors);
        }
        return value;
    }

    private static jdk.jshell.DeclarationSnippet declarationOf(Snippet s) {
        return (jdk.jshell.DeclarationSnippet) s;
    }

    private Optional<CellValue> valueOf(Snippet s, SnippetEvent e) {
        String name = switch (s) {
            case VarSnippet v when v.subKind() == Snippet.SubKind.TEMP_VAR_EXPRESSION_SUBKIND -> v.name();
            case ExpressionSnippet x -> x.name();
            default -> null;
        };
        if (name == null) {
            return Optional.empty();
        }
        Optional<CellValue> live = control.value(name);
        return live.isPresent() ? live : Optional.ofNullable(e.value()).map(CellValue::new);
    }

    /**
     * Stops the running cell, if any: returns at once; the cell ends within a moment (busy snippet loops at
     * their next iteration, blocked interruptible calls at once).
     */
    public void interrupt() {
        if (!running) {
            return;
        }
        interrupted = true;
        long cell = cells;
        stopNow(cell);
        // JShell's stop can miss user code that starts a moment later (its stop flag is reset as the snippet
        // starts): ask again every 100 ms, off the interrupting thread, until this cell has ended. A later cell
        // is never stopped: the control ignores a request for a cell other than the one it runs.
        Thread.ofVirtual().name("kneepoint-interrupt").start(() -> {
            while (running && cells == cell) {
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
                stopNow(cell);
            }
        });
    }

    private void stopNow(long cell) {
        try {
            control.requestStop(cell);
        } catch (jdk.jshell.spi.ExecutionControl.ExecutionControlException e) {
            shell.stop(); // the control could not stop it: JShell's own path
        }
    }

    /** Whether a cell is running now. */
    public boolean isRunning() {
        return running;
    }

    /** Adds class-path entries (joined into one JShell call) that are not on it yet; returns those added. */
    public List<String> addToClasspath(List<String> entries) {
        synchronized (lock) {
            List<String> added = entries.stream().filter(p -> !p.isBlank() && !classPath.contains(p)).distinct().toList();
            if (!added.isEmpty()) {
                shell.addToClasspath(String.join(File.pathSeparator, added));
                classPath.addAll(added);
            }
            return added;
        }
    }

    /** The JShell analysis, to be used under {@link #withAnalysis}. */
    public <T> T withAnalysis(java.util.function.Function<SourceCodeAnalysis, T> use) {
        synchronized (lock) {
            return use.apply(shell.sourceCodeAnalysis());
        }
    }

    /** Whether code is complete, incomplete or invalid Java as JShell sees it, snippet by snippet. */
    public Completeness completeness(String code) {
        return withAnalysis(a -> {
            String rest = code;
            Completeness c = Completeness.EMPTY;
            while (!rest.isBlank()) {
                CompletionInfo info = a.analyzeCompletion(rest);
                c = info.completeness();
                if (!c.isComplete() || info.remaining() == null) {
                    return c;
                }
                rest = info.remaining();
            }
            return c;
        });
    }

    @Override
    public void close() {
        shell.close();
    }
}
