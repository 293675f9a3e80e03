package dev.kneepoint.scenario;

import dev.kneepoint.client.TargetConfig;
import java.util.List;

/**
 * The test matrix A–E of "how to measure an LLM server's real throughput", as presets, and the verb that runs
 * them. How the words map to numbers (full mode; {@code fast} divides every length by 8 and shortens steps):
 *
 * <table>
 *   <caption>Lengths and ladders</caption>
 *   <tr><th>word</th><th>full</th><th>fast</th><th>why</th></tr>
 *   <tr><td>short prompt</td><td>128</td><td>16</td><td>a chat turn</td></tr>
 *   <tr><td>long prompt</td><td>2048</td><td>256</td><td>retrieval or code context: prefill dominates</td></tr>
 *   <tr><td>short output</td><td>64</td><td>8</td><td>a short answer or classification</td></tr>
 *   <tr><td>long output</td><td>512</td><td>64</td><td>generation: decode dominates</td></tr>
 *   <tr><td>low concurrency</td><td>1, 2, 4</td><td>1, 2, 4</td><td>interactive, a few users</td></tr>
 *   <tr><td>medium concurrency</td><td>4, 8, 16</td><td>2, 4, 8</td><td>a shared service</td></tr>
 *   <tr><td>rising ladder</td><td>1, 2, 4 ... 64</td><td>1, 2, 4, 8, 16</td><td>to find the knee</td></tr>
 * </table>
 *
 * <ul>
 *   <li><b>A</b>: short prompt, short output, low concurrency.</li>
 *   <li><b>B</b>: short prompt, long output, medium concurrency (decode-bound).</li>
 *   <li><b>C</b>: long prompt, short output, medium concurrency (prefill-bound).</li>
 *   <li><b>D</b>: long prompt, long output, rising ladder.</li>
 *   <li><b>E</b>: mixed prompts (50% 128, 30% 512, 20% 2048 tokens; fast ÷8) with 128-token answers
 *       (fast 16), ladder 1, 2, 4, 8, 16 (fast 1, 4, 16), over sustained background traffic of short/short
 *       requests at 1 req/s (fast 4 req/s).</li>
 * </ul>
 * Every length is exact: prompts are calibrated with the target's {@code /tokenize} when it has one (else an
 * estimate, flagged in the result and the manifest), outputs are forced (ignore_eos / min_tokens).
 */
public final class Scenarios {
    /** Length divisor of fast mode. */
    public static final int FAST_DIVISOR = 8;

    private Scenarios() {}

    /** The five presets A–E. */
    public static List<Scenario> all(boolean fast) {
        return List.of(preset("A", fast), preset("B", fast), preset("C", fast), preset("D", fast), preset("E", fast));
    }

    /**
     * One preset by name ({@code A} ... {@code E}).
     *
     * @throws IllegalArgumentException for another name
     */
    public static Scenario preset(String name, boolean fast) {
        int d = fast ? FAST_DIVISOR : 1;
        int shortIn = 128 / d;
        int longIn = 2048 / d;
        int shortOut = 64 / d;
        int longOut = 512 / d;
        List<Integer> low = List.of(1, 2, 4);
        List<Integer> medium = fast ? List.of(2, 4, 8) : List.of(4, 8, 16);
        List<Integer> rising = fast ? List.of(1, 2, 4, 8, 16) : List.of(1, 2, 4, 8, 16, 32, 64);
        return switch (name) {
            case "A" -> fixed("A", "short prompt, short output, low concurrency", shortIn, shortOut, low);
            case "B" -> fixed("B", "short prompt, long output, medium concurrency", shortIn, longOut, medium);
            case "C" -> fixed("C", "long prompt, short output, medium concurrency", longIn, shortOut, medium);
            case "D" -> fixed("D", "long prompt, long output, rising concurrency", longIn, longOut, rising);
            case "E" -> new Scenario("E", "mixed prompt lengths over sustained background traffic",
                    List.of(new Scenario.PromptShare(0.5, 128 / d, "short"), new Scenario.PromptShare(0.3, 512 / d, "medium"),
                            new Scenario.PromptShare(0.2, 2048 / d, "long")),
                    128 / d, fast ? List.of(1, 4, 16) : List.of(1, 2, 4, 8, 16), fast ? 4.0 : 1.0, shortIn, shortOut);
            default -> throw new IllegalArgumentException("no preset '" + name + "': presets are A, B, C, D, E");
        };
    }

    private static Scenario fixed(String name, String description, int in, int out, List<Integer> ladder) {
        return new Scenario(name, description, List.of(new Scenario.PromptShare(1, in, "fg")), out, ladder, 0, 0, 0);
    }

    /** The matrix A–E against {@code target}, to configure and {@link ScenarioMatrix#run()}. */
    public static ScenarioMatrix matrix(TargetConfig target) {
        return new ScenarioMatrix(target);
    }
}
