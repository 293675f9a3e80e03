package dev.kneepoint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.kneepoint.sim.SimConfig;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class SimCommandTest {
    private static SimConfig parse(String... args) {
        CommandLine cl = Main.commandLine();
        CommandLine.ParseResult parsed = cl.parseArgs(args);
        return ((SimCommand) parsed.subcommand().commandSpec().userObject()).config();
    }

    @Test
    void anOverrideGivenReplacesThePresetsValueAndOneLeftOutKeepsIt() {
        SimConfig preset = parse("sim", "--port", "0");
        SimConfig changed = parse("sim", "--port", "0", "--max-num-seqs", "3", "--decode-us", "50",
                "--step-overhead", "7ms", "--jitter", "0");
        assertEquals(3, changed.maxNumSeqs());
        assertEquals(50_000, changed.decodeNanosPerSeq(), 1e-9, "microseconds on the command line, nanoseconds inside");
        assertEquals(7_000_000, changed.stepOverheadNanos());
        assertEquals(0, changed.jitter());
        assertEquals(preset.prefillNanosPerToken(), changed.prefillNanosPerToken(), "not given: the preset's");
        assertEquals(preset.kvCapacityTokens(), changed.kvCapacityTokens());
    }
}
