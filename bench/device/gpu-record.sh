#!/usr/bin/env bash
# Records what Kneepoint's GPU sampler reads from a real nvidia-smi, to replay in tests (issue #7:
# "GPU sampler tested with a recorded nvidia-smi CSV"). Runs on a machine with an NVIDIA GPU and needs only
# bash and nvidia-smi (no JDK): copy the .csv outputs into lib/src/test/resources/fixtures/gpu/captures/ (named
# <gpu>__<driver>__<what>.csv) and NvidiaSmiCsvTest parses them with the recorded captures already there.
#
#   bench/device/gpu-record.sh OUT_DIR [SECONDS]
#
# Writes into OUT_DIR:
#   nvidia-smi-real.csv       the exact command the sampler runs (GpuMetrics.QUERY, csv,noheader,nounits,
#                             -lms 250) for SECONDS (default 3), one line per GPU per period, as printed
#   nvidia-smi-real-header.csv the same query once with the header and units (what a reader of the docs sees)
#   nvidia-smi-real-load.csv  the sampler's command while a small GPU load runs (python3 + torch, if present;
#                             otherwise the file says why), so utilisation and power are not all idle values
#   nvidia-smi-real.txt       nvidia-smi -L, the driver version and the query's command line, for PROVENANCE.md
set -euo pipefail
OUT="${1:?usage: gpu-record.sh OUT_DIR [SECONDS]}"
SECONDS_TO_RECORD="${2:-3}"
QUERY="index,utilization.gpu,memory.used,memory.total,power.draw,temperature.gpu,clocks.sm,name" # = GpuMetrics.QUERY
mkdir -p "$OUT"
command -v nvidia-smi >/dev/null || { echo "gpu-record: nvidia-smi is not on the PATH (no NVIDIA driver here)" >&2; exit 2; }
{
  echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "command=nvidia-smi --query-gpu=$QUERY --format=csv,noheader,nounits -lms 250"
  nvidia-smi --query-gpu=driver_version,name --format=csv,noheader | head -1 | sed 's/^/driver_and_name=/'
  nvidia-smi -L
} > "$OUT/nvidia-smi-real.txt"
nvidia-smi --query-gpu="$QUERY" --format=csv > "$OUT/nvidia-smi-real-header.csv"
timeout "${SECONDS_TO_RECORD}s" nvidia-smi --query-gpu="$QUERY" --format=csv,noheader,nounits -lms 250 \
    > "$OUT/nvidia-smi-real.csv" || true   # timeout ends it: status 124 is expected
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  python3 - <<'PY' &
import time, torch
a = torch.randn(8192, 8192, device="cuda", dtype=torch.bfloat16)
end = time.time() + 4
while time.time() < end:
    a = (a @ a).clamp_(-1, 1)
torch.cuda.synchronize()
PY
  LOAD=$!
  sleep 1
  timeout "${SECONDS_TO_RECORD}s" nvidia-smi --query-gpu="$QUERY" --format=csv,noheader,nounits -lms 250 \
      > "$OUT/nvidia-smi-real-load.csv" || true
  wait $LOAD || true
else
  echo "# no GPU load recorded: python3 with CUDA-enabled torch is not installed on this machine" > "$OUT/nvidia-smi-real-load.csv"
fi
wc -l "$OUT"/nvidia-smi-real*.csv
