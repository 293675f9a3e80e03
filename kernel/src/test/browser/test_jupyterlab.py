"""Notebooks 01 and 02 in real JupyterLab 4, driven in headless Chromium by Playwright: every code cell runs,
no cell errors, a chart renders inside its output area, and (02) the sweep's live progress shows while its cell
is still running. Screenshots go to reports/browser/ for a person to look at.

Needs Debian's chromium (KNEEPOINT_CHROMIUM or /usr/bin/chromium); Playwright drives it by its path, since its
own browser download cannot be reached here."""
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[4]
CHROMIUM = os.environ.get("KNEEPOINT_CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
SHOTS = ROOT / "reports" / "browser"
# Chromium's own network chatter is refused on this closed network; these flags keep it quiet and fast.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
WIDTH, HEIGHT = 1300, 900  # a laptop's width, with the file browser open


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set KNEEPOINT_CHROMIUM)")
    port, token = free_port(), "kneepoint-browser-test"
    home = tmp_path_factory.mktemp("lab")
    env = dict(os.environ, JUPYTER_RUNTIME_DIR=str(home / "runtime"), JUPYTER_CONFIG_DIR=str(home / "config"))
    # A copy of the notebooks, so that running them leaves the checkout's files as they are.
    work = home / "notebooks"
    shutil.copytree(ROOT / "notebooks", work, ignore=shutil.ignore_patterns("runs", "tests", ".ipynb_checkpoints"))
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
           f"--IdentityProvider.token={token}", "--LabApp.expose_app_in_browser=True",
           f"--ServerApp.root_dir={work}", "--ServerApp.disable_check_xsrf=True"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=open(home / "lab.log", "w"))
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            urllib.request.urlopen(f"{base}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if time.time() > deadline or server.poll() is not None:
                server.kill()
                raise RuntimeError("JupyterLab did not start: " + (home / "lab.log").read_text()[-2000:])
            time.sleep(0.5)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield base, token, browser
        browser.close()
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()


# The notebook model, read through the app JupyterLab exposes (expose_app_in_browser): what ran and what errored.
CELLS_JS = """() => {
  const nb = window.jupyterapp.shell.currentWidget.content;
  return nb.widgets.filter(c => c.model.type === 'code').map(c => ({
    count: c.model.executionCount,
    errors: c.model.outputs.toJSON().filter(o => o.output_type === 'error').map(o => o.ename + ': ' + o.evalue),
  }));
}"""

# The kernel's status, "unknown" for the moments the session is between kernels.
STATUS_JS = """() => { const s = window.jupyterapp.shell.currentWidget.sessionContext.session;
  return s && s.kernel ? s.kernel.status : 'unknown'; }"""

PROGRESS_JS = """() => window.jupyterapp.shell.currentWidget.content.widgets.some(c =>
  c.model.type === 'code' && c.model.executionCount === null && c.model.outputs.toJSON().some(o =>
    o.data && String(o.data['text/html'] || '').includes('kneepoint-progress')))"""

# Each rendered chart (PNG or SVG) against the output area holding it: a chart wider than its area is clipped.
CHARTS_JS = """() => [...document.querySelectorAll('.jp-OutputArea-output img, .jp-OutputArea-output svg')]
  .filter(e => e.getBoundingClientRect().width > 100)
  .map(e => { const area = e.closest('.jp-OutputArea'); const r = e.getBoundingClientRect();
              const a = area.getBoundingClientRect();
              return {width: r.width, right: r.right, areaRight: a.right,
                      loaded: e.tagName !== 'IMG' || (e.complete && e.naturalWidth > 0)}; })"""


def run_notebook(lab, name, watch_progress=False, timeout_s=420):
    base, token, browser = lab
    page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    # A workspace of its own, reset: else JupyterLab restores the previous page's notebook beside this one, and
    # the commands below could reach that one.
    page.goto(f"{base}/lab/workspaces/{name.split('-')[0]}/tree/{name}?reset&token={token}")
    page.wait_for_function(f"() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           f" && window.jupyterapp.shell.currentWidget.context"
                           f" && window.jupyterapp.shell.currentWidget.context.path === '{name}'", timeout=90_000)
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel", timeout=90_000)
    page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
                           " === 'idle'", timeout=120_000)
    # Not awaited (the command's promise ends with the last cell): the loop below watches the cells run.
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    progress_seen = False
    deadline = time.time() + timeout_s
    while True:
        cells = page.evaluate(CELLS_JS)
        busy = page.evaluate(STATUS_JS)
        if watch_progress and not progress_seen and busy == "busy":
            # In the notebook's model (JupyterLab renders only the cells in view): a cell still running whose
            # output holds the live progress display.
            progress_seen = page.evaluate(PROGRESS_JS)
            if progress_seen:
                page.screenshot(path=str(SHOTS / f"{name}-progress.png"))
        if all(c["count"] for c in cells) and busy == "idle":
            break
        if any(c["errors"] for c in cells):
            break
        assert time.time() < deadline, f"{name}: cells still running after {timeout_s} s: {cells}"
        time.sleep(0.25)
    page.wait_for_timeout(500)  # let the last images decode
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    charts = page.evaluate(CHARTS_JS)
    page.close()
    return cells, charts, progress_seen


def check(name, cells, charts):
    assert cells, f"{name}: no code cells"
    assert all(c["count"] for c in cells), f"{name}: cells that did not run: {cells}"
    assert not [c for c in cells if c["errors"]], f"{name}: errors: {[c['errors'] for c in cells if c['errors']]}"
    assert charts and all(c["loaded"] for c in charts), f"{name}: no chart rendered: {charts}"
    clipped = [c for c in charts if c["right"] > c["areaRight"] + 1]
    assert not clipped, f"{name}: charts wider than their output area at {WIDTH} px: {clipped}"


@pytest.fixture(scope="module", autouse=True)
def shots():
    SHOTS.mkdir(parents=True, exist_ok=True)


def test_quickstart_runs_every_cell_and_its_charts_fit(lab):
    cells, charts, _ = run_notebook(lab, "01-quickstart.ipynb")
    check("01", cells, charts)


def test_the_ladder_notebook_shows_progress_while_its_sweep_runs(lab):
    cells, charts, progress_seen = run_notebook(lab, "02-concurrency-ladder-and-knee.ipynb", watch_progress=True)
    check("02", cells, charts)
    assert progress_seen, "02: no live progress display appeared while the kernel was busy"
