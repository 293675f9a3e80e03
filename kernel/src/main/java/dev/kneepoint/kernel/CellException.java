package dev.kneepoint.kernel;

import java.util.List;
import java.util.Optional;

/**
 * Why a cell did not complete normally, already formatted for a notebook: a compile error lists the
 * diagnostics with the offending source line, a runtime error names the exception and a few frames, an
 * interrupt says so. None of them carries a multi-page stack trace.
 */
public abstract sealed class CellException extends Exception
        permits CellException.CompileError, CellException.RuntimeError, CellException.Interrupted,
                CellException.MagicError {

    private final List<String> lines;

    CellException(String message, List<String> lines) {
        super(message, null, false, false);
        this.lines = List.copyOf(lines);
    }

    /** The error as the lines the notebook shows (no embedded newlines). */
    public List<String> lines() {
        return lines;
    }

    /** The snippet did not compile. */
    public static final class CompileError extends CellException {
        public CompileError(String message, List<String> lines) {
            super(message, lines);
        }
    }

    /** The snippet threw. {@link #exceptionClass()} is the user exception's class name. */
    public static final class RuntimeError extends CellException {
        private final String exceptionClass;

        public RuntimeError(String exceptionClass, String message, List<String> lines) {
            super(message, lines);
            this.exceptionClass = exceptionClass;
        }

        public String exceptionClass() {
            return exceptionClass;
        }
    }

    /**
     * The cell was interrupted. When its last snippet still produced a value (a sweep that returned its
     * partial results on interrupt), that value is kept here and in the snippet's variable.
     */
    public static final class Interrupted extends CellException {
        private final transient Optional<CellValue> partial;

        public Interrupted(Optional<CellValue> partial) {
            super("Cell interrupted", List.of(partial.isPresent()
                    ? "Interrupted: the cell was stopped; its value so far (partial results) is shown above."
                    : "Interrupted: the cell was stopped; variables assigned so far keep their values."));
            this.partial = partial;
        }

        public Optional<CellValue> partial() {
            return partial;
        }
    }

    /** A magic ({@code %jars}, {@code %maven} ...) was misused or failed. */
    public static final class MagicError extends CellException {
        public MagicError(String message) {
            super(message, List.of(message.split("\n", -1)));
        }
    }
}
