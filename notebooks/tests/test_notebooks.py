"""Every notebook runs top to bottom in fast mode on the Kneepoint kernel, against the embedded simulator.

Run by `bin/kneepoint test` (through `bin/kneepoint-kernel test`), after `bin/kneepoint-kernel install`.
A notebook fails the test on any error output; some notebooks also have their key numbers checked.
"""
import pathlib
import re
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "kernel" / "src" / "main" / "python"))
import kneepoint_report  # noqa: E402

NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]-*.ipynb"))


def outputs(nb, kind):
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            if out.get("output_type") == kind:
                yield out


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    reports = tmp_path_factory.mktemp("reports")
    cache = {}

    def run(path):
        if path not in cache:
            kneepoint_report.run(str(path), str(reports), {"fast": True}, timeout=300)
            cache[path] = nbformat.read(reports / path.name, as_version=4)
        return cache[path]

    return run


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 3, NOTEBOOKS


PICTURE = re.compile(r"!\[[^\]]+\]\((images/[^)]+\.png)\)")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_opens_with_a_picture_of_what_it_draws(path):
    """The first cell shows, before anything runs, the chart a real run of this notebook drew (notebooks.sh)."""
    first = nbformat.read(path, as_version=4).cells[0]
    assert first.cell_type == "markdown", f"{path.name}: the first cell is not the introduction"
    found = PICTURE.findall(first.source)
    assert found == [f"images/{path.stem}.png"], f"{path.name}: the introduction links {found}, not its own picture"
    picture = path.parent / found[0]
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{picture} is missing or not a PNG; run docs/images/notebooks.sh"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_without_errors(executed, path):
    nb = executed(path)
    errors = [f"{o.get('ename')}: {o.get('evalue')}" for o in outputs(nb, "error")]
    assert not errors, errors
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code_cells), "a code cell did not run"


def test_open_loop_notebook_shows_the_stall_the_closed_loop_hides(executed):
    nb = executed(ROOT / "notebooks" / "03-open-vs-closed-loop.ipynb")
    text = "".join(o.get("text", "") for o in outputs(nb, "stream"))
    closed = re.search(r"closed loop, 1 user.*ttft p99\s+([\d.]+) ms", text)
    opened = re.search(r"open loop, 10 req/s.*ttft_sched p99\s+([\d.]+) ms", text)
    assert closed and opened, text
    # The scripted stall is 1 s: the open loop's p99 must show most of it, the closed loop's must not.
    assert float(opened.group(1)) > 700, text
    assert float(closed.group(1)) < 300, text


def test_quickstart_renders_a_table_and_a_chart(executed):
    nb = executed(ROOT / "notebooks" / "01-quickstart.ipynb")
    kinds = [k for o in outputs(nb, "execute_result") for k in o.get("data", {})]
    assert "text/html" in kinds and "image/png" in kinds, kinds


def stream_text(nb):
    return "".join(o.get("text", "") for o in outputs(nb, "stream"))


def test_prompt_length_notebook_shows_ttft_growth_and_an_earlier_knee(executed):
    text = stream_text(executed(ROOT / "notebooks" / "04-prompt-length-reshapes-the-curve.ipynb"))
    rows = {(int(p), step): (float(ttft), float(tps)) for p, step, ttft, tps in re.findall(
        r"prompt\s+(\d+)\s+(c=\d+)\s+ttft p50\s+([\d.]+) ms.*?([\d.]+) output tokens/s", text)}
    prompts = sorted({p for p, _ in rows})
    assert len(prompts) == 3, text
    short, long_ = prompts[0], prompts[-1]
    # At one user TTFT is one prefill: 128 tokens ~10 ms, 2048 tokens ~60 ms (+ ~40 ms, see the report);
    # x3 leaves room for a noisy machine.
    assert rows[(long_, "c=1")][0] > 3 * rows[(short, "c=1")][0], text
    top = max((s for _, s in rows), key=lambda s: int(s[2:]))
    # At the top of the ladder short prompts stream far more tokens (~3400 vs ~1100 tokens/s measured).
    assert rows[(short, top)][1] > 1.5 * rows[(long_, top)][1], text

    def knee(p):
        m = re.search(rf"prompt\s+{p} tokens: (?:knee at concurrency (\d+)|no knee)", text)
        assert m, text
        return float(m.group(1)) if m.group(1) else float("inf")

    # The long prompt's knee lies at lower concurrency than the short prompt's (none in the ladder).
    assert knee(long_) < knee(short), text
    assert re.search(r"all prompts: APPLIES", text), text


def test_comparison_notebook_finds_the_tradeoff_and_warns_on_token_budgets(executed):
    text = stream_text(executed(ROOT / "notebooks" / "07-comparing-two-configurations.ipynb"))
    top = re.findall(r"^(c=\d+)\s+(\w+)\s+A\s+([\d.]+) ms\s+B\s+([\d.]+) ms.*?\]\s+(.+)$", text, re.M)
    highest = max({s for s, *_ in top}, key=lambda s: int(s[2:]))
    got = {m: (float(a), float(b), v) for s, m, a, b, v in top if s == highest}
    # 64 vs 256 sequences at 128 users: A queues half of them (TTFT ~1.3 s vs ~0.6 s measured) ...
    assert got["ttft_p99_ms"][2] == "better" and got["ttft_p99_ms"][1] < 0.8 * got["ttft_p99_ms"][0], text
    # ... while B's decode batches are twice as large (ITL ~13.7 vs ~10 ms).
    assert got["itl_p50_ms"][2] == "worse", text
    rates = dict(re.findall(r"^c=\d+ (requests_per_s|output_tokens_per_s)\s+B.*change\s+([-+\d.]+)%", text, re.M))
    # Three times the output: requests/s falls (-56% measured) while tokens/s does not fall.
    assert float(rates["requests_per_s"]) < -30, text
    assert float(rates["output_tokens_per_s"]) > -15, text
    assert "output tokens per request differ" in text.split("warnings:")[-1], text


def test_scenario_matrix_notebook_separates_prefill_from_decode(executed):
    nb = executed(ROOT / "notebooks" / "05-scenario-matrix.ipynb")
    text = "".join(o.get("text", "") for o in outputs(nb, "stream"))
    ttft = re.search(r"TTFT p50 at 4 users:\s+A ([\d.]+) ms\s+C \(long prompts\) ([\d.]+) ms", text)
    e2e = re.search(r"E2E p50 at 4 users:\s+A ([\d.]+) ms\s+B \(long outputs\) ([\d.]+) ms", text)
    assert ttft and e2e, text
    # 16x longer prompts must cost prefill time; 8x longer outputs must stretch every request (fast mode, simulator).
    assert float(ttft.group(2)) > 1.3 * float(ttft.group(1)), text
    assert float(e2e.group(2)) > 3 * float(e2e.group(1)), text
    for scenario in "ABCDE":
        assert re.search(rf"^{scenario}: .*users", text, re.M), text
    assert re.search(r"background over the whole run: [1-9]\d* requests", text), text
    # Scenario E again with a background rate per step (0, r, 2r, ...): none under the first step, some under the last.
    per_step = re.findall(r"^(c=\d+)\s+background planned\s+([\d.]+) req/s:\s+(\d+) requests", text, re.M)
    assert len(per_step) >= 3, text
    rates = [float(r) for _, r, _ in per_step]
    assert rates[0] == 0 and rates[1] > 0 and all(abs(r - k * rates[1]) < 1e-9 for k, r in enumerate(rates)), per_step
    assert int(per_step[0][2]) == 0 and int(per_step[-1][2]) > 0, per_step


def test_soak_notebook_finds_the_scripted_failure_burst(executed):
    nb = executed(ROOT / "notebooks" / "06-soak-and-stability.ipynb")
    text = "".join(o.get("text", "") for o in outputs(nb, "stream"))
    assert "Mann-Whitney" in text, text
    # The simulator answers 503 from 14 s to 15.5 s of its life; the soak starts about a second after it.
    bursts = re.findall(r"failure burst ([\d.]+)-([\d.]+) s: (\d+) failures", text)
    assert bursts, text
    assert any(9 <= float(a) <= 16 and int(n) >= 5 for a, b, n in bursts), bursts


def test_procedure_notebook_reports_every_stage(executed):
    nb = executed(ROOT / "notebooks" / "09-procedure-report.ipynb")
    text = "".join(o.get("text", "") for o in outputs(nb, "stream"))
    for needle in ("Baseline (1 user", "Soak at", "Operating zone", "Soak drift", "prompt_lengths"):
        assert needle in text, needle
    images = [o for o in outputs(nb, "execute_result") if "image/png" in o.get("data", {})]
    assert len(images) >= 3, len(images)



def test_telemetry_notebook_names_the_limit_each_server_hit(executed):
    text = stream_text(executed(ROOT / "notebooks" / "10-why-it-slowed-down.ipynb"))
    rows = {}
    for server, step, tps, ttft, run_mean, run_max, wait, kv, pre in re.findall(
            r"^([AB]) (c=\d+)\s+(\d+) output tokens/s\s+ttft p50\s+([\d.]+) ms\s+running mean\s+([\d.]+) max\s+(\d+)"
            r"\s+waiting mean\s+([\d.]+)\s+kv max ([\d.]+)\s+preemptions ([\d.]+)/s", text, re.M):
        rows.setdefault(server, []).append(dict(step=step, tps=float(tps), ttft=float(ttft), run_mean=float(run_mean),
                                                run_max=int(run_max), wait=float(wait), kv=float(kv), pre=float(pre)))
    # Both servers ran the fast ladder 1, 4, 8, 16, 32 and every step has telemetry (a NaN would not parse).
    assert [r["step"] for r in rows.get("A", [])] == ["c=1", "c=4", "c=8", "c=16", "c=32"], text
    assert [r["step"] for r in rows.get("B", [])] == ["c=1", "c=4", "c=8", "c=16", "c=32"], text

    a, a1, a8 = rows["A"][-1], rows["A"][0], rows["A"][2]
    # Server A has 8 slots: at 32 users about 24 requests wait (measured 24.0), at one user none. Half of that
    # leaves room for clients slow to resend on a loaded machine.
    assert a1["wait"] < 0.5 and a["wait"] > 12, (a1, a)
    # The slot limit is a hard cap: no sample ever reads more than 8 running, and with a queue that long the
    # slots are full at some scrape of the top step.
    assert a["run_max"] == 8 and all(r["run_max"] <= 8 for r in rows["A"]), rows["A"]
    # The mean reads a little less (measured 7.87): a request leaves the batch at its last token and the next
    # one counts from the end of its prefill step. 6 allows a quarter of the samples in such gaps.
    assert 6 <= a["run_mean"] <= 8, a
    # KV is not the limit: 8 requests of <= 352 tokens hold < 1 % of 400,000 tokens; nothing is preempted.
    assert a["kv"] < 0.05 and a["pre"] == 0, a
    # Past the slots, throughput stays flat (measured +2 % from 8 to 32 users) while TTFT grows by the queue
    # (14 ms -> 1.4 s measured).
    assert a["tps"] < 1.25 * a8["tps"] and a["ttft"] > 4 * a1["ttft"], (a8, a)
    knee = re.search(r"^server A: knee at concurrency (\d+)", text, re.M)
    # Expected at 8, the slot count; a neighbouring step on a noisy machine.
    assert knee and 4 <= int(knee.group(1)) <= 16, text
    assert re.search(r"^server A: Batch slots are the server's limit: requests wait at c=32 .* the batch holds at "
                     r"most 8 ", text, re.M), text

    b, b1 = rows["B"][-1], rows["B"][0]
    # Server B has 3,072 KV tokens (192 blocks of 16) and 256 slots: at the top step the cache is full (measured
    # 1.000; admission alone fills it, so 0.95 is generous) and requests are preempted (4/s measured).
    assert b["kv"] >= 0.95 and b["pre"] > 0, b
    # Running is held by memory far below the slots: each running request holds its own >= 16 prompt blocks,
    # so at most 12 run (measured max 10).
    assert 2 <= b["run_max"] <= 12, b
    assert b1["wait"] < 0.5 and b["wait"] > 12, (b1, b)
    assert all(r["pre"] == 0 for r in rows["B"][:2]), rows["B"]  # 1 and 4 users fit in the cache
    assert re.search(r"^server B: KV-cache memory is the server's limit: requests wait at c=32 .* preemptions/s",
                     text, re.M), text



def test_trace_notebook_fires_every_request_at_its_trace_instant(executed):
    text = stream_text(executed(ROOT / "notebooks" / "11-replaying-a-trace.ipynb"))
    shape = re.search(r"(\d+) requests over ([\d.]+) s", text)
    fired = re.search(r"requests (\d+) of (\d+), max \|t_intended - planned\| (\d+) ns, schedule lag p99 ([\d.]+) ms",
                      text)
    hits = re.search(r"prefix cache hit rate ([\d.]+)", text)
    assert shape and fired and hits, text
    # The sample trace (datasets/generate.py): 569 requests over 179.7 s; every one replayed.
    assert int(shape.group(1)) == 569 and 170 < float(shape.group(2)) <= 180, text
    assert fired.group(1) == fired.group(2) == shape.group(1), text
    # t_intended is the scaled trace instant exactly (the scheduler fires at stepStart + offset).
    assert int(fired.group(3)) == 0, text
    # Scheduler slop only: tens of microseconds quiet, tens of milliseconds on a loaded machine.
    assert float(fired.group(4)) < 250, text
    # 90% of the sample's requests open with one of three shared system prompts of 1-3 blocks of 512 tokens
    # (about half their prompt): without shared hash ids the hit rate would be 0.
    assert float(hits.group(1)) > 0.2, text


def test_duration_parameters_change_the_run(tmp_path):
    """A papermill duration parameter reaches the sweep: the run's manifest and summary record exactly it."""
    import json
    import time

    runs = ROOT / "notebooks" / "runs"
    before = set(runs.glob("*quickstart*")) if runs.exists() else set()
    started = time.time()
    kneepoint_report.run(str(ROOT / "notebooks" / "01-quickstart.ipynb"), str(tmp_path),
                         {"fast": True, "step_seconds": 0.75, "warmup_seconds": 0.25}, timeout=300)
    elapsed = time.time() - started
    nb = nbformat.read(tmp_path / "01-quickstart.ipynb", as_version=4)
    errors = [f"{o.get('ename')}: {o.get('evalue')}" for o in outputs(nb, "error")]
    assert not errors, errors
    new = sorted(set(runs.glob("*quickstart*")) - before)
    assert len(new) == 1, new
    config = json.loads((new[0] / "manifest.json").read_text())["config"]
    assert (config["step_duration_s"], config["warmup_s"]) == (0.75, 0.25), config
    lines = [json.loads(line) for line in (new[0] / "steps.jsonl").read_text().splitlines()]
    steps = [line["step"] for line in lines if line["event"] == "step_started"]
    assert len(steps) == 4, lines  # the ladder 1, 4, 16, 64
    # Exact: 0.75 s and 0.25 s are whole nanoseconds, passed through Kneepoint.seconds unchanged.
    assert {s["duration_ns"] for s in steps} == {750_000_000}, steps
    assert {s["warmup_ns"] for s in steps} == {250_000_000}, steps
    summary = json.loads((new[0] / "summary.json").read_text())
    assert [s["warmup_s"] for s in summary["steps"]] == [0.25] * 4, summary["steps"]
    # Each step's measured window spans its duration plus at most the drain (64 users, 64-token answers on the
    # simulator: well under 2 s); the fast default (3 s) would give windows of >= 3 s, so < 3 s is the widest bound
    # that still tells them apart (it was 2.75 s: 0.25 s less room for a drain stretched by a loaded machine).
    assert all(0.7 <= s["window_s"] < 3.0 for s in summary["steps"]), summary["steps"]
    assert elapsed < 240, elapsed


def test_rate_sweep_notebook_plans_its_rates_between_the_measured_ends(executed):
    text = stream_text(executed(ROOT / "notebooks" / "12-letting-the-sweep-find-the-range.ipynb"))
    ends = re.search(r"r_sync ([\d.]+) req/s \(synchronous, 1 user\), r_max ([\d.]+) req/s \(throughput, (\d+) users\)",
                     text)
    planned = re.search(r'"planned_rates_rps" : \[ ([^\]]*) \]', text)
    exact = re.search(r'"synchronous_rps" : ([\d.Ee-]+),\s+"throughput_rps" : ([\d.Ee-]+),', text)
    rows = re.findall(r"^k=(\d+) planned (\S+) req/s\s+formula (\S+)\s+step (\S+) rate (\S+)\s+achieved ([\d.]+) req/s",
                      text, re.M)
    knee = re.search(r"^knee over (\d+) open steps: ", text, re.M)
    assert ends and planned and exact and rows and knee, text
    assert "mode: rate-sweep" in text, text
    users = int(ends.group(3))
    # The ends as the manifest records them (full precision) are the ones printed (3 decimals).
    r_sync, r_max = float(exact.group(1)), float(exact.group(2))
    assert abs(r_sync - float(ends.group(1))) <= 5e-4 and abs(r_max - float(ends.group(2))) <= 5e-4, text
    # The simulator (gpu-8b, 32 slots) probed with 64 users, then 128 (saturated: +<5 %, so no further doubling):
    # r_sync ~2.7, r_max ~43 req/s measured, at either. x5 leaves room for a loaded machine that slows the many
    # users' client far more than the one user's.
    assert users in (64, 128) and r_max > 5 * r_sync, text
    assert re.search(r"^saturation: saturated: ", text, re.M), text
    rates = [float(x) for x in planned.group(1).split(",")]
    n = len(rates)
    assert n == 5 and [int(k) for k, *_ in rows] == list(range(1, n + 1)), text  # fast mode: 5 open steps
    gap = (r_max - r_sync) / (n + 1)
    for k, rate in enumerate(rates, start=1):
        assert r_sync < rate < r_max, (rate, r_sync, r_max)
        # Evenly spaced: r_sync + k (r_max - r_sync) / (n + 1), each rounded to 5 significant digits (at most 5e-5 of
        # the rate; 1e-4 leaves a factor of two).
        assert abs(rate - (r_sync + k * gap)) <= 1e-4 * rate, (k, rate, r_sync + k * gap)
    for (k, plan, formula, label, step_rate, achieved), rate in zip(rows, rates):
        # Each open step ran at exactly the planned rate, under the plan's label.
        assert float(plan) == rate and float(step_rate) == rate and label == f"rate={plan}", (k, plan, label, step_rate)
        # Open loop: the server keeps up below r_max, so each step completes about its rate (Poisson: ~20% s.d. for
        # the ~30 requests of the lowest 3 s step; x0.5..x1.5 is > 2.5 s.d. there).
        assert 0.5 * rate < float(achieved) < 1.5 * rate, (k, rate, achieved)
    # The knee is computed over the open steps only: one table row per open step.
    assert int(knee.group(1)) == n, text

    guess = re.search(r"guessed ladder \[[^\]]*\] req/s: top ([\d.]+) req/s, below the sweep's first open step ([\d.]+)",
                      text)
    flat = re.search(r"guessed ladder ttft_sched p99 at most ([\d.]+) ms \(synchronous step: ttft p99 ([\d.]+) ms\)", text)
    assert guess and flat, text
    # The guessed ladder (1, 2, 4 req/s) lies wholly below the sweep's first open step (~9.3 req/s measured) ...
    assert float(guess.group(1)) < float(guess.group(2)) == rates[0], text
    # ... where nothing queues: TTFT stays near one user's (~17 ms measured; 12 ms at 4 req/s). 100 ms allows a
    # loaded machine's hiccups; a queue at a slot-limited server would cost a whole request (~375 ms).
    assert float(flat.group(1)) < 100, text


def test_slo_search_notebook_finds_the_capacity_at_the_slot_count(executed):
    text = stream_text(executed(ROOT / "notebooks" / "13-slo-capacity-search.ipynb"))
    order = re.search(r"^probes in the order they ran: \[([^\]]*)\]", text, re.M)
    answer = re.search(r"^SLO capacity: (\d+) users \(c=(\d+) attains ([\d.]+)% .*; c=(\d+) fails with ([\d.]+)%", text, re.M)
    rows = re.findall(r"^  c=(\d+)\s+([\d.]+)% \[([\d.]+)%, ([\d.]+)%\] of (\d+) requests  (passes|fails)$", text, re.M)
    assert order and answer and rows, text
    probes = [int(x.split("=")[1]) for x in order.group(1).split(", ")]
    # Doubling from one user while probes pass, then bisecting: the first probes are 1, 2, 4, 8, 16 (each passes
    # below the 16 slots, where nobody waits for a place in the batch).
    assert probes[:5] == [1, 2, 4, 8, 16], probes
    assert len(set(probes)) == len(probes) and len(probes) <= 12, probes
    passing, failing = int(answer.group(2)), int(answer.group(4))
    # Closed: adjacent users. The 16 slots pass; past them a queued user's wait breaks 300 ms for more than 1 % of
    # requests within a user or two (measured: c=17 fails, 31 of 32). 16..20 allows a quiet machine's luck.
    assert failing == passing + 1 and 16 <= passing <= 20, text
    assert int(answer.group(1)) == passing, text
    for users, pct, low, high, n, verdict in rows:
        # Every interval holds its attainment, and a verdict follows from the 99 % target.
        assert float(low) <= float(pct) <= float(high), (users, pct, low, high)
        # (The attainment is printed to 0.1 %: 98.95 % shows as 99.0 % and fails.)
        assert float(pct) >= 98.9 if verdict == "passes" else float(pct) <= 99.0, (users, pct, verdict)
    assert '"dimension" : "concurrency"' in text and '"max_passing" : {' in text, text
    assert re.search(r"Operating points: latency-first c=\d+ \(75.0% of the searched SLO capacity", text), text
    # The rate search: a one-user synchronous probe first, then open-loop rates; its answer in req/s.
    rates = re.search(r"^rate probes in the order they ran: \[([^\]]*)\]", text, re.M)
    assert rates, text
    rate_probes = rates.group(1).split(", ")
    assert rate_probes[0] == "synchronous" and all(p.startswith("rate=") for p in rate_probes[1:]), rate_probes
    assert 3 <= len(rate_probes) <= 1 + 8, rate_probes  # the synchronous step is not one of the 8 probes
    rate_answer = re.search(r"^SLO capacity: ([\d.]+) req/s \(rate=([\d.]+) attains .*; rate=([\d.]+) fails", text, re.M)
    assert rate_answer, text
    passing_rate, failing_rate = float(rate_answer.group(2)), float(rate_answer.group(3))
    assert passing_rate < failing_rate, text
    # 16 slots of about a second each: far more than one user's ~1 req/s, and at most the slots' ~16 req/s
    # (Little's law at a full batch; measured ~10-13 req/s).
    assert 2 < passing_rate < 17, text


def test_repeat_trials_notebook_interleaves_trials_and_compares_across_them(executed):
    text = stream_text(executed(ROOT / "notebooks" / "14-repeat-trials.ipynb"))
    order = re.search(r"^steps in the order they ran: \[([^\]]*)\]", text, re.M)
    assert order, text
    # Trial after trial: every load once, then every load again.
    assert order.group(1).split(", ") == [f"c={c} #{t}" for t in (1, 2, 3) for c in (1, 4, 16)], order.group(1)
    assert re.search(r"^Repeat trials \(3 per load; mean ± 95 % interval of the mean, CV\):$", text, re.M), text
    assert re.search(r"^  widest interval: ± [\d.]+% of the mean", text, re.M), text
    rows = re.findall(r"^(c=\d+)\s+(output_tokens_per_s|ttft_p99_ms)\s+([\d.]+) ->\s+([\d.]+)\s+"
                      r"\[\s*(-?[\d.]+),\s+(-?[\d.]+)\]\s+(\S+)\s+(.+)$", text, re.M)
    assert len(rows) == 6, text
    by = {(step, metric): (float(a), float(b), float(lo), float(hi), basis, verdict)
          for step, metric, a, b, lo, hi, basis, verdict in rows}
    # Both runs repeated every load, so every interval is across trials, the throughput rows' included.
    assert all(v[4] == "trials" for v in by.values()), by
    # Half the slots at 16 users: half of them queue for about a request's time (~0.5 s), far outside the spread.
    a, b, lo, hi, _, verdict = by[("c=16", "ttft_p99_ms")]
    assert verdict == "worse" and b > a + 100 and lo > 0, by
    a, b, lo, hi, _, verdict = by[("c=16", "output_tokens_per_s")]
    assert verdict == "worse" and b < a and hi < 0, by


def test_server_config_sweep_notebook_restarts_the_server_per_setting(executed):
    text = stream_text(executed(ROOT / "notebooks" / "15-server-config-sweep.ipynb"))
    # Each setting's server was started as a process of its own, waited for, measured and reported.
    for slots in ("4", "16"):
        assert re.search(rf"^serve-sweep: \[\d/2\] slots-{slots}: ready; measuring$", text, re.M), text
        assert re.search(rf"^slots-{slots}: COMPLETE -> slots-{slots}/\S+-slots-{slots}$", text, re.M), text
    rows = dict(re.findall(r"^(slots-\d+)\s+complete\s+([\d.]+)\s", text, re.M))
    assert set(rows) == {"slots-4", "slots-16"}, text
    # 16 users fill 4 slots (the batch is full, the rest queue) but fit in 16: the larger batch streams far more
    # (measured ~605 vs ~1850 tok/s).
    assert float(rows["slots-16"]) > 2 * float(rows["slots-4"]), rows
