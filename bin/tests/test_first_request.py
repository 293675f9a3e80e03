"""The first requests of a fresh JVM leave on time (docs/PERFORMANCE.md, "Dispatch precision").

A fresh `bin/kneepoint run` process at 5 req/s for a 5 s step without a step warm-up, against a fast simulator
that keeps up (so that only the client's own timing is measured): the first request's schedule lag
(t_dispatch - t_intended, METRICS.md) stays under 1 ms and the largest of the 25 under 5 ms. Run by
`bin/kneepoint test` (through `bin/kneepoint-kernel test`).

The bound on the largest lag is not 1 ms: on 2 cores shared with the simulator's fresh JVM, a request now and then
leaves ~3 ms late whatever the client (measured 2026-12-07 on 814e938 and on this session's code alike: the largest
of 25 was 0.34-3.3 ms over 10 fresh JVMs, the first request 0.04-0.26 ms; the CI's run saw 2.9-3.1 ms three times).
The regression this guards against, a cold dispatch path, put the first request 10-40 ms late in every run."""

import json
import math
import pathlib
import socket
import subprocess
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
KNEEPOINT = str(ROOT / "bin" / "kneepoint")
FIRST_LIMIT_MS = 1.0
LIMIT_MS = 5.0
TRIES = 3


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def await_listening(port, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"the simulator did not listen on {port} within {seconds} s")


def lags_ms(run_dir):
    (requests,) = run_dir.glob("**/requests.jsonl")
    records = [json.loads(line) for line in requests.read_text().splitlines() if line.strip()]
    records.sort(key=lambda r: r["t_intended_ns"])
    return [(r["t_dispatch_ns"] - r["t_intended_ns"]) / 1e6 for r in records]


def p99(values):
    ordered = sorted(values)
    return ordered[math.ceil(0.99 * len(ordered)) - 1]  # nearest rank: with 25 requests, the largest


def test_the_first_requests_of_a_fresh_jvm_leave_within_a_millisecond(tmp_path):
    port = free_port()
    sim = subprocess.Popen([KNEEPOINT, "sim", "--port", str(port), "--preset", "fast"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
    try:
        await_listening(port)
        seen = []
        # Noise on this shared machine only ever adds lag, and can add it to any one run; a client whose cold path
        # is slow (the first request 10-40 ms late before the dispatch path was prepared ahead) fails every run.
        for attempt in range(TRIES):
            out = tmp_path / f"run{attempt}"
            p = subprocess.run([KNEEPOINT, "run", "--url", f"http://127.0.0.1:{port}", "--model", "sim-fast",
                                "--rate", "5", "--arrival", "constant", "--step", "5s", "--warmup", "0s",
                                "--output-tokens", "32", "--out", str(out)],
                               capture_output=True, text=True, timeout=180)
            assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-2000:]
            lags = lags_ms(out)
            assert len(lags) == 25 and min(lags) >= 0, lags
            seen.append((round(p99(lags), 3), round(lags[0], 3)))
            print(f"fresh JVM {attempt + 1}: schedule lag p99 {seen[-1][0]} ms, first request {seen[-1][1]} ms")
            if p99(lags) < LIMIT_MS and lags[0] < FIRST_LIMIT_MS:
                return
        raise AssertionError(f"schedule lag p99 (ms) and the first request's lag, per fresh JVM: {seen}")
    finally:
        sim.terminate()
        sim.wait(timeout=30)
