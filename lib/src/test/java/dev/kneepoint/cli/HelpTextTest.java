package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's {@code --help} renders without picocli warnings (e.g. an unescaped {@code %} in a description). */
class HelpTextTest {
    private static void collect(CommandLine cl, List<CommandLine> into) {
        into.add(cl);
        cl.getSubcommands().values().forEach(sub -> collect(sub, into));
    }

    @Test
    void everyHelpTextRendersWithoutWarnings() throws Exception {
        List<CommandLine> commands = new ArrayList<>();
        collect(Main.commandLine(), commands);
        assertThat(commands).hasSizeGreaterThan(5);
        for (CommandLine cl : commands) {
            StringWriter help = new StringWriter();
            String err = Captured.run(() -> {
                cl.usage(new PrintWriter(help, true));
                return 0;
            }, System.err, 0);
            assertThat(err).as("stderr of '%s --help'", cl.getCommandName()).doesNotContain("WARN").isEmpty();
            assertThat(help.toString()).as(cl.getCommandName()).contains("Usage:");
        }
    }
}
