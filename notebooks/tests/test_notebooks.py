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
