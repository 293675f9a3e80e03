package dev.kneepoint.kernel;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Runs a cell: Java code goes to JShell, magics are handled here.
 * <ul>
 *   <li>{@code %jars PATH...}: jars, folders (the folder itself as a class folder, plus the jars in it) or
 *       globs ({@code lib/*.jar}, {@code deps/**.jar}) onto the class path.</li>
 *   <li>{@code %maven group:artifact:version...}: an artifact and its runtime dependencies, from the local
 *       Maven repository or Maven Central (see {@link MavenResolver}).</li>
 *   <li>{@code %%time}: runs the rest of the cell and prints its wall time.</li>
 *   <li>{@code %lsmagic}: lists the magics.</li>
 * </ul>
 */
final class Magics {
    static final List<String> LINE_MAGICS = List.of("jars", "maven", "lsmagic");
    static final List<String> CELL_MAGICS = List.of("time");

    private final Supplier<JShellSession> session;
    private final MavenResolver maven;
    private final java.util.function.BooleanSupplier interrupted;

    Magics(Supplier<JShellSession> session, MavenResolver maven, java.util.function.BooleanSupplier interrupted) {
        this.session = session;
        this.maven = maven;
        this.interrupted = interrupted;
    }

    /** Runs a cell; returns the value of its last piece when that is a Java expression. */
    Optional<CellValue> run(String cell) throws CellException, InterruptedException {
        return switch (CellParser.parse(cell)) {
            case CellParser.Plain p -> runPieces(p.pieces());
            case CellParser.WithCellMagic m -> runCellMagic(m);
        };
    }

    private Optional<CellValue> runPieces(List<CellParser.Piece> pieces) throws CellException, InterruptedException {
        Optional<CellValue> last = Optional.empty();
        for (CellParser.Piece piece : pieces) {
            if (interrupted.getAsBoolean()) {
                throw new CellException.Interrupted(last);
            }
            last = switch (piece) {
                case CellParser.Code c -> {
                    JShellSession s = session.get(); // may wait for JShell to finish starting
                    if (interrupted.getAsBoolean()) {
                        throw new CellException.Interrupted(last);
                    }
                    // checked again once the session runs the cell: an interrupt arriving in between is kept
                    yield s.eval(c.source(), interrupted);
                }
                case CellParser.LineMagic m -> {
                    lineMagic(m);
                    yield Optional.empty();
                }
            };
        }
        return last;
    }

    private Optional<CellValue> runCellMagic(CellParser.WithCellMagic m) throws CellException, InterruptedException {
        if (!m.name().equals("time")) {
            throw new CellException.MagicError("Unknown cell magic %%" + m.name() + "; cell magics are %%"
                    + String.join(", %%", CELL_MAGICS));
        }
        long t0 = System.nanoTime();
        try {
            return run(m.body());
        } finally {
            System.out.println("Wall time: " + duration(System.nanoTime() - t0));
        }
    }

    static String duration(long nanos) {
        double ms = nanos / 1e6;
        return ms < 1000 ? String.format(Locale.ROOT, "%.1f ms", ms) : String.format(Locale.ROOT, "%.3f s", ms / 1000);
    }

    private void lineMagic(CellParser.LineMagic m) throws CellException, InterruptedException {
        switch (m.name()) {
            case "jars", "classpath" -> addJars(m.args());
            case "maven" -> addMaven(m.args());
            case "lsmagic" -> System.out.println("line magics: %" + String.join(", %", LINE_MAGICS)
                    + "\ncell magics: %%" + String.join(", %%", CELL_MAGICS));
            default -> throw new CellException.MagicError("Unknown line magic %" + m.name() + "; line magics are %"
                    + String.join(", %", LINE_MAGICS));
        }
    }

    private void addJars(List<String> args) throws CellException {
        if (args.isEmpty()) {
            throw new CellException.MagicError("%jars: give one or more jars, folders or globs");
        }
        List<String> entries = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        for (String arg : args) {
            List<Path> found = expand(arg);
            if (found.isEmpty()) {
                missing.add(arg);
            }
            found.forEach(p -> entries.add(p.toAbsolutePath().normalize().toString()));
        }
        if (!missing.isEmpty()) {
            throw new CellException.MagicError("%jars: nothing found for " + missing);
        }
        report(session.get().addToClasspath(entries));
    }

    private void addMaven(List<String> args) throws CellException, InterruptedException {
        if (args.isEmpty()) {
            throw new CellException.MagicError("%maven: give one or more group:artifact:version coordinates");
        }
        List<MavenResolver.Coordinates> coords = new ArrayList<>();
        for (String a : args) {
            coords.add(MavenResolver.Coordinates.parse(a));
        }
        List<String> entries = new ArrayList<>();
        for (MavenResolver.Coordinates c : coords) {
            maven.resolve(c).forEach(p -> entries.add(p.toString()));
        }
        report(session.get().addToClasspath(entries));
    }

    private static void report(List<String> added) {
        System.out.println(added.isEmpty() ? "class path unchanged (already there)"
                : "class path + " + added.size() + (added.size() == 1 ? " entry: " : " entries: ")
                + String.join(", ", added.stream().map(p -> Path.of(p).getFileName().toString()).toList()));
    }

    /** A jar or class folder, a folder of jars, or a glob, relative to the kernel's working directory. */
    static List<Path> expand(String arg) {
        String a = arg.startsWith("~/") ? System.getProperty("user.home") + arg.substring(1) : arg;
        int glob = indexOfGlob(a);
        if (glob < 0) {
            Path p = Path.of(a);
            if (Files.isDirectory(p)) {
                List<Path> out = new ArrayList<>(List.of(p));
                out.addAll(list(p, 1, FileSystems.getDefault().getPathMatcher("glob:**.jar")));
                return out;
            }
            return Files.isRegularFile(p) ? List.of(p) : List.of();
        }
        int slash = a.lastIndexOf('/', glob);
        Path base = slash < 0 ? Path.of(".") : Path.of(slash == 0 ? "/" : a.substring(0, slash));
        String pattern = slash < 0 ? a : a.substring(slash + 1);
        int depth = pattern.contains("**") ? Integer.MAX_VALUE : (int) pattern.chars().filter(c -> c == '/').count() + 1;
        PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        return list(base, depth, matcher).stream().filter(Files::isRegularFile).toList();
    }

    private static int indexOfGlob(String s) {
        for (int i = 0; i < s.length(); i++) {
            if ("*?[{".indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }

    /** Paths under {@code dir}, sorted, whose path relative to {@code dir} matches. */
    private static List<Path> list(Path dir, int depth, PathMatcher relativeMatcher) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir, depth)) {
            return s.filter(p -> !p.equals(dir) && relativeMatcher.matches(dir.relativize(p)))
                    .map(dir::relativize).sorted().map(dir::resolve).toList();
        } catch (IOException e) {
            return List.of();
        }
    }
}
