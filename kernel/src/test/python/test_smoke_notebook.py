"""Executes the smoke notebook headlessly (papermill, as `report` does) and checks its outputs."""
import pathlib
import sys

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "kernel" / "src" / "main" / "python"))
import kneepoint_report  # noqa: E402

NOTEBOOK = ROOT / "kernel" / "src" / "test" / "notebooks" / "smoke.ipynb"


def outputs_of(nb):
    return [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]


def test_smoke_notebook_renders_a_table_a_chart_and_takes_parameters(tmp_path):
    out_ipynb, out_html = kneepoint_report.run(NOTEBOOK, tmp_path, {"rows": 12}, timeout=120)
    nb = nbformat.read(str(out_ipynb), as_version=4)
    outs = outputs_of(nb)
    assert not [o for o in outs if o.output_type == "error"], [o for o in outs if o.output_type == "error"]
    html = [o.data["text/html"] for o in outs if "data" in o and "text/html" in o.data]
    assert any("<table" in h and "12 rows" in h for h in html), html  # the injected parameter took effect
    assert any("image/png" in o.get("data", {}) for o in outs)
    report = out_html.read_text(encoding="utf-8")
    assert "data:image/png;base64," in report


def test_java_parameters_translate_to_jshell_declarations():
    t = kneepoint_report.JavaTranslator
    assert t.assign("rows", t.translate(12)) == "var rows = 12;"
    assert t.assign("name", t.translate('a "b"')) == 'var name = "a \\"b\\"";'
    assert t.assign("rate", t.translate(2.5)) == "var rate = 2.5;"
    assert t.assign("big", t.translate(2**40)) == "var big = 1099511627776L;"
    assert t.assign("x", t.translate(None)) == "Object x = null;"
    assert kneepoint_report.parse_value("8") == 8 and kneepoint_report.parse_value("true") is True
