#!/usr/bin/env bash
# Regenerates the README's pictures from a real demo run on the embedded simulator (run it again whenever the
# plots change): the concurrency ladder's knee chart and its TTFT percentiles against load.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
"$ROOT/bin/kneepoint" demo --out "$OUT" > "$OUT/demo.txt"
run="$(ls -d "$OUT"/*-demo-concurrency | head -1)"
[[ -f "$run/knee.png" && -f "$run/latency_vs_load.png" ]] || { echo "make.sh: the demo left no charts in $run" >&2; exit 1; }
cp "$run/knee.png" "$ROOT/docs/images/demo-knee.png"
cp "$run/latency_vs_load.png" "$ROOT/docs/images/demo-ttft-vs-load.png"
echo "docs/images: demo-knee.png, demo-ttft-vs-load.png from $(basename "$run")"
