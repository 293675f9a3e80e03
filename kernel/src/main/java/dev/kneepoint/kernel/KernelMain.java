package dev.kneepoint.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Starts the kernel: {@code java -cp kneepoint-kernel.jar:lib/* dev.kneepoint.kernel.KernelMain CONNECTION_FILE}.
 * JShell (about two seconds) starts on its own thread while the sockets bind, so the client sees the kernel
 * alive at once and the first cell waits only for what is left. The kernel exits when its parent does.
 */
public final class KernelMain {
    private KernelMain() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: KernelMain CONNECTION_FILE");
            System.exit(2);
        }
        quietLogging();
        KernelConnectionProperties props = KernelConnectionProperties.parse(Files.readString(Path.of(args[0])));
        CompletableFuture<JShellSession> session = startSessionAsync();
        JupyterConnection connection = new KernelConnection(props);
        KneepointKernel kernel = new KneepointKernel(session, MavenResolver.fromEnvironment());
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        ProcessHandle.current().parent().ifPresent(p -> p.onExit().thenRun(() -> Runtime.getRuntime().halt(0)));
        connection.waitUntilClose();
        System.exit(0);
    }

    /** JShell with this JVM's class path (library, renderers' dependencies) and the startup script. */
    static CompletableFuture<JShellSession> startSessionAsync() {
        CompletableFuture<JShellSession> f = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("kneepoint-jshell-start").start(() -> {
            try {
                JShellSession session = JShellSession.start(classPath(), startupScript());
                // Goes to the kernel's log (the terminal running Jupyter), not to a notebook.
                session.startupProblems().forEach(p -> System.err.println("kneepoint kernel startup: " + p));
                f.complete(session);
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        return f;
    }

    static List<String> classPath() {
        return Arrays.stream(System.getProperty("java.class.path", "").split(File.pathSeparator))
                .filter(s -> !s.isBlank()).toList();
    }

    /** Kernel only: the notebook helpers ({@code display}, {@code watch}, {@code live}) are not on plain JShell's path. */
    static final String NOTEBOOK_IMPORT = "import static dev.kneepoint.kernel.Notebook.*;";

    /**
     * The startup script shared with {@code bin/kneepoint jshell} (the resource {@code startup.jshell}), plus the
     * kernel's own {@link #NOTEBOOK_IMPORT}.
     */
    static String startupScript() throws IOException {
        try (InputStream in = KernelMain.class.getResourceAsStream("startup.jshell")) {
            if (in == null) {
                throw new IOException("startup.jshell missing from the kernel jar");
            }
            String shared = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return (shared.endsWith("\n") ? shared : shared + "\n") + NOTEBOOK_IMPORT + "\n";
        }
    }

    private static void quietLogging() {
        Logger root = Logger.getLogger("");
        root.setLevel(Level.WARNING);
        for (var h : root.getHandlers()) {
            h.setLevel(Level.WARNING);
        }
    }
}
