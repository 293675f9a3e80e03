package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * {@link Tables#peers}: result files of AIPerf, GuideLLM and vLLM, and Kneepoint runs, read from any path (not only
 * the bench's folder layout), the tool told by the content and the load by the file itself.
 */
class PeerTablesTest {
    @TempDir
    Path dir;

    private static Path fixture(String name) throws Exception {
        return Path.of(PeerTablesTest.class.getResource("/peers/" + name).toURI());
    }

    @Test
    void eachToolsFileIsOneRowPerLoadLevelInKneepointsTerms() throws Exception {
        // AIPerf's export with its input_config, as AIPerf writes it: the load comes from loadgen
        ObjectMapper json = new ObjectMapper();
        ObjectNode aiperf = (ObjectNode) json.readTree(fixture("aiperf-c8-n100/out/profile_export_aiperf.json").toFile());
        aiperf.putObject("input_config").putObject("loadgen").put("concurrency", 8);
        Path copied = Files.createDirectories(dir.resolve("elsewhere")).resolve("profile_export_aiperf.json");
        json.writeValue(copied.toFile(), aiperf);

        Table t = Tables.peers(fixture("vllm-c8-n100/vllm.json"), copied, fixture("guidellm-rates/benchmarks.json"),
                fixture("kneepoint-c8-n100/run"));
        assertThat(t.stringColumn("tool").asList()).containsExactly("vllm", "aiperf", "guidellm", "guidellm",
                "kneepoint");
        assertThat(t.stringColumn("mode").asList()).containsExactly("closed", "closed", "open", "open", "closed");
        assertThat(t.doubleColumn("load").asList()).containsExactly(8.0, 8.0, 20.0, 40.0, 8.0);
        // the same figures the bench's own reader gives (PeerOutputsTest checks them against the files)
        Table vllm = t.where(t.stringColumn("tool").isEqualTo("vllm"));
        assertThat(vllm.doubleColumn("requests_ok").get(0)).isEqualTo(100.0);
        assertThat(vllm.doubleColumn("ttft_p50_ms").get(0)).isPositive();
        assertThat(t.columnNames()).startsWith("tool", "mode", "load").endsWith("dispatch_rps", "source");
        // a directory holding a result is read too
        assertThat(Tables.peers(fixture("guidellm-rates")).rowCount()).isEqualTo(2);
    }

    @Test
    void aPathThatIsNoResultIsNamedWithWhatWasLookedFor() throws Exception {
        Path other = Files.writeString(dir.resolve("other.json"), "{\"hello\": 1}");
        assertThatThrownBy(() -> Tables.peers(other)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining(other + " is none of AIPerf's profile_export_aiperf.json, GuideLLM's "
                        + "benchmarks.json, vllm bench serve's result file or Kneepoint's summary.json");
        assertThatThrownBy(() -> Tables.peers(dir)).hasMessageContaining("holds none of profile_export_aiperf.json");
        assertThatThrownBy(() -> Tables.peers(dir.resolve("missing.json")))
                .hasMessageContaining("no such file or directory");
    }
}
