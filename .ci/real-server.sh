#!/usr/bin/env bash
# Real-server integration tests: build (or reuse the cached) llama.cpp llama-server with SmolLM2-135M-Instruct,
# start it, run ONLY the tests tagged llama-server against it (Maven profile real-server: LlamaServerTest,
# LlamaServerSweepTest; required: a missing server fails them), and stop it on exit. Called from .ci/run after the
# main build. See docs/REAL-SERVER.md.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
t0=$SECONDS
JAVA_HOME="$(bin/kneepoint java-home)"  # the launcher's JDK discovery (JAVA_HOME, else the newest >= 21)
export JAVA_HOME
PORT="${KNEEPOINT_LLAMA_PORT:-18089}"
# The build is cached outside the clone, where bin/kneepoint-llama keeps it for every use
# (${XDG_CACHE_HOME:-~/.cache}/kneepoint/llama, or KNEEPOINT_LLAMA_CACHE): later CI runs on the same machine
# reuse it (the binary's name carries the llama-cpp-python pin, so a new pin rebuilds). A new machine builds.

echo "== real-server: build or reuse llama-server ($(date -u +%T))"
bin/kneepoint-llama build
echo "== real-server: build/reuse took $((SECONDS - t0))s"

trap 'bin/kneepoint-llama stop || true' EXIT
URL="$(bin/kneepoint-llama start --port "$PORT" --parallel 4)"
export KNEEPOINT_LLAMA_URL="$URL" KNEEPOINT_REQUIRE_REAL_SERVER=1 KNEEPOINT_LLAMA_LOG="$(bin/kneepoint-llama log-path)"
KIND="$(bin/kneepoint-llama kind)"
if [[ "$KIND" != llama-server ]]; then
  # Only when llama-server could not be built (CI never forces the fallback): the tests of llama.cpp's
  # timings, llama-server's /tokenize, /metrics and batching are then skipped with the reason, so say it loudly here.
  echo "== real-server: WARNING: serving with the fallback $KIND, not llama-server ($(bin/kneepoint-llama status | head -3 | tr '\n' ' '))" >&2
fi
echo "== real-server: $KIND at $URL; running the llama-server tests (mvn -Preal-server)"
t1=$SECONDS
mvn -B -o verify -pl lib -Preal-server
echo "== real-server: tests took $((SECONDS - t1))s, total $((SECONDS - t0))s"
# Notebook 08 against the real server (the kernel and .venv exist once 'bin/kneepoint test' got here), the
# fallback included: calibration finds llama_cpp.server's /extras/tokenize (docs/REAL-SERVER.md).
if [[ -f .venv/share/jupyter/kernels/kneepoint/kernel.json ]]; then
  echo "== real-server: notebook 08 against $KIND at $URL"
  bin/kneepoint-kernel report notebooks/08-real-server.ipynb --reports "${TMPDIR:-/tmp}/kneepoint-real-reports" \
      -p url "$URL" 2>&1 | tail -3
  grep -q "Real server at" "${TMPDIR:-/tmp}/kneepoint-real-reports/08-real-server.ipynb" \
      || { echo "notebook 08 did not run against the real server" >&2; exit 1; }
  grep -q "prompts exact (max |error| 0 tokens) by server:" "${TMPDIR:-/tmp}/kneepoint-real-reports/08-real-server.ipynb" \
      || { echo "notebook 08: prompts were not calibrated exactly with $KIND's own tokenizer" >&2; exit 1; }
fi
# Ollama (built from its Go module, same model): its own script, build and test timeouts, and trap. llama-server
# is stopped first so that the two do not share the 2 cores.
bin/kneepoint-llama stop || true
.ci/ollama-server.sh
