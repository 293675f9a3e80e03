package dev.kneepoint.kernel;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jshell.execution.LocalExecutionControl;
import jdk.jshell.spi.ExecutionControl;
import jdk.jshell.spi.ExecutionControlProvider;
import jdk.jshell.spi.ExecutionEnv;

/**
 * JShell's in-process execution (snippet objects live in the kernel JVM; JShell's own stop mechanism,
 * which interrupts the snippet thread, is kept) that also remembers which wrapper class holds each
 * snippet variable, so the kernel can read the real object behind a value instead of its string.
 *
 * <p>JShell wraps every variable, including the {@code $1} temporaries of expressions, in a static field
 * of a generated class; the latest class declaring a field of that name holds the live variable.
 */
final class KernelExecutionControl extends LocalExecutionControl {

    private final Map<String, String> classOfVariable = new ConcurrentHashMap<>();
    private volatile boolean stopRequested;
    private long cell;

    /** A new cell starts: a stop requested for an earlier one no longer applies. */
    synchronized void beginCell(long cellNumber) {
        cell = cellNumber;
        stopRequested = false;
    }

    /**
     * Stops cell {@code cellNumber}'s user code, including code that has not started yet; does nothing when another
     * cell runs now. JShell's {@link #stop()} does nothing while a snippet is still being compiled (the first cell
     * after start-up compiles for most of a second), and starting user code clears its stop flag, so a stop asked
     * for then was lost and a {@code Thread.sleep} cell ran on. The request is kept until the next cell begins:
     * user code invoked after it does not run at all.
     */
    synchronized void requestStop(long cellNumber) throws EngineTerminationException, InternalException {
        if (cellNumber != cell) {
            return;
        }
        stopRequested = true;
        stop();
    }

    @Override
    protected String invoke(java.lang.reflect.Method doitMethod) throws Exception {
        if (stopRequested) {
            throw new StoppedException(); // reported by JShell as a stopped snippet, as a stopped loop is
        }
        return super.invoke(doitMethod);
    }

    @Override
    public void load(ClassBytecodes[] cbcs)
            throws ClassInstallException, NotImplementedException, EngineTerminationException {
        super.load(cbcs);
        remember(cbcs);
    }

    @Override
    public void redefine(ClassBytecodes[] cbcs)
            throws ClassInstallException, NotImplementedException, EngineTerminationException {
        super.redefine(cbcs);
        remember(cbcs);
    }

    private void remember(ClassBytecodes[] cbcs) {
        for (ClassBytecodes cbc : cbcs) {
            try {
                for (Field f : findClass(cbc.name()).getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) {
                        classOfVariable.put(f.getName(), cbc.name());
                    }
                }
            } catch (ClassNotFoundException | LinkageError e) {
                // Not a wrapper we can inspect: its variables just render as JShell's string.
            }
        }
    }

    /** The live object of the snippet variable {@code name}, when it can be read. */
    Optional<CellValue> value(String name) {
        String className = classOfVariable.get(name);
        if (className == null) {
            return Optional.empty();
        }
        try {
            Field f = findClass(className).getDeclaredField(name);
            f.setAccessible(true);
            return Optional.of(new CellValue(f.get(null)));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    /** Hands JShell this control and lets the session reach it. */
    static final class Provider implements ExecutionControlProvider {
        private volatile KernelExecutionControl control;

        @Override
        public String name() {
            return "kneepoint-local";
        }

        @Override
        public ExecutionControl generate(ExecutionEnv env, Map<String, String> parameters) {
            control = new KernelExecutionControl();
            return control;
        }

        KernelExecutionControl control() {
            return control;
        }
    }
}
