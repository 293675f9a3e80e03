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


def test_smoke_notebook_renders_tables_charts_and_a_simulated_sweep_and_takes_parameters(tmp_path):
    out_ipynb, out_html = kneepoint_report.run(NOTEBOOK, tmp_path, {"rows": 12}, timeout=120)
    nb = nbformat.read(str(out_ipynb), as_version=4)
    outs = outputs_of(nb)
    assert not [o for o in outs if o.output_type == "error"], [o for o in outs if o.output_type == "error"]
    html = [o.data["text/html"] for o in outs if "data" in o and "text/html" in o.data]
    assert any("<table" in h and "12 rows" in h for h in html), html  # the injected parameter took effect
    assert any("image/png" in o.get("data", {}) for o in outs)
    sweep = [c for c in nb.cells if c.cell_type == "code" and "Kneepoint.ladder" in c.source][0]
    result = [o for o in sweep.outputs if o.output_type == "execute_result"][0].data
    # The RunResult renderer: a run header and one row per step of the simulated ladder.
    assert result["text/plain"].startswith("RunResult[") and "2 steps" in result["text/plain"]
    assert "<b>Run " in result["text/html"] and ">c=1<" in result["text/html"] and ">c=2<" in result["text/html"]
    knee = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("Plots.knee")][0]
    assert knee.outputs[0].data["image/png"].startswith("iVBORw0KGgo")  # base64 of the PNG signature
    steps = [c for c in nb.cells if c.cell_type == "code" and c.source.startswith("Tables.steps")][0]
    steps_html = steps.outputs[0].data["text/html"]
    assert "<table" in steps_html and "requests_ok" in steps_html and steps_html.count("<tr>") >= 3  # head + 2 steps
    assert nb.cells[-1].outputs[0].data["text/plain"] == "true"  # the simulator answered requests at c=2
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


def notebook_with_parameters(source):
    nb = nbformat.v4.new_notebook()
    nb.cells.append(nbformat.v4.new_code_cell(source, metadata={"tags": ["parameters"]}))
    return nb


PARAMETERS = 'String url = "";\nboolean fast = true;   // short steps\ndouble step_seconds = -1; // seconds\nint users = 4;\n'


def test_report_parameters_are_checked_against_the_parameters_cell_and_take_its_types():
    nb = notebook_with_parameters(PARAMETERS)
    declared = kneepoint_report.declared_parameters(nb)
    assert list(declared) == ["url", "fast", "step_seconds", "users"]
    assert declared["fast"].inferred_type_name == "boolean" and declared["fast"].help == "short steps"
    checked = kneepoint_report.checked_parameters(nb, {"fast": False, "step_seconds": 3, "url": 7}, "n.ipynb")
    assert checked == {"fast": False, "step_seconds": 3.0, "url": "7"}
    assert isinstance(checked["step_seconds"], float)  # injected as `var step_seconds = 3.0;`, a double
    t = kneepoint_report.JavaTranslator
    assert t.assign("step_seconds", t.translate(checked["step_seconds"])) == "var step_seconds = 3.0;"


def test_a_misspelt_or_mistyped_report_parameter_is_a_clear_error_naming_the_known_ones():
    nb = notebook_with_parameters(PARAMETERS)
    try:
        kneepoint_report.checked_parameters(nb, {"fsat": True}, "n.ipynb")
        raise AssertionError("expected a ParameterError")
    except kneepoint_report.ParameterError as e:
        assert "declares no parameter fsat" in str(e) and "fast (boolean, default true)" in str(e)
    for params, words in (({"users": 2.5}, "pass a whole number"), ({"fast": "yes"}, "pass true or false")):
        try:
            kneepoint_report.checked_parameters(nb, params, "n.ipynb")
            raise AssertionError("expected a ParameterError for %r" % params)
        except kneepoint_report.ParameterError as e:
            assert words in str(e)
    try:
        kneepoint_report.checked_parameters(nbformat.v4.new_notebook(), {"fast": True}, "n.ipynb")
        raise AssertionError("expected a ParameterError")
    except kneepoint_report.ParameterError as e:
        assert "no code cell tagged 'parameters'" in str(e)
    assert kneepoint_report.checked_parameters(nbformat.v4.new_notebook(), {}, "n.ipynb") == {}


def test_every_shipped_notebook_declares_fast_in_its_parameters_cell():
    for path in sorted((ROOT / "notebooks").glob("*.ipynb")):
        declared = kneepoint_report.declared_parameters(nbformat.read(str(path), as_version=4))
        assert "fast" in declared and declared["fast"].inferred_type_name == "boolean", path.name


def test_a_cells_consecutive_writes_to_one_stream_become_one_output():
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("System.out.printf(...)")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="c=1 "),
                    nbformat.v4.new_output("stream", name="stdout", text="  12.5\n"),
                    nbformat.v4.new_output("stream", name="stderr", text="warn\n"),
                    nbformat.v4.new_output("display_data", data={"text/plain": "x"}),
                    nbformat.v4.new_output("stream", name="stdout", text="after\n")]
    nb.cells = [cell, nbformat.v4.new_markdown_cell("text")]
    merged = kneepoint_report.merge_streams(nb).cells[0].outputs
    assert [(o.output_type, o.get("name"), o.get("text")) for o in merged] == [
        ("stream", "stdout", "c=1   12.5\n"), ("stream", "stderr", "warn\n"), ("display_data", None, None),
        ("stream", "stdout", "after\n")]
