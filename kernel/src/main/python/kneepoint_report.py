"""Run a notebook headlessly with parameters (papermill) on the Kneepoint kernel; write NAME.ipynb and NAME.html.

usage: kneepoint_report.py [--reports DIR] [--timeout S] NOTEBOOK.ipynb [-p KEY VALUE ...]
"""
import argparse
import json
import pathlib
import re
import sys

import nbformat
import papermill
from nbconvert import HTMLExporter
from papermill.models import Parameter
from papermill.translators import Translator, papermill_translators

KERNEL = "kneepoint"

# One declaration per line in the parameters cell: `Type name = value;   // help`.
DECLARATION = re.compile(r"^\s*(?:final\s+)?(?P<type>[A-Za-z_][\w.<>\[\], ]*?)\s+(?P<name>[A-Za-z_]\w*)\s*=\s*"
                         r"(?P<default>.*?);\s*(?://\s*(?P<help>.*))?$")


class ParameterError(ValueError):
    """A -p parameter the notebook's parameters cell does not declare, or a value its type cannot take."""


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

    @classmethod
    def inspect(cls, parameters_cell):
        """The declarations of a parameters cell (papermill asks, to tell known parameters from unknown)."""
        found = []
        for line in parameters_cell.source.splitlines():
            m = DECLARATION.match(line)
            if m:
                found.append(Parameter(name=m["name"], inferred_type_name=m["type"], default=m["default"],
                                       help=(m["help"] or "").strip()))
        return found


def declared_parameters(nb):
    """The parameters the notebook's cell tagged `parameters` declares, by name (empty when it has none)."""
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.get("metadata", {}).get("tags", []):
            return {p.name: p for p in JavaTranslator.inspect(cell)}
    return {}


def typed(name, value, java_type):
    """The -p value as the declared Java type takes it (`-p step_seconds 3` stays a double, `-p model 7` a String)."""
    kind = java_type.split(".")[-1]
    if kind == "String":
        return value if value is None or isinstance(value, str) else json.dumps(value)
    if kind in ("double", "Double", "float", "Float") and isinstance(value, (int, float)) \
            and not isinstance(value, bool):
        return float(value)
    if kind in ("int", "Integer", "long", "Long") and (not isinstance(value, int) or isinstance(value, bool)):
        raise ParameterError(f"parameter '{name}' is declared {java_type} but got {value!r}; pass a whole number")
    if kind in ("boolean", "Boolean") and not isinstance(value, bool):
        raise ParameterError(f"parameter '{name}' is declared {java_type} but got {value!r}; pass true or false")
    return value


def checked_parameters(nb, parameters, notebook_name):
    """`parameters` checked against the parameters cell and converted to its declared types."""
    if not parameters:
        return {}
    declared = declared_parameters(nb)
    if not declared:
        raise ParameterError(f"{notebook_name} has no code cell tagged 'parameters', so -p "
                             f"{', '.join(sorted(parameters))} would change nothing; tag its parameters cell "
                             "or drop the -p options")
    unknown = sorted(set(parameters) - set(declared))
    if unknown:
        known = ", ".join(f"{p.name} ({p.inferred_type_name}, default {p.default})" for p in declared.values())
        raise ParameterError(f"{notebook_name} declares no parameter {', '.join(unknown)}; "
                             f"its parameters are: {known}")
    return {k: typed(k, v, declared[k].inferred_type_name) for k, v in parameters.items()}


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


def merge_streams(nb):
    """Each cell's consecutive outputs of one stream as one output, as a live notebook shows them.

    The kernel sends every write as its own stream message (a printf's every piece), and the HTML export would put
    each on a line of its own. (nbclient's coalesce_streams does this during the run, but hung with this kernel.)
    """
    for cell in nb.cells:
        merged = []
        for out in cell.get("outputs", []):
            last = merged[-1] if merged else None
            if (out.get("output_type") == "stream" and last is not None and last.get("output_type") == "stream"
                    and last.get("name") == out.get("name")):
                last["text"] = last["text"] + out["text"]
            else:
                merged.append(out)
        if "outputs" in cell:
            cell["outputs"] = merged
    return nb


def run(notebook, reports, parameters, timeout=None):
    register()
    notebook = pathlib.Path(notebook).resolve()
    reports = pathlib.Path(reports)
    reports.mkdir(parents=True, exist_ok=True)
    out_ipynb = reports / notebook.name
    parameters = checked_parameters(nbformat.read(str(notebook), as_version=4), parameters, notebook.name)
    papermill.execute_notebook(str(notebook), str(out_ipynb), parameters=parameters, kernel_name=KERNEL,
                               language="java", cwd=str(notebook.parent), progress_bar=False,
                               execution_timeout=timeout)
    nb = merge_streams(nbformat.read(str(out_ipynb), as_version=4))
    nbformat.write(nb, str(out_ipynb))
    # Markdown pictures (the introduction's images/NN.png) are embedded, read next to the source notebook.
    html, _ = HTMLExporter(embed_images=True).from_notebook_node(
        nb, resources={"metadata": {"path": str(notebook.parent)}})
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
    try:
        out_ipynb, out_html = run(args.notebook, args.reports, params, args.timeout)
    except ParameterError as e:
        print(f"kneepoint report: {e}", file=sys.stderr)
        return 2
    print(f"report: {out_ipynb}\nreport: {out_html}")


if __name__ == "__main__":
    sys.exit(main())
