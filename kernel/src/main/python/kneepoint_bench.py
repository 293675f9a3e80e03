"""Kernel cold start (launch to first executed cell) and trivial-cell latency, via jupyter_client.

    kneepoint_bench.py [--runs 3] [--cells 50] [--jvm-flag FLAG ...]

--jvm-flag runs the installed kernelspec with extra JVM flags (a temporary copy of the spec), to compare flags.
"""
import argparse
import json
import pathlib
import statistics
import sys
import tempfile
import time

from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

KERNEL = "kneepoint"


def execute(kc, code, timeout=60):
    msg_id = kc.execute(code)
    while True:
        reply = kc.get_shell_msg(timeout=timeout)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply


def spec_manager(flags, tmp):
    """The installed kernelspec, or a copy of it with extra JVM flags after the java executable."""
    if not flags:
        return KernelSpecManager()
    spec = KernelSpecManager().get_kernel_spec(KERNEL)
    d = pathlib.Path(tmp) / KERNEL
    d.mkdir(parents=True)
    argv = [spec.argv[0], *flags, *spec.argv[1:]]
    (d / "kernel.json").write_text(json.dumps({**spec.to_dict(), "argv": argv}))
    return KernelSpecManager(kernel_dirs=[tmp])


def measure(runs, cells, ksm):
    cold, trivial, magic = [], [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        km = KernelManager(kernel_name=KERNEL, kernel_spec_manager=ksm)
        km.start_kernel()
        kc = km.client()
        kc.start_channels()
        try:
            kc.wait_for_ready(timeout=60)
            reply = execute(kc, "1 + 1")
            cold.append(time.perf_counter() - t0)
            assert reply["content"]["status"] == "ok", reply["content"]
            for _ in range(5):
                execute(kc, "1 + 1")  # warm-up
            for i in range(cells):
                t = time.perf_counter()
                execute(kc, f"{i} + 1")
                trivial.append(time.perf_counter() - t)
            for _ in range(cells // 2):
                t = time.perf_counter()
                execute(kc, "%lsmagic")  # no JShell: the protocol and the kernel's own per-cell work
                magic.append(time.perf_counter() - t)
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    return cold, trivial, magic


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cells", type=int, default=50)
    ap.add_argument("--jvm-flag", action="append", default=[])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cold, trivial, magic = measure(a.runs, a.cells, spec_manager(a.jvm_flag, tmp))
    ms = sorted(x * 1000 for x in trivial)
    if a.jvm_flag:
        print("extra JVM flags: " + " ".join(a.jvm_flag))
    print(f"cold start to first result: median {statistics.median(cold):.2f} s "
          f"(runs: {', '.join(f'{c:.2f}' for c in cold)})")
    print(f"trivial cell round trip: median {statistics.median(ms):.1f} ms, "
          f"p90 {ms[int(0.9 * len(ms))]:.1f} ms, min {ms[0]:.1f} ms ({len(ms)} cells)")
    mm = sorted(x * 1000 for x in magic)
    print(f"%lsmagic round trip (no JShell): median {statistics.median(mm):.1f} ms, min {mm[0]:.1f} ms ({len(mm)} cells)")


if __name__ == "__main__":
    sys.exit(main())
