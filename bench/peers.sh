#!/usr/bin/env bash
# Kneepoint side by side with the peer tools a user would pick instead (AIPerf, GuideLLM, vLLM's
# 'vllm bench serve', which runs without a GPU), against the same standalone simulator and the same
# workload, each tool's CPU time measured with /usr/bin/time.
#
#   bin/kneepoint bench --peers [--quick] [--out DIR] [--tools kneepoint,aiperf,guidellm,vllm] [--parts closed,rates,streams]
#
# Workload: chat completions, streaming, 128 prompt tokens (words of the simulator's vocabulary, one
# token each), max_tokens 128 with ignore_eos, so every answer is exactly 128 tokens, one per SSE event.
#   1. closed loop, concurrency 8, a fixed number of requests, twice (a short and a long run): client
#      CPU per token = extra CPU of the long run / extra tokens, so start-up and report writing cancel;
#      the long run's TTFT / TPOT / throughput figures are compared between tools.
#   2. open loop, constant arrivals, a rate ladder, each rate for a few seconds: achieved dispatch rate
#      versus the target and each tool's own dispatch lag, to find where the client falls behind.
#   3. concurrent streams: a second simulator stepping every 100 ms, closed loop at c = 250, 1,000, 2,000 and 4,000
#      (KNEEPOINT_PEERS_STREAMS="..." to change) with 2 x c
#      requests of 40 tokens: the most streams each tool holds with TPOT p50 at the engine's 100 ms pace.
# --quick runs step 1 once (the long run only; CPU per token then includes start-up) and skips steps 2 and 3.
# The peer tools come from PyPI, pinned, into a venv outside the repository
# (KNEEPOINT_PEERS_VENV, default ~/.cache/kneepoint/peers-venv; vLLM in its own, KNEEPOINT_VLLM_VENV, default
# ~/.cache/kneepoint/vllm-venv, since it pins its own torch). Results: DIR/results.md and results.json.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${KNEEPOINT_PEERS_VENV:-$HOME/.cache/kneepoint/peers-venv}"
AIPERF_VERSION=0.13.0
GUIDELLM_VERSION=0.8.1
VLLM_VENV="${KNEEPOINT_VLLM_VENV:-$HOME/.cache/kneepoint/vllm-venv}"
VLLM_VERSION=0.33.0
QUICK=0
TOOLS=kneepoint,aiperf,guidellm,vllm
PARTS=closed,rates,streams
OUT="$ROOT/bench/results/$(date -u +%Y%m%d-%H%M%S)"
die() { echo "peers: $*" >&2; exit 1; }

while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) QUICK=1; shift ;;
    --out) OUT="$2"; shift 2 ;;
    --tools) TOOLS="$2"; shift 2 ;;
    --parts) PARTS="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) die "unknown option '$1' (options: --quick, --out DIR, --tools LIST, --parts LIST)" ;;
  esac
done
[[ -x /usr/bin/time ]] || die "/usr/bin/time is needed to measure each tool's CPU (apt-get install time)."

IN=128; OUTTOK=128; CONC=8; SEED=42
# Concurrent streams: a second simulator whose engine steps take 100 ms (no other cost), answers of 40 tokens,
# so each stream is ~4 s of one token per 100 ms; each level runs 2 x c requests in a closed loop at c.
STREAM_STEP_MS=100; STREAM_OUT=40
if [[ $QUICK == 1 ]]; then
  N_SMALL=0; N_LARGE=200; RATES=""; RATE_SECONDS=0; STREAM_LEVELS=""
else
  N_SMALL=40; N_LARGE=400; RATES="25 50 100 200 400"; RATE_SECONDS=6; STREAM_LEVELS="${KNEEPOINT_PEERS_STREAMS:-250 1000 2000 4000}"
fi
has() { [[ ",$TOOLS," == *",$1,"* ]]; }
part() { [[ ",$PARTS," == *",$1,"* ]]; }
part closed || { N_SMALL=0; N_LARGE=0; }
part rates || RATES=""
part streams || STREAM_LEVELS=""

# --- peer tools ---------------------------------------------------------------------------------
if has aiperf || has guidellm; then
  if [[ ! -x "$VENV/bin/python" ]]; then
    echo "peers: creating $VENV" >&2
    python3 -m venv "$VENV" || die "python3 -m venv failed (install python3-venv)."
  fi
  if ! "$VENV/bin/python" -c "import importlib.metadata as m; assert m.version('aiperf')=='$AIPERF_VERSION' and m.version('guidellm')=='$GUIDELLM_VERSION'" 2>/dev/null; then
    echo "peers: installing aiperf==$AIPERF_VERSION guidellm==$GUIDELLM_VERSION into $VENV (GuideLLM pulls torch: several GB)" >&2
    "$VENV/bin/pip" install -q "aiperf==$AIPERF_VERSION" "guidellm==$GUIDELLM_VERSION" || die "pip install failed (see above)."
  fi
fi
if has vllm; then
  [[ -x "$VLLM_VENV/bin/python" ]] || python3 -m venv "$VLLM_VENV" || die "python3 -m venv failed (install python3-venv)."
  if ! "$VLLM_VENV/bin/python" -c "import importlib.metadata as m; assert m.version('vllm')=='$VLLM_VERSION'" 2>/dev/null; then
    echo "peers: installing vllm==$VLLM_VERSION into $VLLM_VENV (pulls torch with CUDA libraries: several GB)" >&2
    "$VLLM_VENV/bin/pip" install -q "vllm==$VLLM_VERSION" || die "pip install vllm failed (see above); leave it out with --tools kneepoint,aiperf,guidellm."
  fi
fi
PY="$VENV/bin/python"; [[ -x "$PY" ]] || PY=python3

mkdir -p "$OUT/runs"
OUT="$(cd "$OUT" && pwd)"
"$PY" "$ROOT/bench/sim_tokenizer.py" "$OUT/tokenizer" >/dev/null
"$PY" "$ROOT/bench/prompts.py" "$OUT/prompts.jsonl" 20000 $IN $OUTTOK $SEED
STREAM_PROMPTS=2000   # GuideLLM stops when its prompts run out: at least 2 x the highest level
for c in $STREAM_LEVELS; do (( 2 * c > STREAM_PROMPTS )) && STREAM_PROMPTS=$((2 * c)); done
"$PY" "$ROOT/bench/prompts.py" "$OUT/prompts-streams.jsonl" $STREAM_PROMPTS $IN $STREAM_OUT $SEED

# --- machine --------------------------------------------------------------------------------------
{
  echo "date_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "cpu_model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)"
  echo "cpus=$(nproc)"
  echo "mem_total=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)"
  echo "kernel=$(uname -r)"
  echo "java=$("$ROOT/bin/kneepoint" java-home)"
  echo "python=$("$PY" --version 2>&1)"
  if has aiperf || has guidellm; then
    echo "aiperf=$("$PY" -c 'import importlib.metadata as m; print(m.version("aiperf"))')"
    echo "guidellm=$("$PY" -c 'import importlib.metadata as m; print(m.version("guidellm"))')"
  fi
  has vllm && echo "vllm=$("$VLLM_VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("vllm"))')"
  echo "quick=$QUICK"
  echo "workload=chat, stream, ${IN} prompt tokens, max_tokens ${OUTTOK}, ignore_eos; closed c=${CONC} n=${N_SMALL}/${N_LARGE}; rates ${RATES:-none} x ${RATE_SECONDS}s constant; streams ${STREAM_LEVELS:-none} (closed, 2 x c requests, max_tokens ${STREAM_OUT}, engine step ${STREAM_STEP_MS} ms)"
  echo "loadavg_start=$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/env.txt"

# Build first (the launcher rebuilds when sources changed), so the simulator starts at once below.
"$ROOT/bin/kneepoint" peers-report --help > /dev/null || die "could not build Kneepoint (run bin/kneepoint build)."

# --- simulator ------------------------------------------------------------------------------------
# fast preset, but room for every request at once (1024 sequences, 8M KV tokens): the server never queues
# at these loads, so any shortfall is the client's.
"$ROOT/bin/kneepoint" sim --port 0 --preset fast --seed $SEED --max-num-seqs 1024 --kv-tokens 8000000 \
    --max-batched-tokens 65536 > "$OUT/sim.log" 2>&1 &
SIM_PID=$!
trap 'kill $SIM_PID 2>/dev/null || true' EXIT
URL=""
for _ in $(seq 1 240); do
  URL=$(sed -n 's/.* at \(http[^ ]*\) (Ctrl-C.*/\1/p' "$OUT/sim.log" | head -1)
  [[ -n "$URL" ]] && break
  kill -0 $SIM_PID 2>/dev/null || die "the simulator did not start: $(cat "$OUT/sim.log")"
  sleep 0.5
done
[[ -n "$URL" ]] || die "the simulator did not print its URL within 120 s"
echo "peers: simulator at $URL, results in $OUT" >&2

# timed DIR TOOL KIND LOAD CMD...: runs CMD in DIR under /usr/bin/time (user, sys, wall of the tool's
# process tree: every child the tool waited for is included) and records what the report needs.
timed() {
  local dir="$OUT/runs/$1" tool="$2" kind="$3" load="$4"; shift 4
  mkdir -p "$dir"
  printf 'tool=%s\nkind=%s\nload=%s\n' "$tool" "$kind" "$load" > "$dir/run.properties"
  echo "peers: $tool $kind $load" >&2
  local rc=0
  (cd "$dir" && exec /usr/bin/time -o time.txt -f "%U %S %e" "$@" > stdout.txt 2> stderr.txt) &
  local tpid=$!
  # the tool's CPU while tokens flow, beside the simulator's token counter (see bench/cpu_sampler.py)
  python3 "$ROOT/bench/cpu_sampler.py" --pid $tpid --metrics "$URL/metrics" --out "$dir/cpu_samples.tsv" &
  local spid=$!
  wait $tpid || rc=$?
  wait $spid || echo "peers: the CPU sampler of $1 failed" >&2
  echo "rc=$rc" >> "$dir/run.properties"
  echo "loadavg=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$dir/run.properties"
  [[ $rc == 0 ]] || echo "peers: $tool $kind $load failed (rc=$rc), see $dir/stderr.txt" >&2
}

KP=("$ROOT/bin/kneepoint" run --url "$URL" --model sim-fast --input-tokens $IN --output-tokens $OUTTOK
  --seed $SEED --warmup 0s --out . --name kp)
AIPERF_COMMON=(profile --model sim-fast --url "$URL" --endpoint-type chat --streaming
  --tokenizer "$OUT/tokenizer" --prompt-corpus random --prompt-input-tokens-mean $IN --prompt-input-tokens-stddev 0
  --prompt-output-tokens-mean $OUTTOK --prompt-output-tokens-stddev 0 --extra-inputs ignore_eos:true
  --random-seed $SEED --ui-type none --no-server-metrics --no-gpu-telemetry --output-artifact-dir out)
GUIDELLM_COMMON=(run --backend "kind=openai_http,target=$URL,model=sim-fast"
  --data "kind=json_file,path=$OUT/prompts.jsonl" --tokenizer "kind=huggingface_auto,model=$OUT/tokenizer"
  --output "kind=json,path=benchmarks.json" --disable-console-interactive)
# vLLM's random dataset draws token ids from the tokenizer's vocabulary: exactly 128 simulator words.
VLLM_COMMON=(bench serve --backend openai-chat --base-url "$URL" --endpoint /v1/chat/completions --model sim-fast
  --tokenizer "$OUT/tokenizer" --dataset-name random --random-input-len $IN --random-output-len $OUTTOK
  --random-range-ratio 0 --ignore-eos --seed $SEED --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,99
  --save-result --save-detailed --result-dir . --result-filename vllm.json --disable-tqdm)

for n in $N_SMALL $N_LARGE; do
  [[ $n -gt 0 ]] || continue
  has kneepoint && timed "kneepoint-c$CONC-n$n" kneepoint closed "$CONC:$n" \
      "${KP[@]}" --concurrency $CONC --max-requests $n --duration 600s
  has aiperf && timed "aiperf-c$CONC-n$n" aiperf closed "$CONC:$n" \
      "$VENV/bin/aiperf" "${AIPERF_COMMON[@]}" --concurrency $CONC --request-count $n
  has guidellm && timed "guidellm-c$CONC-n$n" guidellm closed "$CONC:$n" \
      "$VENV/bin/guidellm" "${GUIDELLM_COMMON[@]}" --profile "kind=concurrent,streams=$CONC" \
      --constraint "kind=max_requests,count=$n"
  has vllm && timed "vllm-c$CONC-n$n" vllm closed "$CONC:$n" \
      "$VLLM_VENV/bin/vllm" "${VLLM_COMMON[@]}" --max-concurrency $CONC --request-rate inf --num-prompts $n
done

if [[ -n "$RATES" ]]; then
  csv=$(echo $RATES | tr ' ' ',')
  first=${RATES%% *}
  has kneepoint && timed "kneepoint-rates" kneepoint open "$csv" \
      "${KP[@]}" --rate "$csv" --arrival constant --duration ${RATE_SECONDS}s
  has guidellm && timed "guidellm-rates" guidellm open "$csv" \
      "$VENV/bin/guidellm" "${GUIDELLM_COMMON[@]}" --profile "kind=constant,rate=$first" \
      --override profile.rate "$csv" --constraint "kind=max_duration,seconds=$RATE_SECONDS"
  if has aiperf; then
    for r in $RATES; do
      timed "aiperf-r$r" aiperf open "$r" "$VENV/bin/aiperf" "${AIPERF_COMMON[@]}" --request-rate "$r" \
          --arrival-pattern constant --benchmark-duration $RATE_SECONDS --benchmark-grace-period 30
    done
  fi
  if has vllm; then
    # vLLM has no constant arrivals: gamma with shape 1e6 (coefficient of variation 0.001) is as close.
    for r in $RATES; do
      timed "vllm-r$r" vllm open "$r" "$VLLM_VENV/bin/vllm" "${VLLM_COMMON[@]}" --request-rate "$r" \
          --burstiness 1000000 --num-prompts $((r * RATE_SECONDS))
    done
  fi
fi

kill $SIM_PID 2>/dev/null || true

# --- concurrent streams ---------------------------------------------------------------------------
# How many slow streams each tool holds before it, not the server, sets the pace: the engine steps every
# 100 ms whatever the batch (no per-sequence cost, room for 8,192 sequences), so a client that keeps up sees
# TPOT p50 = 100 ms; one that falls behind reading, or cannot open the connections, shows it as a longer TPOT,
# failures or fewer completions.
if [[ -n "$STREAM_LEVELS" ]]; then
  wait $SIM_PID 2>/dev/null || true
  "$ROOT/bin/kneepoint" sim --port 0 --preset fast --seed $SEED --max-num-seqs 8192 --kv-tokens 32000000 \
      --max-batched-tokens 65536 --step-overhead ${STREAM_STEP_MS}ms --decode-us 0 --prefill-us 0 --attention-ns 0 \
      --jitter 0 > "$OUT/sim-streams.log" 2>&1 &
  SIM_PID=$!
  URL=""
  for _ in $(seq 1 240); do
    URL=$(sed -n 's/.* at \(http[^ ]*\) (Ctrl-C.*/\1/p' "$OUT/sim-streams.log" | head -1)
    [[ -n "$URL" ]] && break
    kill -0 $SIM_PID 2>/dev/null || die "the streams simulator did not start: $(cat "$OUT/sim-streams.log")"
    sleep 0.5
  done
  [[ -n "$URL" ]] || die "the streams simulator did not print its URL within 120 s"
  echo "peers: streams simulator at $URL" >&2
  for c in $STREAM_LEVELS; do
    n=$((2 * c))
    has kneepoint && timed "kneepoint-s$c" kneepoint streams "$c:$n" \
        "$ROOT/bin/kneepoint" run --url "$URL" --model sim-fast --input-tokens $IN --output-tokens $STREAM_OUT \
        --seed $SEED --warmup 0s --out . --name kp --concurrency $c --max-requests $n --duration 600s
    has aiperf && timed "aiperf-s$c" aiperf streams "$c:$n" \
        "$VENV/bin/aiperf" profile --model sim-fast --url "$URL" --endpoint-type chat --streaming \
        --tokenizer "$OUT/tokenizer" --prompt-corpus random --prompt-input-tokens-mean $IN \
        --prompt-input-tokens-stddev 0 --prompt-output-tokens-mean $STREAM_OUT --prompt-output-tokens-stddev 0 \
        --extra-inputs ignore_eos:true --random-seed $SEED --ui-type none --no-server-metrics --no-gpu-telemetry \
        --output-artifact-dir out --concurrency $c --request-count $n
    has guidellm && timed "guidellm-s$c" guidellm streams "$c:$n" \
        "$VENV/bin/guidellm" run --backend "kind=openai_http,target=$URL,model=sim-fast" \
        --data "kind=json_file,path=$OUT/prompts-streams.jsonl" --tokenizer "kind=huggingface_auto,model=$OUT/tokenizer" \
        --output "kind=json,path=benchmarks.json" --disable-console-interactive \
        --profile "kind=concurrent,streams=$c" --constraint "kind=max_requests,count=$n"
    has vllm && timed "vllm-s$c" vllm streams "$c:$n" \
        "$VLLM_VENV/bin/vllm" bench serve --backend openai-chat --base-url "$URL" --endpoint /v1/chat/completions \
        --model sim-fast --tokenizer "$OUT/tokenizer" --dataset-name random --random-input-len $IN \
        --random-output-len $STREAM_OUT --random-range-ratio 0 --ignore-eos --seed $SEED \
        --percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,99 --save-result --save-detailed \
        --result-dir . --result-filename vllm.json --disable-tqdm --max-concurrency $c --request-rate inf --num-prompts $n
  done
  kill $SIM_PID 2>/dev/null || true
fi

echo "loadavg_end=$(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/env.txt"
"$ROOT/bin/kneepoint" peers-report "$OUT"
