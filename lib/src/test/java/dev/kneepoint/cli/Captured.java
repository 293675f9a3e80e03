package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** Runs a CLI call with System.out or System.err captured, for the command tests. */
final class Captured {
    private Captured() {
    }

    /** Runs {@code action} capturing {@code stream} (System.out or System.err); checks the exit code. */
    static String run(Callable<Integer> action, PrintStream stream, int expectedCode) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream capture = new PrintStream(buf, true, StandardCharsets.UTF_8);
        boolean isOut = stream == System.out;
        PrintStream original = isOut ? System.out : System.err;
        int code;
        try {
            if (isOut) {
                System.setOut(capture);
            } else {
                System.setErr(capture);
            }
            code = action.call();
        } finally {
            if (isOut) {
                System.setOut(original);
            } else {
                System.setErr(original);
            }
        }
        assertThat(code).as("exit code; captured:\n" + buf).isEqualTo(expectedCode);
        return buf.toString(StandardCharsets.UTF_8);
    }
}
