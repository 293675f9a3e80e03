package dev.kneepoint.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parameters, their product, and the serve command line: pure, no server. */
class ServeSweepPlanTest {
    private static List<ServeParam> params(String... texts) {
        return java.util.Arrays.stream(texts).map(ServeParam::parse).toList();
    }

    @Test
    void theProductRunsEveryCombinationFirstParameterSlowest() {
        List<ServeConfig> c = ServeParam.product(params("parallel=1,2", "ctx=4096, 8192", "q=a/b"));
        assertThat(c).extracting(ServeConfig::name).containsExactly(
                "parallel-1-ctx-4096-q-a-b", "parallel-1-ctx-8192-q-a-b",
                "parallel-2-ctx-4096-q-a-b", "parallel-2-ctx-8192-q-a-b");
        assertThat(c.get(1).params()).containsExactly(Map.entry("parallel", "1"), Map.entry("ctx", "8192"),
                Map.entry("q", "a/b"));
    }

    @Test
    void aBadParamNamesTheProblemAndTheFix() {
        assertThatThrownBy(() -> ServeParam.parse("parallel=")).hasMessageContaining("--param parallel has no values")
                .hasMessageContaining("--param parallel=1,2,4");
        assertThatThrownBy(() -> ServeParam.parse("parallel")).hasMessageContaining("has no values");
        assertThatThrownBy(() -> ServeParam.parse("parallel=1,,2")).hasMessageContaining("empty value");
        assertThatThrownBy(() -> ServeParam.parse("parallel=1,1")).hasMessageContaining("repeats a value");
        assertThatThrownBy(() -> ServeParam.parse("=1,2")).hasMessageContaining("NAME=V1,V2");
        assertThatThrownBy(() -> ServeParam.parse("port=1,2")).hasMessageContaining("filled by the sweep itself");
        assertThatThrownBy(() -> ServeParam.product(params("a=1", "a=2"))).hasMessageContaining("given twice");
        assertThatThrownBy(() -> ServeParam.product(List.of())).hasMessageContaining("no --param given");
    }

    @Test
    void theCommandLineSplitsLikeAShellsSimpleQuoting() {
        assertThat(ServeCommandLine.split("  llama-server -m 'my model.gguf' --alias \"a \\\"b\\\" c\" x\\ y '' ")).containsExactly(
                "llama-server", "-m", "my model.gguf", "--alias", "a \"b\" c", "x y", "");
        assertThat(ServeCommandLine.split("a 'it''s' \"$HOME\"")).containsExactly("a", "its", "$HOME");
        assertThatThrownBy(() -> ServeCommandLine.split("a 'b")).hasMessageContaining("unclosed ' quote");
        assertThatThrownBy(() -> ServeCommandLine.split("a \\")).hasMessageContaining("ends in a backslash");
    }

    @Test
    void placeholdersAreFilledAfterSplittingSoAValueStaysOneArgument() {
        List<ServeParam> p = params("parallel=1,2", "alias=my model");
        ServeCommandLine c = ServeCommandLine.parse("srv --parallel {parallel} --port={port} -a {alias}", p);
        assertThat(c.expand(Map.of("parallel", "2", "port", "4100", "alias", "my model")))
                .containsExactly("srv", "--parallel", "2", "--port=4100", "-a", "my model");
    }

    @Test
    void placeholdersAndParamsMustMatchEveryProblemAtOnce() {
        assertThatThrownBy(() -> ServeCommandLine.parse("srv --parallel {parallel} --ctx {ctx}", params("parallel=1",
                "threads=2")))
                .hasMessageContaining("--serve has no {port}")
                .hasMessageContaining("--serve uses {ctx}, but no --param gives its values: add --param ctx=")
                .hasMessageContaining("--param threads is not used in --serve");
        assertThatThrownBy(() -> ServeCommandLine.parse("  ", params("a=1"))).hasMessageContaining("--serve is empty");
    }

    @Test
    void theSweepFolderHasAStableNameFromTheSweepsName() {
        ServeSweep.Plan plan = new ServeSweep.Plan("Llama 8B", java.nio.file.Path.of("runs"), "srv {port}",
                List.of(), List.of(), ServeSweep.READY_TIMEOUT, false);
        assertThat(plan.folder()).isEqualTo(java.nio.file.Path.of("runs", "llama-8b-serve-sweep"));
        assertThatThrownBy(() -> new ServeSweep.Plan("x", java.nio.file.Path.of("runs"), "s", List.of(), List.of(),
                java.time.Duration.ZERO, false)).hasMessageContaining("--ready-timeout must be positive");
    }
}
