"""Kernel cold start (launch to first executed cell) and trivial-cell latency, via jupyter_client."""
import statistics
import sys
import time

from jupyter_client.manager import KernelManager

KERNEL = "kneepoint"


def execute(kc, code, timeout=60):
    msg_id = kc.execute(code)
    while True:
        reply = kc.get_shell_msg(timeout=timeout)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply


def measure(runs=3, cells=50):
    cold, trivial = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        km = KernelManager(kernel_name=KERNEL)
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
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    return cold, trivial


def main():
    cold, trivial = measure()
    ms = sorted(x * 1000 for x in trivial)
    print(f"cold start to first result: median {statistics.median(cold):.2f} s "
          f"(runs: {', '.join(f'{c:.2f}' for c in cold)})")
    print(f"trivial cell round trip: median {statistics.median(ms):.1f} ms, "
          f"p90 {ms[int(0.9 * len(ms))]:.1f} ms, min {ms[0]:.1f} ms ({len(ms)} cells)")


if __name__ == "__main__":
    sys.exit(main())
