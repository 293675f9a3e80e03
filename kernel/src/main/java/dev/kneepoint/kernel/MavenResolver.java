package dev.kneepoint.kernel;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Resolves {@code %maven group:artifact:version} to jars. With Maven on the PATH, the artifact and its
 * runtime dependencies are resolved by Maven itself (local repository first, then Maven Central or whatever
 * the user's settings name); without it, only an artifact already in the local repository is found, without
 * its dependencies.
 */
public final class MavenResolver {
    private static final Pattern PART = Pattern.compile("[A-Za-z0-9_.\\-]+");
    private static final long TIMEOUT_S = 300;

    private final Path localRepository;
    private final Optional<Path> mvn;

    /**
     * @param localRepository the local Maven repository ({@code ~/.m2/repository} by default)
     * @param mvn             the {@code mvn} executable, if any
     */
    public MavenResolver(Path localRepository, Optional<Path> mvn) {
        this.localRepository = localRepository;
        this.mvn = mvn;
    }

    /** The user's local repository and the {@code mvn} found on the PATH (or in MAVEN_HOME). */
    public static MavenResolver fromEnvironment() {
        String override = System.getProperty("maven.repo.local");
        Path repo = override != null ? Path.of(override) : Path.of(System.getProperty("user.home"), ".m2", "repository");
        return new MavenResolver(repo, findMvn());
    }

    private static Optional<Path> findMvn() {
        List<Path> candidates = new ArrayList<>();
        String home = System.getenv("MAVEN_HOME");
        if (home != null) {
            candidates.add(Path.of(home, "bin", "mvn"));
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isBlank()) {
                    candidates.add(Path.of(dir, "mvn"));
                }
            }
        }
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }

    /** Maven coordinates {@code group:artifact[:extension[:classifier]]:version}. */
    public record Coordinates(String groupId, String artifactId, String extension, String classifier, String version) {
        /** Parses coordinates, naming every malformed part at once. */
        public static Coordinates parse(String text) throws CellException.MagicError {
            String[] p = text.strip().split(":");
            if (p.length < 3 || p.length > 5) {
                throw new CellException.MagicError("%maven: expected group:artifact:version (or group:artifact:"
                        + "extension[:classifier]:version), got '" + text + "'");
            }
            List<String> bad = Arrays.stream(p).filter(s -> !PART.matcher(s).matches()).toList();
            if (!bad.isEmpty()) {
                throw new CellException.MagicError("%maven: malformed part(s) " + bad + " in '" + text + "'");
            }
            return switch (p.length) {
                case 3 -> new Coordinates(p[0], p[1], "jar", "", p[2]);
                case 4 -> new Coordinates(p[0], p[1], p[2], "", p[3]);
                default -> new Coordinates(p[0], p[1], p[2], p[3], p[4]);
            };
        }

        /** The file's path inside a Maven repository. */
        public Path pathIn(Path repository) {
            Path dir = repository;
            for (String g : groupId.split("\\.")) {
                dir = dir.resolve(g);
            }
            String file = artifactId + "-" + version + (classifier.isEmpty() ? "" : "-" + classifier) + "." + extension;
            return dir.resolve(artifactId).resolve(version).resolve(file);
        }

        @Override
        public String toString() {
            return groupId + ":" + artifactId + ":" + extension + (classifier.isEmpty() ? "" : ":" + classifier) + ":" + version;
        }
    }

    /** The artifact's jar and, when Maven is available, its runtime dependencies. */
    public List<Path> resolve(Coordinates c) throws CellException.MagicError, InterruptedException {
        if (mvn.isPresent()) {
            return resolveWithMaven(c, mvn.get());
        }
        Path local = c.pathIn(localRepository);
        if (Files.isRegularFile(local)) {
            return List.of(local);
        }
        throw new CellException.MagicError("%maven: " + c + " is not in the local repository " + localRepository
                + " and Maven (mvn) is not on the PATH to download it");
    }

    private List<Path> resolveWithMaven(Coordinates c, Path mvnExe) throws CellException.MagicError, InterruptedException {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("kneepoint-maven");
            Files.writeString(dir.resolve("pom.xml"), pom(c), StandardCharsets.UTF_8);
            Path out = dir.resolve("classpath.txt");
            Path log = dir.resolve("mvn.log");
            List<String> cmd = new ArrayList<>(List.of(mvnExe.toString(), "-q", "-B", "-f", dir.resolve("pom.xml").toString(),
                    "dependency:build-classpath", "-Dmdep.includeScope=runtime", "-Dmdep.outputFile=" + out));
            String override = System.getProperty("maven.repo.local");
            if (override != null) {
                cmd.add("-Dmaven.repo.local=" + override);
            }
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                    throw new CellException.MagicError("%maven: Maven did not finish within " + TIMEOUT_S + " s");
                }
            } finally {
                p.destroy();
            }
            if (p.exitValue() != 0 || !Files.exists(out)) {
                List<String> tail = Files.readAllLines(log).stream().filter(l -> l.contains("ERROR")).limit(5).toList();
                throw new CellException.MagicError("%maven: could not resolve " + c + "\n" + String.join("\n", tail));
            }
            String cp = Files.readString(out).strip();
            return cp.isEmpty() ? List.of() : Arrays.stream(cp.split(File.pathSeparator)).map(Path::of).toList();
        } catch (IOException e) {
            throw new CellException.MagicError("%maven: " + e.getMessage());
        } finally {
            deleteQuietly(dir);
        }
    }

    static String pom(Coordinates c) {
        return """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <groupId>dev.kneepoint.kernel</groupId>
                  <artifactId>maven-magic</artifactId>
                  <version>1</version>
                  <dependencies>
                    <dependency>
                      <groupId>%s</groupId>
                      <artifactId>%s</artifactId>
                      <version>%s</version>
                      <type>%s</type>
                %s    </dependency>
                  </dependencies>
                </project>
                """.formatted(c.groupId(), c.artifactId(), c.version(), c.extension(),
                c.classifier().isEmpty() ? "" : "      <classifier>" + c.classifier() + "</classifier>\n");
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temp folder left behind is harmless
        }
    }
}
