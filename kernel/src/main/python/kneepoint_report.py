"""Run a notebook headlessly with parameters (papermill) on the Kneepoint kernel; write NAME.ipynb and NAME.html.

usage: kneepoint_report.py [--reports DIR] [--timeout S] NOTEBOOK.ipynb [-p KEY VALUE ...]
"""
import argparse
import json
import pathlib
import sys

import nbformat
import papermill
from nbconvert import HTMLExporter
from papermill.translators import Translator, papermill_translators

KERNEL = "kneepoint"


class JavaTranslator(Translator):
    """Parameters as JShell declarations: `var name = value;` (papermill has no Java translator)."""

    @classmethod
    def translate_none(cls, val):
        return "null"

    @classmethod
    def translate_str(cls, val):
        return json.dumps(val)  # a JSON string literal is a valid Java string literal

    @classmethod
    def translate_bool(cls, val):
        return "true" if val else "false"

    @classmethod
    def translate_int(cls, val):
        return f"{val}L" if not -2**31 <= val < 2**31 else str(val)

    @classmethod
    def translate_float(cls, val):
        return repr(float(val))

    @classmethod
    def translate_dict(cls, val):
        entries = ", ".join(f"Map.entry({cls.translate(k)}, {cls.translate(v)})" for k, v in val.items())
        return f"Map.ofEntries({entries})"

    @classmethod
    def translate_list(cls, val):
        return "List.of(" + ", ".join(cls.translate(v) for v in val) + ")"

    @classmethod
    def comment(cls, cmt_str):
        return f"// {cmt_str}".strip()

    @classmethod
    def assign(cls, name, str_val):
        return f"Object {name} = null;" if str_val == "null" else f"var {name} = {str_val};"


def register():
    papermill_translators.register(KERNEL, JavaTranslator)
    papermill_translators.register("java", JavaTranslator)
    papermill_translators.register("Java", JavaTranslator)


def parse_value(text):
    """-p values: integers, decimals, true/false, null, else the string itself."""
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "null": None}.get(text, text)


def run(notebook, reports, parameters, timeout=None):
    register()
    notebook = pathlib.Path(notebook).resolve()
    reports = pathlib.Path(reports)
    reports.mkdir(parents=True, exist_ok=True)
    out_ipynb = reports / notebook.name
    papermill.execute_notebook(str(notebook), str(out_ipynb), parameters=parameters, kernel_name=KERNEL,
                               language="java", cwd=str(notebook.parent), progress_bar=False,
                               execution_timeout=timeout)
    nb = nbformat.read(str(out_ipynb), as_version=4)
    html, _ = HTMLExporter(embed_images=True).from_notebook_node(nb)
    out_html = out_ipynb.with_suffix(".html")
    out_html.write_text(html, encoding="utf-8")
    return out_ipynb, out_html


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reports", default="reports")
    ap.add_argument("--timeout", type=float, default=None, help="seconds per cell (default: none)")
    ap.add_argument("notebook")
    ap.add_argument("-p", "--parameter", nargs=2, action="append", default=[], metavar=("KEY", "VALUE"))
    args = ap.parse_args(argv)
    params = {k: parse_value(v) for k, v in args.parameter}
    out_ipynb, out_html = run(args.notebook, args.reports, params, args.timeout)
    print(f"report: {out_ipynb}\nreport: {out_html}")


if __name__ == "__main__":
    sys.exit(main())
