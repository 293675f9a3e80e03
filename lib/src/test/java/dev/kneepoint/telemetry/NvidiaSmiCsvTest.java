package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The GPU sampler's parser against nvidia-smi output recorded on real machines (fixtures/gpu/captures, provenance in
 * fixtures/PROVENANCE.md): H100 80GB HBM3 idle and under load, H200, H200 with MIG enabled, L40S, on drivers 590 to 610.
 * Each capture is the full {@code --query-gpu} CSV (200-240 fields, header and units) as nvidia-smi printed it.
 */
class NvidiaSmiCsvTest {
    private static final Path CAPTURES = Path.of("src/test/resources/fixtures/gpu/captures");
    private static final double MIB = 1024.0 * 1024.0;

    /** The values each capture's row holds (read off the recorded row; they agree with the same capture's -q report). */
    private static final Map<String, double[]> EXPECTED = Map.of(
            // util %, mem used MiB, mem total MiB, power W, temp C, SM MHz; NaN = [N/A] in the recording
            "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__idle.csv", new double[] {0, 0, 81559, 69.85, 41, 345},
            "linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load.csv", new double[] {100, 19818, 81559, 631.95, 59, 1980},
            "linux-x86_64__nvidia-h200__610.43.02__idle.csv", new double[] {0, 0, 143771, 83.38, 38, 345},
            "linux-x86_64__nvidia-h200-mig__590.48.01__idle.csv", new double[] {Double.NaN, 55, 143771, 78.28, 28, 345},
            "linux-x86_64__nvidia-h200-mig__590.48.01__load.csv", new double[] {Double.NaN, 16959, 143771, 295.01, 36, 1980},
            "linux-x86_64__nvidia-l40s__595.80__idle.csv", new double[] {100, 0, 46068, 144.97, 63, 2520},
            "linux-x86_64__nvidia-l40s__595.80__load.csv", new double[] {9, 1235, 46068, 110.23, 54, 2520});
    /** The {@code name} each capture's row holds, as recorded. */
    private static final Map<String, String> GPU_NAMES = Map.of("nvidia-h100-80gb-hbm3", "NVIDIA H100 80GB HBM3",
            "nvidia-h200", "NVIDIA H200", "nvidia-h200-mig", "NVIDIA H200", "nvidia-l40s", "NVIDIA L40S");
    private static final String[] NAMES = {"gpu_util_pct", "mem_used_bytes", "mem_total_bytes", "power_w", "temp_c",
            "sm_clock_mhz"};

    @Test
    void everyRecordedCaptureGivesTheValuesNvidiaSmiPrinted() throws IOException {
        List<Path> files = captures();
        assertThat(files).extracting(p -> p.getFileName().toString()).containsAll(EXPECTED.keySet());
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
            boolean header = NvidiaSmiCsv.isHeader(lines.get(0)); // the sampler's own form has none
            NvidiaSmiCsv layout = header ? NvidiaSmiCsv.ofHeader(lines.get(0)) : NvidiaSmiCsv.sampler();
            assertThat(lines.size()).as(f + ": rows").isGreaterThan(header ? 1 : 0);
            for (String row : lines.subList(header ? 1 : 0, lines.size())) {
                Map<String, Double> got = byName(layout.samples(row, 7L));
                assertThat(got.get("mem_used_bytes")).as(f + " used <= total").isLessThanOrEqualTo(got.get("mem_total_bytes"));
                double[] want = EXPECTED.get(f.getFileName().toString());
                if (want == null) {
                    continue; // a recording added later (bench/device/gpu-record.sh): the invariants above only
                }
                for (int i = 0; i < NAMES.length; i++) {
                    if (Double.isNaN(want[i])) {
                        assertThat(got).as(f + ": [N/A] is missing, not zero").doesNotContainKey(NAMES[i]);
                    } else {
                        double scale = NAMES[i].startsWith("mem_") ? MIB : 1;
                        // exact: the parser only strips the unit and scales MiB to bytes
                        assertThat(got.get(NAMES[i])).as(f + " " + NAMES[i]).isEqualTo(want[i] * scale);
                    }
                }
            }
        }
    }

    @Test
    void theSamplersOwnFormOfTheSameRowsGivesTheSameSamples() throws IOException {
        // The sampler runs --format=csv,noheader,nounits with GpuMetrics.QUERY: the same cells, in that order, without
        // their units. Derived from each recorded row by picking those columns and dropping the unit suffix.
        String[] sources = {"index", "utilization.gpu", "memory.used", "memory.total", "power.draw", "temperature.gpu",
                "clocks.current.sm", "name"};
        for (Path f : captures()) {
            List<String> lines = Files.readAllLines(f).stream().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
            if (!NvidiaSmiCsv.isHeader(lines.get(0))) {
                continue; // already the sampler's form
            }
            List<String> header = cells(lines.get(0)).stream().map(c -> c.replaceAll(" \\[.*]$", "")).toList();
            NvidiaSmiCsv layout = NvidiaSmiCsv.ofHeader(lines.get(0));
            for (String row : lines.subList(1, lines.size())) {
                List<String> cells = cells(row);
                List<String> projected = new ArrayList<>();
                for (String s : sources) {
                    projected.add(cells.get(header.indexOf(s)).replaceAll(" (%|MiB|W|MHz)$", ""));
                }
                String samplerLine = String.join(", ", projected);
                assertThat(GpuMetrics.parseCsvLine(samplerLine, 7L)).as(f + ": " + samplerLine)
                        .containsExactlyInAnyOrderElementsOf(layout.samples(row, 7L));
                // the GPU's name, from both forms: what the manifest's config.server.gpus records
                assertThat(NvidiaSmiCsv.sampler().device(samplerLine)).as(f + ": " + samplerLine)
                        .isEqualTo(layout.device(row));
                String machine = f.getFileName().toString().split("__")[1];
                if (GPU_NAMES.containsKey(machine)) {
                    assertThat(layout.device(row)).as(f.toString())
                            .isEqualTo(new NvidiaSmiCsv.Device("0", GPU_NAMES.get(machine)));
                }
            }
        }
    }

    @Test
    void theTimestampColumnIsReadAsTheGpuHostsLocalTime() throws IOException {
        List<String> lines = Files.readAllLines(CAPTURES.resolve("linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load.csv"));
        assertThat(NvidiaSmiCsv.ofHeader(lines.get(0)).timestamp(lines.get(1)))
                .contains(LocalDateTime.of(2026, 7, 14, 8, 12, 53, 353_000_000));
        assertThat(NvidiaSmiCsv.sampler().timestamp("0, 1, 2, 3, 4, 5, 6")).isEmpty();
    }

    @Test
    void aShortHeaderInAnyOrderWithOrWithoutUnits() {
        NvidiaSmiCsv withUnits = NvidiaSmiCsv.ofHeader("memory.used [MiB], index, power.draw [W], name");
        assertThat(byName(withUnits.samples("1493 MiB, 3, 40.43 W, Tesla T4", 0L)))
                .containsExactlyInAnyOrderEntriesOf(Map.of("mem_used_bytes", 1493 * MIB, "power_w", 40.43));
        assertThat(withUnits.samples("1493 MiB, 3, 40.43 W, Tesla T4", 0L)).allMatch(s -> s.labels().get("gpu").equals("3"));
        NvidiaSmiCsv noUnits = NvidiaSmiCsv.ofHeader("index, clocks.sm");
        assertThat(byName(noUnits.samples("0, 1410", 0L))).containsExactlyEntriesOf(Map.of("sm_clock_mhz", 1410.0));
        assertThat(NvidiaSmiCsv.isHeader("0, 96, 75210, 81559, 584.21, 58, 1980")).isFalse();
    }

    @Test
    void badHeadersAndValuesAreNamed() {
        assertThatThrownBy(() -> NvidiaSmiCsv.ofHeader("name, uuid")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no 'index' column").hasMessageContaining("none of the fields read here");
        NvidiaSmiCsv layout = NvidiaSmiCsv.ofHeader("index, memory.used [MiB]");
        assertThatThrownBy(() -> layout.samples("0, 19818 GiB", 0L)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("memory.used").hasMessageContaining("(in MiB)").hasMessageContaining("19818 GiB");
        assertThatThrownBy(() -> GpuMetrics.parseCsvLine("0, 96 %, 75210, 81559, 584.21, 58, 1980, NVIDIA H100", 0L))
                .hasMessageContaining("utilization.gpu").hasMessageContaining("96 %");
        assertThatThrownBy(() -> layout.samples("0", 0L)).hasMessageContaining("expected 2 comma-separated fields");
    }

    @Test
    void theNameColumnNamesTheRowsGpuAndKeepsAnyCommaWhenLast() {
        NvidiaSmiCsv sampler = NvidiaSmiCsv.sampler();
        assertThat(sampler.device("3, 96, 75210, 81559, 584.21, 58, 1980, NVIDIA H100 80GB HBM3"))
                .isEqualTo(new NvidiaSmiCsv.Device("3", "NVIDIA H100 80GB HBM3"));
        // a name with a comma (none known, but nvidia-smi would not quote it) stays whole and costs no sample
        String comma = "0, 96, 75210, 81559, 584.21, 58, 1980, Acme GPU, rev 2";
        assertThat(sampler.device(comma).name()).isEqualTo("Acme GPU, rev 2");
        assertThat(sampler.samples(comma, 0L)).hasSize(6);
        assertThat(sampler.device("0, 96, 75210, 81559, 584.21, 58, 1980, [N/A]").name()).isEmpty();
        // a layout without a name column: the index only
        assertThat(NvidiaSmiCsv.ofHeader("index, memory.used [MiB]").device("2, 1024 MiB"))
                .isEqualTo(new NvidiaSmiCsv.Device("2", ""));
        // not last: the name is a cell like any other, and a comma in it is a wrong field count
        NvidiaSmiCsv first = NvidiaSmiCsv.ofHeader("name, index, power.draw [W]");
        assertThat(first.device("Tesla T4, 1, 40.43 W")).isEqualTo(new NvidiaSmiCsv.Device("1", "Tesla T4"));
        assertThatThrownBy(() -> first.samples("Acme, rev 2, 1, 40.43 W", 0L))
                .hasMessageContaining("expected 3 comma-separated fields");
    }

    private static List<Path> captures() throws IOException {
        try (Stream<Path> s = Files.list(CAPTURES)) {
            return s.filter(p -> p.toString().endsWith(".csv")).sorted().toList();
        }
    }

    private static List<String> cells(String line) {
        return Stream.of(line.split(",", -1)).map(String::strip).toList();
    }

    private static Map<String, Double> byName(List<TelemetrySample> samples) {
        return samples.stream().collect(Collectors.toMap(TelemetrySample::name, TelemetrySample::value, (a, b) -> a,
                LinkedHashMap::new));
    }
}
