package dev.kneepoint.metrics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * The problems found while validating a value, collected so that one {@link IllegalArgumentException} reports
 * every one of them at once. Each check adds its problem when it fails; one of the {@code throw...IfAny} methods
 * ends the validation, in the message form the validated type has always used. Not thread-safe.
 *
 * <pre>{@code
 * Problems problems = new Problems();
 * problems.check(alpha > 0 && alpha < 1, "alpha must be in (0, 1), got " + alpha);
 * problems.throwIfAny("drift options");
 * }</pre>
 */
public final class Problems {
    private final List<String> found = new ArrayList<>();

    /** Adds {@code problem} unless {@code ok}; returns this. */
    public Problems check(boolean ok, String problem) {
        if (!ok) {
            found.add(problem);
        }
        return this;
    }

    /** Adds {@code problem}; returns this. */
    public Problems add(String problem) {
        found.add(problem);
        return this;
    }

    /** Adds every one of {@code more}, in order; returns this. */
    public Problems addAll(Collection<String> more) {
        found.addAll(more);
        return this;
    }

    /** True when no problem was found. */
    public boolean isEmpty() {
        return found.isEmpty();
    }

    /** The problems found, in the order they were added (an unmodifiable view). */
    public List<String> list() {
        return Collections.unmodifiableList(found);
    }

    /**
     * Throws when a problem was found: {@code Invalid <what> (N problem[s]): a; b}.
     *
     * @throws IllegalArgumentException listing every problem
     */
    public void throwIfAny(String what) {
        throwIfAny(what, ": ", "; ");
    }

    /**
     * Throws when a problem was found, one problem a line: {@code Invalid <what> (N problem[s]):\n  - a\n  - b}.
     *
     * @throws IllegalArgumentException listing every problem
     */
    public void throwListIfAny(String what) {
        throwListIfAny(what, "  - ");
    }

    /**
     * Throws when a problem was found, one problem a line, each line starting with {@code bullet}: with
     * {@code " - "}, {@code Invalid <what> (N problem[s]):\n - a\n - b}.
     *
     * @throws IllegalArgumentException listing every problem
     */
    public void throwListIfAny(String what, String bullet) {
        throwIfAny(what, ":\n" + bullet, "\n" + bullet);
    }

    /**
     * Throws when a problem was found, without a count: {@code <head>: a; b}.
     *
     * @throws IllegalArgumentException listing every problem
     */
    public void throwPlainIfAny(String head) {
        if (!found.isEmpty()) {
            throw new IllegalArgumentException(head + ": " + String.join("; ", found));
        }
    }

    private void throwIfAny(String what, String opening, String separator) {
        if (!found.isEmpty()) {
            throw new IllegalArgumentException("Invalid " + what + " (" + found.size() + " problem"
                    + (found.size() == 1 ? "" : "s") + ")" + opening + String.join(separator, found));
        }
    }
}
