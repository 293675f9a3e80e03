#!/usr/bin/env bash
# Regenerates the picture at the top of each notebook: every notebook is run headlessly on the embedded simulator
# (bin/kneepoint report) and its first chart is kept as notebooks/images/<notebook>.png. Run it again whenever
# a notebook or the plots change (notebook 08 draws llama-server's curve when KNEEPOINT_LLAMA_URL names one, the
# simulator's otherwise). Usage: docs/images/notebooks.sh [NOTEBOOK.ipynb ...] (default: every notebook).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PY="$ROOT/.venv/bin/python"
[[ -x "$PY" ]] || { echo "notebooks.sh: no .venv; run bin/kneepoint kernel install first" >&2; exit 1; }
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
[[ $# -gt 0 ]] || set -- "$ROOT"/notebooks/[0-9][0-9]-*.ipynb
for nb in "$@"; do
  name="$(basename "$nb" .ipynb)"
  "$ROOT/bin/kneepoint" report --reports "$OUT" "$nb" > "$OUT/$name.log" 2>&1 \
    || { echo "notebooks.sh: $name failed; see its log:" >&2; tail -20 "$OUT/$name.log" >&2; exit 1; }
  "$PY" - "$OUT/$name.ipynb" "$ROOT/notebooks/images/$name.png" <<'PY'
import base64, json, sys
executed, target = sys.argv[1], sys.argv[2]
for cell in json.load(open(executed))["cells"]:
    for output in cell.get("outputs", []):
        png = output.get("data", {}).get("image/png")
        if png:
            open(target, "wb").write(base64.b64decode(png))
            print(f"notebooks.sh: {target}")
            sys.exit(0)
sys.exit(f"notebooks.sh: {executed} rendered no chart")
PY
done
