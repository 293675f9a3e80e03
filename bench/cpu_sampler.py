#!/usr/bin/env python3
"""Samples a process tree's CPU and the simulator's generated-token counter on one clock.

    cpu_sampler.py --pid PID --metrics URL --out samples.tsv [--interval 0.1]

Every interval, until PID exits, writes one line: monotonic seconds, the CPU seconds of PID and all its
descendants (utime + stime + cutime + cstime of each live process, so a child that exited and was reaped
stays counted in its parent), and `vllm:generation_tokens_total` read from the simulator's /metrics.
bench/peers.sh runs it beside every tool; PeerOutputs takes the CPU between the first sample after the
tokens began to rise and the last sample before they stopped: the tool's CPU per token under load, with
start-up, dataset preparation and report writing left out whatever their size.
The sampler's own CPU is not in the tree it measures (it is not a descendant of PID).
"""
import argparse
import os
import sys
import time
import urllib.request

TICKS = os.sysconf("SC_CLK_TCK")
METRIC = "vllm:generation_tokens_total"


def stat_fields(pid):
    """/proc/PID/stat after the command name (fields[0] is the state), or None when the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    return stat[stat.rfind(b")") + 2:].split()


def children_map():
    """parent pid -> list of child pids, for every process on the machine."""
    kids = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        fields = stat_fields(name)
        if fields is not None:
            kids.setdefault(int(fields[1]), []).append(int(name))
    return kids


def tree_cpu_seconds(root):
    kids = children_map()
    total = 0
    stack = [root]
    while stack:
        pid = stack.pop()
        fields = stat_fields(pid)
        if fields is None:
            continue
        # fields[0] is the state (stat field 3): utime..cstime are stat fields 14-17
        total += sum(int(x) for x in fields[11:15])
        stack.extend(kids.get(pid, []))
    return total / TICKS


def generated_tokens(url):
    try:
        with urllib.request.urlopen(url, timeout=2) as r:
            lines = [line for line in r.read().decode("utf-8", "replace").splitlines()
                     if line.startswith(METRIC + "{") or line.startswith(METRIC + " ")]
    except OSError:
        return float("nan")
    return sum(float(line.rsplit(" ", 1)[1]) for line in lines) if lines else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pid", type=int, required=True)
    ap.add_argument("--metrics", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--interval", type=float, default=0.1)
    a = ap.parse_args()
    with open(a.out, "w", encoding="utf-8") as out:
        out.write("t_s\tcpu_s\tgenerated_tokens\n")
        while os.path.exists(f"/proc/{a.pid}"):
            t = time.monotonic()
            cpu = tree_cpu_seconds(a.pid)
            tokens = generated_tokens(a.metrics)
            out.write(f"{t:.4f}\t{cpu:.2f}\t{tokens:.0f}\n")
            out.flush()
            time.sleep(max(0.0, a.interval - (time.monotonic() - t)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
