package dev.kneepoint.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MagicsTest {
    static JShellSession session;
    static Magics magics;

    @BeforeAll
    static void start() {
        session = JShellSession.start(KernelMain.classPath(), "import java.util.*;");
        magics = new Magics(() -> session, new MavenResolver(Path.of("/nonexistent-repo"), Optional.empty()), () -> false);
    }

    @AfterAll
    static void stop() {
        session.close();
    }

    @Test
    void jarsAddsAJarThatLaterCodeCompilesAgainstAndLoads(@TempDir Path dir) throws Exception {
        Path jar = jarWith(dir, "acme", "Greeter", "public static String hi() { return \"hi from jar\"; }");
        Optional<CellValue> v = magics.run("%jars " + dir + "/*.jar\nacme.Greeter.hi()");
        assertThat(v.orElseThrow().value()).isEqualTo("hi from jar");
        assertThat(Magics.expand(dir.toString())).contains(dir, jar);
    }

    @Test
    void jarsNamesEverythingItCouldNotFind() {
        assertThatThrownBy(() -> magics.run("%jars /no/such.jar /nor/this/*.jar"))
                .isInstanceOf(CellException.MagicError.class)
                .hasMessageContaining("/no/such.jar").hasMessageContaining("/nor/this/*.jar");
    }

    @Test
    void mavenWithoutMavenFindsOnlyTheLocalRepository() {
        assertThatThrownBy(() -> magics.run("%maven org.example:absent:1.0"))
                .isInstanceOf(CellException.MagicError.class)
                .hasMessageContaining("org.example:absent:jar:1.0").hasMessageContaining("not in the local repository");
        assertThatThrownBy(() -> magics.run("%maven not-coordinates"))
                .isInstanceOf(CellException.MagicError.class).hasMessageContaining("group:artifact:version");
    }

    @Test
    void mavenCoordinatesMapToTheRepositoryLayout() throws Exception {
        var c = MavenResolver.Coordinates.parse("org.hdrhistogram:HdrHistogram:2.2.2");
        assertThat(c.pathIn(Path.of("/r"))).isEqualTo(Path.of("/r/org/hdrhistogram/HdrHistogram/2.2.2/HdrHistogram-2.2.2.jar"));
        assertThat(MavenResolver.pom(c)).contains("<artifactId>HdrHistogram</artifactId>").contains("<version>2.2.2</version>");
    }

    @Test
    void timePrintsWallTimeAndKeepsTheValue() throws Exception {
        PrintStream old = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true));
        Optional<CellValue> v;
        try {
            v = magics.run("%%time\nThread.sleep(20);\n40 + 2");
        } finally {
            System.setOut(old);
        }
        assertThat(v.orElseThrow().value()).isEqualTo(42);
        assertThat(out.toString()).matches("(?s)Wall time: \\d+\\.\\d ms\\R");
        double ms = Double.parseDouble(out.toString().replaceAll("(?s)Wall time: ([\\d.]+) ms.*", "$1"));
        // It slept 20 ms; compiling the snippets adds some, the upper bound is just "not absurd".
        assertThat(ms).isBetween(20.0, 5000.0);
    }

    @Test
    void unknownMagicsListTheKnownOnes() {
        assertThatThrownBy(() -> magics.run("%nope")).hasMessageContaining("%jars, %maven");
        assertThatThrownBy(() -> magics.run("%%nope\n1")).hasMessageContaining("%%time");
    }

    static Path jarWith(Path dir, String pkg, String cls, String body) throws Exception {
        Path src = dir.resolve("src").resolve(pkg).resolve(cls + ".java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "package " + pkg + "; public class " + cls + " { " + body + " }");
        Path classes = dir.resolve("classes");
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), src.toString());
        assertThat(rc).isZero();
        Path jar = dir.resolve(cls.toLowerCase() + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            String entry = pkg + "/" + cls + ".class";
            out.putNextEntry(new JarEntry(entry));
            out.write(Files.readAllBytes(classes.resolve(entry)));
            out.closeEntry();
        }
        return jar;
    }
}
