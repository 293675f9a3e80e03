package dev.kneepoint.cli;

import dev.kneepoint.cli.peers.PeerComparison;
import dev.kneepoint.cli.peers.PeerOutputs;
import dev.kneepoint.cli.peers.PeerReport;
import dev.kneepoint.cli.peers.PeerRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code kneepoint peers-report DIR}: the last step of {@code bin/kneepoint bench --peers} (bench/peers.sh):
 * reads every run under {@code DIR/runs}, writes {@code DIR/results.md} and {@code DIR/results.json} and
 * prints the markdown.
 */
@Command(name = "peers-report", mixinStandardHelpOptions = true,
        description = "Compare Kneepoint with peer tools from a results folder of 'bin/kneepoint bench --peers'.")
final class PeerReportCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "Results folder (with env.txt and runs/)")
    Path dir;

    @Override
    public Integer call() throws IOException {
        if (!Files.isDirectory(dir.resolve("runs"))) {
            throw new IllegalArgumentException(dir + " has no runs/ folder; give the folder that bench/peers.sh printed");
        }
        Map<String, String> env = readEnv(dir.resolve("env.txt"));
        List<PeerRun> runs = PeerOutputs.readAll(dir);
        PeerComparison c = PeerComparison.of(runs);
        String md = PeerReport.markdown(env, runs, c);
        Files.writeString(dir.resolve("results.md"), md, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("results.json"), PeerReport.json(env, runs, c), StandardCharsets.UTF_8);
        System.out.print(md);
        System.out.println("\nwritten: " + dir.resolve("results.md") + ", " + dir.resolve("results.json"));
        return 0;
    }

    static Map<String, String> readEnv(Path file) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    env.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        return env;
    }
}
