#!/usr/bin/env python3
"""Records the real Ollama fixtures (lib/src/test/resources/fixtures/ollama/real-*) from a running server.

Usage: .ci/record-ollama-fixtures.py URL MODEL OUT_DIR
  (URL from `bin/kneepoint-ollama start`, MODEL from `bin/kneepoint-ollama model`).
Each fixture is the response body exactly as the client's framer sees it (HTTP chunking removed, nothing
else touched). A manifest (real-manifest.json) lists per fixture: request path, body, HTTP status,
Content-Type. Greedy sampling (temperature 0, fixed seed) so that a re-recording gives the same text.
"""
import http.client
import json
import sys
import urllib.parse

URL, MODEL, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
GREEDY = {"temperature": 0, "seed": 42}
PROMPT = "Name three colours."
MESSAGES = [{"role": "user", "content": PROMPT}]
MULTIBYTE = "Translate 'good morning' into Chinese, Japanese and Russian."

CASES = [
    # name, path, body
    ("real-generate-stop.ndjson", "/api/generate",
     {"model": MODEL, "prompt": PROMPT, "stream": True, "options": dict(GREEDY, num_predict=200)}),
    ("real-generate-length.ndjson", "/api/generate",
     {"model": MODEL, "prompt": PROMPT, "stream": True, "options": dict(GREEDY, num_predict=8)}),
    ("real-chat-stop.ndjson", "/api/chat",
     {"model": MODEL, "messages": MESSAGES, "stream": True, "options": dict(GREEDY, num_predict=200)}),
    ("real-chat-length.ndjson", "/api/chat",
     {"model": MODEL, "messages": MESSAGES, "stream": True, "options": dict(GREEDY, num_predict=8)}),
    # Cyrillic and CJK letters: several byte-level tokens each, held back by Ollama until the letter is complete.
    ("real-generate-multibyte.ndjson", "/api/generate",
     {"model": MODEL, "prompt": MULTIBYTE, "stream": True, "options": dict(GREEDY, num_predict=60)}),
    ("real-generate-multibyte-logprobs.ndjson", "/api/generate",
     {"model": MODEL, "prompt": MULTIBYTE, "stream": True, "logprobs": True, "options": dict(GREEDY, num_predict=60)}),
    ("real-chat-stop-logprobs.ndjson", "/api/chat",
     {"model": MODEL, "messages": MESSAGES, "stream": True, "logprobs": True, "options": dict(GREEDY, num_predict=200)}),
    ("real-generate-nostream.json", "/api/generate",
     {"model": MODEL, "prompt": PROMPT, "stream": False, "options": dict(GREEDY, num_predict=8)}),
    ("real-chat-nostream.json", "/api/chat",
     {"model": MODEL, "messages": MESSAGES, "stream": False, "options": dict(GREEDY, num_predict=8)}),
    ("real-error-unknown-model.json", "/api/generate",
     {"model": "no-such-model", "prompt": PROMPT, "stream": True}),
    ("real-error-unknown-model-chat.json", "/api/chat",
     {"model": "no-such-model", "messages": MESSAGES, "stream": True}),
    ("real-error-think-unsupported.json", "/api/chat",
     {"model": MODEL, "messages": MESSAGES, "stream": True, "think": True, "options": dict(GREEDY, num_predict=8)}),
    ("real-openai-chat.sse", "/v1/chat/completions",
     {"model": MODEL, "messages": MESSAGES, "stream": True, "stream_options": {"include_usage": True},
      "max_tokens": 8, "temperature": 0, "seed": 42}),
    ("real-openai-chat-stop.sse", "/v1/chat/completions",
     {"model": MODEL, "messages": MESSAGES, "stream": True, "stream_options": {"include_usage": True},
      "max_tokens": 200, "temperature": 0, "seed": 42}),
    ("real-openai-completions.sse", "/v1/completions",
     {"model": MODEL, "prompt": PROMPT, "stream": True, "stream_options": {"include_usage": True},
      "max_tokens": 8, "temperature": 0, "seed": 42}),
]


def post(path, body):
    u = urllib.parse.urlsplit(URL)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=300)
    conn.request("POST", path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    r = conn.getresponse()
    data = r.read()  # de-chunked body bytes, as OkHttp hands them to the framer
    conn.close()
    return r.status, r.getheader("Content-Type"), data


manifest = {}
for name, path, body in CASES:
    status, ctype, data = post(path, body)
    with open(f"{OUT}/{name}", "wb") as f:
        f.write(data)
    manifest[name] = {"path": path, "request": body, "status": status, "content_type": ctype}
    print(f"{name}: HTTP {status} {ctype} {len(data)} bytes", file=sys.stderr)
with open(f"{OUT}/real-manifest.json", "w") as f:
    json.dump(manifest, f, indent=1)
    f.write("\n")
