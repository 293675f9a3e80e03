package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.client.HttpClients;
import dev.kneepoint.metrics.RunClock;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TelemetryRecorderTest {
    @TempDir
    Path dir;

    private static final Telemetry SERVER_ONLY = Telemetry.defaults().withHost(false).withGpu(Gpu.off())
            .withInterval(Duration.ofMillis(50));

    private static TelemetryRecorder.Environment env(Optional<Path> nvidiaSmi, NvidiaSmi.CommandRunner runner) {
        OkHttpClient http = HttpClients.shared().newBuilder().callTimeout(Duration.ofSeconds(2)).build();
        return new TelemetryRecorder.Environment(http, new HostSampler(null, false, () -> -1), runner, nvidiaSmi);
    }

    private static void awaitRequests(MockWebServer s, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (s.getRequestCount() < n && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(s.getRequestCount()).isGreaterThanOrEqualTo(n);
    }

    @Test
    void scrapesEveryIntervalOnTheRunClockAndKeepsGoingAfterFailures() throws Exception {
        String vllm = Fixtures.metrics("vllm");
        AtomicInteger n = new AtomicInteger();
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    int i = n.incrementAndGet();
                    // 2nd and 3rd fail with 500, the 4th is garbage: each kind recorded once, sampling goes on
                    if (i == 2 || i == 3) return new MockResponse.Builder().code(500).body("boom").build();
                    if (i == 4) return new MockResponse.Builder().body("vllm:num_requests_running {oops\n").build();
                    return new MockResponse.Builder().body(vllm).build();
                }
            });
            server.start();
            RunClock clock = RunClock.system();
            TelemetryRecorder rec = TelemetryRecorder.start(SERVER_ONLY, clock, server.url("/v1/"), dir, null,
                    env(Optional.empty(), null));
            awaitRequests(server, 7);
            long before = clock.now();
            rec.close();
            assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/metrics");

            TelemetryData d = TelemetryLoader.load(dir);
            assertThat(d.problems()).isEmpty();
            List<TelemetrySample> running = d.series("server:running{engine=0}");
            // requests 1, 5 and 6 succeeded and were answered before the 7th arrived; the 7th's answer may be cut by close
            assertThat(running.size()).isGreaterThanOrEqualTo(3);
            assertThat(running).allMatch(s -> s.value() == 12.0);
            assertThat(running).allMatch(s -> s.tNanos() >= 0 && s.tNanos() <= before);
            // a loaded machine may also record "slow" (a scrape outlasting the 50 ms interval); not asserted
            assertThat(d.statuses()).filteredOn(s -> s.status().equals("error") && !s.reason().startsWith("slow"))
                    .extracting(TelemetryStatus::reason)
                    .anySatisfy(r -> assertThat(r).startsWith("http_500"))
                    .anySatisfy(r -> assertThat(r).startsWith("parse"))
                    .hasSize(2);
            assertThat(d.status("server", "started")).get().extracting(TelemetryStatus::reason).asString()
                    .contains("(vllm names)");
            assertThat(d.lastStatus().get("server").status()).isEqualTo("stopped");
            // At least the three errors scripted above. Every tick skipped while a scrape is out counts one more error
            // ("slow"), so on a loaded machine the count can be any number >= 3 (10-29 included, which the pattern
            // "[3-9][0-9]* errors" used to reject).
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^([1-9][0-9]*) samples, ([0-9]+) errors$")
                    .matcher(d.lastStatus().get("server").reason());
            assertThat(m.matches()).as(d.lastStatus().get("server").reason()).isTrue();
            assertThat(Long.parseLong(m.group(2))).as("errors").isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void notFoundIsRecordedAsUnavailableAndScrapingStops() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    return new MockResponse.Builder().code(404).body("not found").build();
                }
            });
            server.start();
            TelemetryRecorder rec = TelemetryRecorder.start(SERVER_ONLY, RunClock.system(), server.url("/"), dir, null,
                    env(Optional.empty(), null));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (rec.data().status("server", "unavailable").isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            int seen = server.getRequestCount();
            Thread.sleep(300); // six more intervals: none may scrape again
            rec.close();
            assertThat(seen).isPositive();
            assertThat(server.getRequestCount()).isEqualTo(seen);
            TelemetryData d = TelemetryLoader.load(dir);
            assertThat(d.samples()).isEmpty();
            assertThat(d.status("server", "unavailable")).get().extracting(TelemetryStatus::reason).asString()
                    .contains("HTTP 404").contains("/metrics");
        }
    }

    @Test
    void aSlowEndpointSkipsTicksInsteadOfPilingUpScrapes() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    return new MockResponse.Builder().headersDelay(250, TimeUnit.MILLISECONDS)
                            .body("vllm:num_requests_running 1\n").build();
                }
            });
            server.start();
            long t0 = System.nanoTime();
            TelemetryRecorder rec = TelemetryRecorder.start(SERVER_ONLY, RunClock.system(), server.url("/"), dir, null,
                    env(Optional.empty(), null));
            awaitRequests(server, 3);
            rec.close();
            double elapsedS = (System.nanoTime() - t0) / 1e9;
            TelemetryData d = TelemetryLoader.load(dir);
            // one scrape at a time, each >= 250 ms: at most elapsed/0.25 + 1 requests, far fewer than one per 50 ms tick
            assertThat(server.getRequestCount()).isLessThanOrEqualTo((int) (elapsedS / 0.25) + 1);
            assertThat(d.status("server", "error")).get().extracting(TelemetryStatus::reason).asString().startsWith("slow");
            // a sample's time is the middle of its scrape: at least half the 250 ms delay after the run clock's zero
            assertThat(d.series("server:running").get(0).tNanos()).isGreaterThanOrEqualTo(125_000_000L);
        }
    }

    @Test
    void nvidiaSmiOutputIsReadLineByLineWithMissingFieldsLeftOut() throws Exception {
        String csv = Fixtures.read("gpu/nvidia-smi.csv");
        List<List<String>> commands = new java.util.ArrayList<>();
        NvidiaSmi.CommandRunner replay = replaying(csv);
        NvidiaSmi.CommandRunner runner = command -> {
            commands.add(command);
            return replay.start(command);
        };
        Telemetry gpuOnly = Telemetry.defaults().withServer(false).withHost(false).withGpu(Gpu.auto());
        TelemetryRecorder rec = TelemetryRecorder.start(gpuOnly, RunClock.system(), null, dir, null,
                env(Optional.of(Path.of("/usr/bin/nvidia-smi")), runner));
        assertThat(rec.awaitGpuReader(10_000)).isTrue();
        rec.close();
        assertThat(commands).containsExactly(List.of("/usr/bin/nvidia-smi", "--query-gpu=" + GpuMetrics.QUERY,
                "--format=csv,noheader,nounits", "-lms", "500"));
        TelemetryData d = TelemetryLoader.load(dir);
        assertThat(d.series("gpu:gpu_util_pct{gpu=0}")).extracting(TelemetrySample::value).containsExactly(0.0, 96.0, 100.0);
        // GPU 1: utilisation [N/A] in the second reading is left out, not recorded as 0
        assertThat(d.series("gpu:gpu_util_pct{gpu=1}")).extracting(TelemetrySample::value).containsExactly(0.0, 0.0);
        assertThat(d.series("gpu:power_w{gpu=1}")).extracting(TelemetrySample::value).containsExactly(70.12, 70.44);
        assertThat(d.series("gpu:mem_used_bytes{gpu=1}")).hasSize(2);
        assertThat(d.samples()).hasSize(6 * 6 - 3);
        // the command ended by itself (the recording is finite): recorded once
        assertThat(d.status("gpu", "error")).get().extracting(TelemetryStatus::reason).asString().startsWith("ended");
        // two GPUs of one model: the manifest's config.server gets the name once and the count
        assertThat(rec.gpuIdentity()).containsExactly(Map.entry("gpus", List.of("NVIDIA H100 80GB HBM3")),
                Map.entry("gpu_count", 2));
    }

    /** A runner that replays {@code csv} as nvidia-smi's output. */
    private static NvidiaSmi.CommandRunner replaying(String csv) {
        return command -> {
            BufferedReader r = new BufferedReader(new StringReader(csv));
            return new NvidiaSmi.Lines() {
                @Override
                public String readLine() throws java.io.IOException { return r.readLine(); }

                @Override
                public void close() { }
            };
        };
    }

    @Test
    void theGpuIdentityListsDistinctNamesInIndexOrderAndCountsEveryGpu() throws Exception {
        // GPUs 10, 2 and 1 (10 after 2: by number), two models, one unnamed: a bad line adds no GPU
        String csv = "10, 5, 1, 46068, 110.2, 54, 2520, NVIDIA L40S\n"
                + "2, 0, 1, 81559, 69.8, 33, 345, NVIDIA H100 80GB HBM3\n"
                + "1, 0, 1, 81559, 70.1, 31, 345, [N/A]\n"
                + "7, not a number\n"
                + "1, 0, 1, 81559, 70.1, 31, 345, NVIDIA H100 80GB HBM3\n";
        Telemetry gpuOnly = Telemetry.defaults().withServer(false).withHost(false).withGpu(Gpu.nvidiaSmi());
        TelemetryRecorder rec = TelemetryRecorder.start(gpuOnly, RunClock.system(), null, null, null,
                env(Optional.of(Path.of("/usr/bin/nvidia-smi")), replaying(csv)));
        assertThat(rec.awaitGpuReader(10_000)).isTrue();
        rec.close();
        assertThat(rec.gpuIdentity()).containsExactly(
                Map.entry("gpus", List.of("NVIDIA H100 80GB HBM3", "NVIDIA L40S")), Map.entry("gpu_count", 3));
        // only lines that were never named: a count without names
        TelemetryRecorder unnamed = TelemetryRecorder.start(gpuOnly, RunClock.system(), null, null, null,
                env(Optional.of(Path.of("/usr/bin/nvidia-smi")), replaying("0, 0, 1, 81559, 69.8, 33, 345, [N/A]\n")));
        assertThat(unnamed.awaitGpuReader(10_000)).isTrue();
        unnamed.close();
        assertThat(unnamed.gpuIdentity()).containsExactly(Map.entry("gpu_count", 1));
    }

    @Test
    void aDcgmExporterIsScrapedAsTheGpuSource() throws Exception {
        String dcgm = Fixtures.metrics("dcgm");
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    return new MockResponse.Builder().body(dcgm).build();
                }
            });
            server.start();
            Telemetry gpuOnly = Telemetry.defaults().withServer(false).withHost(false).withInterval(Duration.ofMillis(50))
                    .withGpu(Gpu.dcgm(server.url("/metrics").toString()));
            TelemetryRecorder rec = TelemetryRecorder.start(gpuOnly, RunClock.system(), null, dir, null,
                    env(Optional.empty(), null));
            awaitRequests(server, 2);
            rec.close();
            TelemetryData d = TelemetryLoader.load(dir);
            assertThat(d.series("gpu:gpu_util_pct{gpu=0}")).isNotEmpty().allMatch(x -> x.value() == 97.0);
            assertThat(d.series("gpu:temp_c{gpu=1}")).isNotEmpty().allMatch(x -> x.value() == 41.0);
            assertThat(d.status("gpu", "started")).get().extracting(TelemetryStatus::reason).asString()
                    .contains(server.url("/metrics").toString()).doesNotContain("names");
            assertThat(rec.gpuIdentity()).containsExactly(Map.entry("gpus", List.of("NVIDIA H100 80GB HBM3")),
                    Map.entry("gpu_count", 2));
        }
    }

    @Test
    void noNvidiaSmiIsRecordedAsAbsentAndNothingIsSampled() throws Exception {
        Telemetry gpuOnly = Telemetry.defaults().withServer(false).withHost(false);
        NvidiaSmi.CommandRunner mustNotRun = c -> { throw new AssertionError("must not start " + c); };
        TelemetryRecorder rec = TelemetryRecorder.start(gpuOnly, RunClock.system(), null, dir, null,
                env(Optional.empty(), mustNotRun));
        rec.close();
        TelemetryData d = TelemetryLoader.load(dir);
        assertThat(d.samples()).isEmpty();
        assertThat(rec.gpuIdentity()).isEmpty();
        assertThat(d.status("gpu", "absent")).get().extracting(TelemetryStatus::reason).asString()
                .contains("nvidia-smi not found");
        assertThat(NvidiaSmi.which(dir.toString())).isEmpty();
        Path fake = Files.createFile(dir.resolve("nvidia-smi"));
        fake.toFile().setExecutable(true);
        assertThat(NvidiaSmi.which("/nonexistent:" + dir)).contains(fake);
    }

    @Test
    void samplingStopsByItselfOnceTheRunIsOverEvenWithoutClose() throws Exception {
        Telemetry hostOnly = Telemetry.defaults().withServer(false).withGpu(Gpu.off()).withInterval(Duration.ofMillis(50));
        java.util.concurrent.atomic.AtomicBoolean over = new java.util.concurrent.atomic.AtomicBoolean();
        TelemetryRecorder rec = TelemetryRecorder.start(hostOnly, RunClock.system(), null, dir, over::get,
                new TelemetryRecorder.Environment(HttpClients.shared(), HostSampler.system(false), null, Optional.empty()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (rec.samples("host") < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        over.set(true);
        Thread.sleep(500); // the 200 ms flush tick sees the run over and shuts the scheduler down
        long samples = rec.samples("host");
        Thread.sleep(300); // six more intervals: no sample may come
        assertThat(rec.samples("host")).isEqualTo(samples);
        rec.close(); // still writes the closing status
        assertThat(TelemetryLoader.load(dir).lastStatus().get("host").status()).isEqualTo("stopped");
    }

    @Test
    void hostSamplingInMemoryAndTheSchedulerThreadEndsAtClose() throws Exception {
        Telemetry hostOnly = Telemetry.defaults().withServer(false).withGpu(Gpu.off()).withInterval(Duration.ofMillis(50));
        TelemetryRecorder rec = TelemetryRecorder.start(hostOnly, RunClock.system(), null, null, null,
                new TelemetryRecorder.Environment(HttpClients.shared(), HostSampler.system(false), null, Optional.empty()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (rec.samples("host") < 10 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(Thread.getAllStackTraces().keySet()).anyMatch(t -> t.getName().equals("kneepoint-telemetry"));
        rec.close();
        TelemetryData d = rec.data();
        assertThat(d.samples()).isNotEmpty();
        assertThat(d.samples()).allMatch(s -> s.source().equals("host"));
        Thread.sleep(50);
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("kneepoint-telemetry") && t.isAlive());
        assertThat(HttpUrl.get("http://u:p@h:8000/v1/chat?x=1")).extracting(TelemetryRecorder::metricsUrl).asString()
                .isEqualTo("http://h:8000/metrics");
    }
}
