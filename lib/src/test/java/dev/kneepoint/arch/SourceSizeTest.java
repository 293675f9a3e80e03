package dev.kneepoint.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Files a reader takes in at a glance: no main source file of the library over {@link #MAX_LINES} lines (the
 * structure issue's bound). A file that outgrows it is split by what it does, not trimmed to fit.
 */
class SourceSizeTest {
    static final int MAX_LINES = 400;

    @Test
    void noMainSourceFileIsOverTheBound() throws IOException {
        Path main = Path.of("src", "main", "java");
        assertThat(main).as("run from the lib module").isDirectory();
        List<String> over;
        try (Stream<Path> files = Files.walk(main)) {
            over = files.filter(p -> p.toString().endsWith(".java")).map(p -> {
                try {
                    long n = Files.readAllLines(p).size();
                    return n > MAX_LINES ? main.relativize(p) + " (" + n + " lines)" : null;
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).filter(java.util.Objects::nonNull).sorted().toList();
        }
        assertThat(over).as("main source files over %d lines", MAX_LINES).isEmpty();
    }
}
