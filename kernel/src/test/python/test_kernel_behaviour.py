"""Interrupt, readable errors and rich display through the real kernel process (jupyter_client)."""
import shutil
import time
import urllib.error
import urllib.request

import pytest
from jupyter_client.manager import start_new_kernel


@pytest.fixture(scope="module")
def kernel():
    km, kc = start_new_kernel(kernel_name="kneepoint", startup_timeout=60)
    yield kc
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def run(kc, code, timeout=60):
    """Executes code; returns (reply content, iopub messages of this request)."""
    msg_id = kc.execute(code)
    reply = kc.get_shell_msg(timeout=timeout)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=timeout)
    outputs = []
    while True:
        msg = kc.get_iopub_msg(timeout=timeout)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return reply["content"], outputs
        outputs.append(msg)


def interrupt_after(kc, km_interrupt, code, wait_s=1.0):
    msg_id = kc.execute(code)
    # An interrupt that arrives before the kernel took the request up is ignored, as in any Jupyter kernel
    # (nothing runs yet). On a loaded machine the request can wait in the queue for a while, so wait until
    # the kernel announced it (execute_input), then wait_s more.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "execute_input":
            break
    time.sleep(wait_s)
    t0 = time.perf_counter()
    km_interrupt()
    reply = kc.get_shell_msg(timeout=10)
    while reply["parent_header"].get("msg_id") != msg_id:
        reply = kc.get_shell_msg(timeout=10)
    return reply["content"], time.perf_counter() - t0


@pytest.mark.parametrize("code", [
    "long spins = 0; while (true) { spins++; }",  # busy loop in cell code
    "Thread.sleep(600_000);",  # blocked, interruptible call, like a running sweep
])
def test_interrupt_stops_the_cell_within_a_second_and_the_kernel_stays_usable(code):
    km, kc = start_new_kernel(kernel_name="kneepoint", startup_timeout=60)
    try:
        run(kc, "1")  # JShell is up: the interrupt below hits a running cell
        content, took = interrupt_after(kc, km.interrupt_kernel, code)
        assert content["status"] == "error"
        assert content["ename"] == "Interrupted"
        # The requirement is "within a second"; measured ~0.05 s, so 1 s is a real bound, not a formality.
        assert took < 1.0, f"interrupt took {took:.2f} s"
        content, outputs = run(kc, "21 * 2")
        assert content["status"] == "ok"
        results = [m for m in outputs if m["msg_type"] == "execute_result"]
        assert results[0]["content"]["data"]["text/plain"] == "42"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_an_interrupt_during_kernel_startup_stops_the_first_cell():
    km, kc = start_new_kernel(kernel_name="kneepoint", startup_timeout=60)
    try:
        content, took = interrupt_after(kc, km.interrupt_kernel, "Thread.sleep(600_000);", wait_s=0.6)
        assert content["status"] == "error" and content["ename"] == "Interrupted"
        content, _ = run(kc, "1 + 1")
        assert content["status"] == "ok"
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_a_typo_gives_a_short_error(kernel):
    content, outputs = run(kernel, "int a = 1;\nint b = a + typo;")
    assert content["status"] == "error"
    err = [m for m in outputs if m["msg_type"] == "error"][0]["content"]
    text = "\n".join(err["traceback"])
    assert "cannot find symbol" in text and "typo" in text
    assert len(err["traceback"]) < 8


def test_a_runtime_error_names_the_exception_in_a_few_lines(kernel):
    content, outputs = run(kernel, "Integer.parseInt(\"x\")")
    assert content["status"] == "error"
    err = [m for m in outputs if m["msg_type"] == "error"][0]["content"]
    assert "java.lang.NumberFormatException" in err["traceback"][0]
    assert len(err["traceback"]) <= 10


def test_charts_render_as_png_and_svg(kernel):
    content, outputs = run(kernel, 'QuickChart.getChart("c", "x", "y", "y", new double[]{1, 2}, new double[]{3, 4})')
    assert content["status"] == "ok"
    data = [m for m in outputs if m["msg_type"] == "execute_result"][0]["content"]["data"]
    assert data["image/png"].startswith("iVBORw0KGgo")  # base64 of the PNG signature
    assert "<svg" in data["image/svg+xml"]


def test_live_progress_is_one_display_updated_in_place(kernel):
    code = """
var n = new java.util.concurrent.atomic.AtomicLong();
var p = live(() -> Optional.of(new StepProgress("c=4", n.incrementAndGet(), 0, 0, 10.0, 5.0, 6.0, 4)));
Thread.sleep(1300);
p.close();
"""
    content, outputs = run(kernel, code)
    assert content["status"] == "ok"
    shown = [m for m in outputs if m["msg_type"] == "display_data"]
    updates = [m for m in outputs if m["msg_type"] == "update_display_data"]
    assert len(shown) == 1
    display_id = shown[0]["content"]["transient"]["display_id"]
    # Polled every 0.5 s for 1.3 s, plus the final "done": at least 2 updates, all to the same display.
    assert len(updates) >= 2
    assert {u["content"]["transient"]["display_id"] for u in updates} == {display_id}
    assert updates[-1]["content"]["data"]["text/plain"].startswith("done")


def test_magics(kernel, tmp_path):
    content, outputs = run(kernel, "%%time\nint t = 3;\nt * 2")
    assert content["status"] == "ok"
    text = "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream")
    assert "Wall time:" in text
    content, _ = run(kernel, "%jars /definitely/not/here.jar")
    assert content["status"] == "error" and "nothing found" in content["evalue"]


def maven_central_reachable():
    url = "https://repo.maven.apache.org/maven2/org/apache/commons/commons-lang3/3.14.0/commons-lang3-3.14.0.pom"
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=5):
            return True
    except urllib.error.HTTPError:
        return True  # the server answered
    except OSError:
        return False


@pytest.mark.skipif(shutil.which("mvn") is None, reason="%maven resolves through Maven: no mvn on the PATH")
def test_maven_magic_puts_an_artifact_from_maven_central_on_the_class_path(kernel):
    if not maven_central_reachable():
        pytest.skip("Maven Central (https://repo.maven.apache.org) is unreachable from this machine")
    # Downloaded from Maven Central unless already in ~/.m2/repository (Maven looks there first).
    content, outputs = run(kernel, "%maven org.apache.commons:commons-lang3:3.14.0", timeout=300)
    assert content["status"] == "ok", content
    text = "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream")
    assert "commons-lang3-3.14.0.jar" in text
    content, outputs = run(kernel, 'org.apache.commons.lang3.StringUtils.capitalize("knee")')
    assert content["status"] == "ok", content
    assert [m for m in outputs if m["msg_type"] == "execute_result"][0]["content"]["data"]["text/plain"] == "Knee"


def test_a_shutdown_request_ends_the_kernel_even_while_a_cell_ignores_the_interrupt():
    km, kc = start_new_kernel(kernel_name="kneepoint", startup_timeout=60)
    try:
        run(kc, "1")
        kc.execute("while (true) { Thread.onSpinWait(); }")
        time.sleep(0.5)
        t0 = time.perf_counter()
        km.request_shutdown()
        while km.is_alive() and time.perf_counter() - t0 < 10:
            time.sleep(0.05)
        # The channels wait at most ~1.4 s for a busy request loop; measured 1.6-2.1 s to exit. jupyter_client
        # would kill the process after 5 s, so exiting by itself within 5 s is what shows the kernel did it.
        assert not km.is_alive(), "kernel still running 10 s after shutdown_request"
        assert time.perf_counter() - t0 < 5.0
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)
