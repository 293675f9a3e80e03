package dev.kneepoint.telemetry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Recorded expositions and nvidia-smi output under {@code src/test/resources/fixtures}. */
final class Fixtures {
    private Fixtures() {}

    static String read(String path) {
        try (InputStream in = Fixtures.class.getResourceAsStream("/fixtures/" + path)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String metrics(String server) {
        return read("metrics/" + server + ".prom");
    }
}
