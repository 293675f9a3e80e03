package dev.kneepoint.cli;

import java.util.function.Consumer;

/**
 * How an option group hands its options to a library builder: an option given on the command line is set, one left
 * out is not, so the builder keeps the library's default ({@link OptionDefaults} prints it in the help).
 */
final class Given {
    private Given() {
    }

    /** Sets {@code value} with {@code setter} when the option was given (not null). */
    static <T> void set(T value, Consumer<? super T> setter) {
        if (value != null) {
            setter.accept(value);
        }
    }
}
