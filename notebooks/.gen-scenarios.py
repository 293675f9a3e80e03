"""Generates notebooks 05, 06 and 09 (run with the project venv: .venv/bin/python notebooks/.gen-scenarios.py notebooks)."""
import nbformat as nbf, sys, pathlib
out = pathlib.Path(sys.argv[1])
META = {"kernelspec": {"display_name": "Java (Kneepoint)", "language": "java", "name": "kneepoint"},
        "language_info": {"name": "Java", "file_extension": ".jshell"}}
PARAMS = '''// Parameters (papermill -p overrides them). An empty url means: the embedded simulator.
String url = "";
String model = "";
boolean fast = true;   // CI and quick looks: short steps; false for a real measurement'''
TARGET = '''import dev.kneepoint.scenario.*;
var sim = url.isEmpty() ? Kneepoint.simulator("gpu-8b") : null;
var target = sim != null ? Kneepoint.target(sim) : Kneepoint.target(url, model);
target'''


def nb(cells):
    n = nbf.v4.new_notebook(); n.metadata = META
    for kind, src, *tags in cells:
        c = nbf.v4.new_markdown_cell(src) if kind == "md" else nbf.v4.new_code_cell(src)
        if tags: c.metadata["tags"] = tags[0]
        n.cells.append(c)
    return n


nb05 = nb([
 ("md", """# 05 · The scenario matrix A–E

One benchmark number cannot describe an LLM service: a short chat turn, a long generation and a
retrieval prompt stress different phases. **Prefill** (reading the prompt) dominates long prompts and
drives time to first token; **decode** (writing the answer) dominates long outputs and drives the gaps
between tokens. The matrix runs five scenarios that separate them:

| | prompt | output | load |
|---|---|---|---|
| A | short | short | low concurrency |
| B | short | long | medium concurrency |
| C | long | short | medium concurrency |
| D | long | long | rising ladder |
| E | mixed | medium | ladder over sustained background traffic |

Each scenario is a concurrency ladder (so it has a knee) with exact prompt and output lengths, and
writes its own run directory."""),
 ("code", PARAMS, ["parameters"]),
 ("md", """The target: the embedded simulator unless a URL was given. Its engine is the `gpu-8b` preset with
the batch limited to 8 sequences, so that the short ladders of fast mode cross the limit and show knees."""),
 ("code", '''import dev.kneepoint.scenario.*;
var sim = url.isEmpty() ? Kneepoint.simulator(SimConfig.presetBuilder("gpu-8b").maxNumSeqs(8).build()) : null;
var target = sim != null ? Kneepoint.target(sim) : Kneepoint.target(url, model);
target'''),
 ("md", """The presets and their numbers. Short/long prompts are 128/2048 tokens and short/long outputs 64/512
(fast mode divides every length by 8 and shortens the steps to 2 s)."""),
 ("code", '''Scenarios.all(fast).forEach(s -> System.out.println(s.describe()));'''),
 ("md", """Run the matrix. Prompt lengths are calibrated with the target's `/tokenize` (or an estimate, flagged
in the summary), outputs are forced to their exact length."""),
 ("code", '''var matrix = Scenarios.matrix(target).fast(fast).run();
System.out.println(matrix.summary());'''),
 ("md", "One row per scenario × step, foreground only (E's background is in the last two columns):"),
 ("code", '''matrix.table().selectColumns("scenario", "step", "prompt_tokens_mean", "output_tokens", "output_tokens_per_s",
        "total_tokens_per_s", "ttft_p50_ms", "ttft_p99_ms", "itl_p50_ms", "e2e_p99_ms", "knee",
        "bg_output_tokens_per_s", "bg_ttft_p99_ms")'''),
 ("md", """Every scenario's throughput–latency curve on one chart, knees marked. Curves that bend early are the
scenarios this server handles worst."""),
 ("code", "matrix.kneeOverlay()"),
 ("md", """Reading prefill against decode at the same load (4 users, a step every scenario but D and E has):
long prompts (C) move **TTFT**, long outputs (B) move **end-to-end time** while the per-token gap stays
what the batch size makes it."""),
 ("code", '''var a = matrix.scenario("A").run().step("c=4");
var b = matrix.scenario("B").run().step("c=4");
var c = matrix.scenario("C").run().step("c=4");
String f(String format, Object... args) { return String.format(java.util.Locale.ROOT, format, args); }
System.out.println(f("TTFT p50 at 4 users:  A %.1f ms   C (long prompts) %.1f ms   ratio %.1fx",
        a.ttft().p50(), c.ttft().p50(), c.ttft().p50() / a.ttft().p50()));
System.out.println(f("E2E p50 at 4 users:   A %.1f ms   B (long outputs) %.1f ms   ratio %.1fx",
        a.e2e().p50(), b.e2e().p50(), b.e2e().p50() / a.e2e().p50()));
System.out.println(f("ITL p50 at 4 users:   A %.2f ms   B %.2f ms", a.itl().p50(), b.itl().p50()));'''),
 ("md", """Scenario E runs a mixed ladder on top of a steady background stream (Poisson arrivals, tag `bg`).
The background is measured apart, step by step, so you can see what the foreground's load does to the
traffic already there:"""),
 ("code", '''var e = matrix.scenario("E").run();
var bg = e.background().orElseThrow();
for (var s : e.steps()) {
    var g = bg.step(s.info().label());
    System.out.println(f("%-5s foreground %6.1f tok/s, ttft p99 %7.1f ms | background %5.1f tok/s, %3d requests, ttft p99 %7.1f ms",
            s.info().label(), s.outputTokensPerS(), s.ttft().p99(), g.outputTokensPerS(), g.requestsOk(), g.ttft().p99()));
}
System.out.println("background over the whole run: " + bg.requests() + " requests at " + bg.rateRps() + " req/s planned");'''),
 ("md", "The knee of the rising ladder (D), with its efficient zone:"),
 ("code", 'matrix.knee("D")'),
 ("code", "if (sim != null) sim.close();"),
 ("md", "**Next:** 06 holds one load for a long time and asks whether it stays stable; 09 runs the whole procedure as one report."),
])

nb06 = nb([
 ("md", """# 06 · Soak and stability: drift and failure bursts

Short steps hide slow problems: memory growth, cache churn, thermal throttling, a queue that never
quite drains. A **soak** holds one load for a long time and asks two questions:

* **Drift**: are throughput and latency at the end the same as at the start? Kneepoint cuts the soak into
  intervals and compares the early third with the late third of each metric (tokens/s, TTFT p50/p99,
  ITL p50/p99) with a two-sided **Mann–Whitney U** test: rank-based, so a single stalled interval cannot
  fake a shift. It reports the shift (Hodges–Lehmann, in ms or tokens/s and in %), an effect size and a
  p-value, and flags drift only when the change is both significant and at least 10%.
* **Failure bursts**: are failures spread out, or clustered? Each interval's failure count is compared with
  the rate of the other intervals through a Poisson tail probability (Bonferroni over intervals).

So that the detector has something to find, the simulator here has a **scripted 503 window** of 1.5 s,
14 s into its life, and a background failure rate of 0.2%."""),
 ("code", PARAMS, ["parameters"]),
 ("code", '''import dev.kneepoint.scenario.*;
import dev.kneepoint.sim.FaultConfig;
import dev.kneepoint.sim.FaultKind;
import dev.kneepoint.io.RunLoader;

var faults = FaultConfig.builder()
        .schedule(FaultKind.HTTP_503, Duration.ofSeconds(14), Duration.ofMillis(1500))
        .probability(FaultKind.HTTP_500, 0.002)
        .build();
var sim = url.isEmpty() ? Kneepoint.simulator(SimConfig.presetBuilder("gpu-8b").faults(faults).build()) : null;
var target = sim != null ? Kneepoint.target(sim) : Kneepoint.target(url, model);
Duration soakLength = fast ? Duration.ofSeconds(25) : Duration.ofMinutes(10);
Duration interval = fast ? Duration.ofSeconds(1) : Duration.ofSeconds(10);
target'''),
 ("md", """The soak: an open loop of 20 requests/s (Poisson arrivals) for the whole duration, after a short warm-up.
Open loop keeps the offered load steady whatever the server does, so a slowdown shows as latency, not as
fewer requests. Every request goes to the run directory."""),
 ("code", '''var soak = Kneepoint.rateLadder(target, 20).inputTokens(256).outputTokens(64)
        .warmup(Duration.ofSeconds(2)).stepDuration(soakLength).name("soak").run();
var step = soak.steps().get(0);
step'''),
 ("md", "Read the records back and look at the run over time: throughput, latency percentiles and failures per interval."),
 ("code", '''var records = RunLoader.load(Path.of("runs").resolve(soak.runId())).records();
var series = Tables.timeSeries(records, interval);
Plots.timeSeries(series)'''),
 ("md", "The drift report over the soak's measurement window (warm-up excluded), with the method stated:"),
 ("code", '''var drift = SoakDrift.analyze(records, step.window(), interval);
System.out.println(drift.text());'''),
 ("code", "drift.table()"),
 ("md", """The burst lies where the 503 window was scripted; the scattered 500s do not count as a burst because
they are what the rest of the run looks like. A stable server shows no drift; a real one that drifts shows
which metric moved, by how much, and how sure the test is. Keep the interval at several request lifetimes:
neighbouring intervals are correlated, and short ones make the p-value optimistic."""),
 ("code", '''for (var b : drift.bursts()) {
    System.out.println(b.describe());
}
System.out.println(drift.bursts().isEmpty() ? "no failure burst" : drift.bursts().size() + " burst(s) found");'''),
 ("code", "if (sim != null) sim.close();"),
])

nb09 = nb([
 ("md", """# 09 · The whole procedure, as a report

A procedure worth repeating, in nine stages, run by one call:

1. record the hardware and software environment;
2. warm the service up with a fixed set of small requests (excluded from everything);
3. a single-request baseline;
4. a concurrency ladder;
5. the ladder again with longer prompts;
6. and with longer outputs;
7. a sustained soak, watched for drift and failures;
8. TTFT, inter-token latency, tails and total token throughput analysed together;
9. the operating zone marked: the knee and the efficient zone under your SLOs.

Rerun this notebook with `bin/kneepoint-kernel report notebooks/09-procedure-report.ipynb -p url ... -p model ... -p fast false`
to get an HTML report of a real server."""),
 ("code", PARAMS, ["parameters"]),
 ("md", """The target: the embedded simulator unless a URL was given; its engine is the `gpu-8b` preset with the
batch limited to 4 sequences, so that the short ladder of fast mode reaches its limit."""),
 ("code", '''import dev.kneepoint.scenario.*;
var sim = url.isEmpty() ? Kneepoint.simulator(SimConfig.presetBuilder("gpu-8b").maxNumSeqs(4).build()) : null;
var target = sim != null ? Kneepoint.target(sim) : Kneepoint.target(url, model);
target'''),
 ("md", "The objectives the operating zone must meet (adjust to your application): TTFT p99 within 1 s and at most 50 ms per output token."),
 ("code", '''var slo = Slo.builder().ttftMs(1000).tpotMs(50).build();
var options = ProcedureOptions.of(fast).toBuilder().slo(slo).build();
var p = Procedure.run(target, options);
System.out.println(p.summary());'''),
 ("md", "## 1 · Environment\nWhat was measured, on what, from where (each run's `manifest.json` holds the same facts)."),
 ("code", '''p.environment().forEach((k, v) -> System.out.println(String.format(java.util.Locale.ROOT, "%-15s %s", k, v)));'''),
 ("md", "## 3–6 · Baseline, ladder, longer prompts, longer outputs\nEvery step of stages 3–6 side by side (stage 8's joint table)."),
 ("code", "p.joint()"),
 ("md", "How length reshapes the curve: longer prompts push TTFT up (prefill), longer outputs stretch every request (decode)."),
 ("code", "p.lengthsPlot()"),
 ("md", "## 7 · Soak\nThroughput, latency and failures over the soak, then the drift test (Mann–Whitney U, early third against late third)."),
 ("code", "p.soakPlot()"),
 ("code", "System.out.println(p.drift().text());"),
 ("md", "## 9 · Operating zone\nThe knee of the main ladder, the efficient zone under the SLOs and the recommended operating point, with the numbers behind the verdict."),
 ("code", "p.kneePlot()"),
 ("code", "System.out.println(p.knee().summary());"),
 ("code", "if (sim != null) sim.close();"),
])

for name, n in [("05-scenario-matrix", nb05), ("06-soak-and-stability", nb06), ("09-procedure-report", nb09)]:
    nbf.write(n, out / f"{name}.ipynb")
