# shellcheck shell=bash
# Sourced (not run) by bin/kneepoint-llama and bin/kneepoint-ollama: what both need to build and run one local
# server in the background. The sourcing script sets SERVER_TAG (its name, for messages) and, before it uses the
# process helpers, PIDFILE, URLFILE and LOG; RUN_EXTRA_FILES lists other run files that `stop` removes.

# The llama-cpp-python source distribution on PyPI: llama.cpp's source for kneepoint-llama, the header-only libraries
# Ollama's Go module lacks for kneepoint-ollama. One pin, one download (into the llama cache's dl/).
LLAMA_CPP_PYTHON_VERSION="0.3.36"   # vendors a llama.cpp with llama-server, /metrics, /tokenize, streamed timings
RUN_EXTRA_FILES=()

# The default cache of $1 (llama, ollama): one place per machine for the user commands, the tests and CI alike.
kneepoint_cache() { echo "${XDG_CACHE_HOME:-$HOME/.cache}/kneepoint/$1"; }

say() { printf '%s: %s\n' "$SERVER_TAG" "$*" >&2; }
die() { say "error: $*"; exit 1; }

llama_sdist() {  # llama_sdist DL_DIR -> the path of the sdist, downloaded from PyPI the first time
  local sdist="$1/llama_cpp_python-$LLAMA_CPP_PYTHON_VERSION.tar.gz"
  if [[ ! -s "$sdist" ]]; then
    say "downloading the llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION source distribution (vendored llama.cpp)"
    mkdir -p "$1"
    python3 -m pip download --quiet --disable-pip-version-check --no-binary :all: --no-deps \
      "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" -d "$1" >&2 || { say "pip download failed"; return 1; }
  fi
  echo "$sdist"
}

http_ok() {  # http_ok URL -> 0 when it answers 200
  python3 - "$1" <<'PY' 2>/dev/null
import sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[1], timeout=2) as r:
        sys.exit(0 if r.status == 200 else 1)
except Exception:
    sys.exit(1)
PY
}

running_pid() {  # prints the pid of the started server while it runs; 1 when none
  [[ -f "$PIDFILE" ]] || return 1
  local pid; pid="$(cat "$PIDFILE")"
  kill -0 "$pid" 2>/dev/null && echo "$pid"
}

port_in_use() {  # port_in_use PORT -> 0 when something on 127.0.0.1 accepts connections there
  python3 - "$1" <<'PY' 2>/dev/null
import socket, sys
with socket.socket() as s:
    s.settimeout(1)
    sys.exit(0 if s.connect_ex(("127.0.0.1", int(sys.argv[1]))) == 0 else 1)
PY
}

server_launch() {  # server_launch URL COMMAND...: COMMAND in the background, output in $LOG; records its pid and URL
  local url="$1"; shift
  mkdir -p "$(dirname "$PIDFILE")" "$(dirname "$URLFILE")" "$(dirname "$LOG")"
  nohup "$@" >"$LOG" 2>&1 </dev/null &
  echo $! >"$PIDFILE"
  echo "$url" >"$URLFILE"
}

server_wait() {  # server_wait URL TIMEOUT_S POLL_S WHAT: until URL answers 200. Exited or timed out: log tail, stop, die
  local url="$1" deadline=$((SECONDS + $2)) poll="$3" what="$4"
  until http_ok "$url"; do
    if ! running_pid >/dev/null; then tail -20 "$LOG" >&2; rm -f "$PIDFILE"; die "$what exited during start (log: $LOG)"; fi
    if (( SECONDS > deadline )); then tail -20 "$LOG" >&2; server_stop; die "no answer from $url within $2 s (log: $LOG)"; fi
    sleep "$poll"
  done
}

server_stop() {  # TERM, up to 5 s to exit, then KILL; forgets the pid (and RUN_EXTRA_FILES)
  local pid
  if ! pid="$(running_pid)"; then say "not running"; rm -f "$PIDFILE"; return 0; fi
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  rm -f "$PIDFILE" ${RUN_EXTRA_FILES[@]+"${RUN_EXTRA_FILES[@]}"}
  say "stopped (pid $pid)"
}

server_status_built() {  # server_status_built BIN WHAT: status's "built:" line (and BIN.info), BIN.failed marks a failure
  if [[ -x "$1" ]]; then
    echo "built: $1"
    if [[ -f "$1.info" ]]; then sed 's/^/  /' "$1.info"; fi
  elif [[ -f "$1.failed" ]]; then echo "built: no, the $2 build failed ($1.failed; delete it to retry)"
  else echo "built: no $2 (run: $SERVER_TAG build)"; fi
}

server_status_running() {  # server_status_running HEALTH_PATH [LABEL]: status's "running:" line; 3 when not running
  local pid url
  if pid="$(running_pid)"; then
    url="$(cat "$URLFILE")"
    echo "running: ${2:+$2, }pid $pid at $url ($(http_ok "$url$1" && echo healthy || echo 'not healthy'))"
  else
    echo "running: no"; return 3
  fi
}
