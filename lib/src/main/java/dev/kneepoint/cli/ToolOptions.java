package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.workload.ToolUse;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The functions offered on every request ({@link ToolUse}): {@code --tools builtin|FILE} and {@code --tool-choice}. */
final class ToolOptions {
    @Option(names = "--tools", paramLabel = "builtin|FILE", description = "Offer these functions on every chat "
            + "request (tools): 'builtin' (weather, web search, calculator, calendar) or a JSON file of tools in "
            + "OpenAI's shape; answers that call a tool are measured like text")
    String tools;

    @Option(names = "--tool-choice", paramLabel = "CHOICE", description = "tool_choice with --tools: auto, required, "
            + "none, or a function's name (default: auto, or the file's tool_choice)")
    String toolChoice;

    /** {@code sweep} with these tools, when given; returns it. */
    Sweep applyTo(Sweep sweep) {
        if (tools == null) {
            if (toolChoice != null) {
                throw new IllegalArgumentException("--tool-choice applies with --tools only: add --tools builtin "
                        + "or --tools FILE");
            }
            return sweep;
        }
        ToolUse use = tools.equals("builtin") ? ToolUse.builtin() : ToolUse.read(Path.of(tools));
        return sweep.tools(toolChoice == null ? use : use.choice(toolChoice));
    }
}
