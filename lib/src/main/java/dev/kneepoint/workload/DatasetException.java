package dev.kneepoint.workload;

import java.nio.file.Path;
import java.util.List;

/**
 * A dataset could not be read or has malformed lines. The message names the file and every
 * problem with its line number (the first 20 are listed); {@link #problems()} holds them all.
 */
public final class DatasetException extends RuntimeException {
    private static final int LISTED = 20;

    /** One problem: the 1-based line number (0 for the file as a whole) and what is wrong. */
    public record Problem(long line, String message) {
        @Override
        public String toString() {
            return line > 0 ? "line " + line + ": " + message : message;
        }
    }

    private final transient Path file;
    private final List<Problem> problems;

    public DatasetException(Path file, List<Problem> problems) {
        super(message(file, problems));
        this.file = file;
        this.problems = List.copyOf(problems);
    }

    public DatasetException(Path file, String message, Throwable cause) {
        super(file + ": " + message, cause);
        this.file = file;
        this.problems = List.of(new Problem(0, message));
    }

    public Path file() {
        return file;
    }

    public List<Problem> problems() {
        return problems;
    }

    private static String message(Path file, List<Problem> problems) {
        StringBuilder sb = new StringBuilder().append(file).append(": ").append(problems.size())
                .append(problems.size() == 1 ? " malformed line" : " malformed lines");
        for (int i = 0; i < Math.min(LISTED, problems.size()); i++) {
            sb.append("\n - ").append(problems.get(i));
        }
        if (problems.size() > LISTED) {
            sb.append("\n - ... and ").append(problems.size() - LISTED).append(" more");
        }
        return sb.toString();
    }
}
