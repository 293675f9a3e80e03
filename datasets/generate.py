#!/usr/bin/env python3
"""Generates Kneepoint's small synthetic JSONL datasets (standard library only).

Usage: python3 datasets/generate.py [--out DIR] [--scale K] [--seed S]
  --scale K multiplies every record count (K=1: the shipped files; K=100: ~100x larger); the trace's
  length too (K=1: 3 minutes).
The text is made from templates and word lists in this file: no external data, no personal data.
"""
import argparse
import json
import os
import random

TOPICS = ["caching", "load balancing", "database indexes", "vector search", "GPU memory", "rate limiting",
          "message queues", "TLS certificates", "container images", "log retention", "backups", "DNS",
          "consensus", "garbage collection", "compilers", "networking", "observability", "batch jobs"]
ASKS = ["Explain {t} to a new engineer in {n} sentences.",
        "What are the trade-offs of {t}? Give {n} points.",
        "Write a short checklist for reviewing {t} in production.",
        "Compare two approaches to {t} and recommend one.",
        "Summarise the main failure modes of {t}.",
        "Draft an incident note about a problem with {t}."]
WORDS = ("system request latency throughput server client memory queue batch token cache index shard "
         "replica leader follower timeout retry budget window metric alert dashboard node cluster region "
         "disk network packet stream buffer thread lock schedule policy quota limit tenant user session").split()
NAMES = ["Aurora", "Borealis", "Cobalt", "Delta", "Ember", "Fjord", "Granite", "Harbor"]


def sentence(rng, lo=8, hi=20):
    words = [rng.choice(WORDS) for _ in range(rng.randint(lo, hi))]
    return words[0].capitalize() + " " + " ".join(words[1:]) + "."


def paragraph(rng, sentences):
    return " ".join(sentence(rng) for _ in range(sentences))


def chat(rng, i):
    t = rng.choice(TOPICS)
    ask = rng.choice(ASKS).format(t=t, n=rng.randint(2, 7))
    size = rng.choice(["short", "short", "medium", "long"])
    context = {"short": "", "medium": paragraph(rng, rng.randint(2, 5)) + "\n\n",
               "long": paragraph(rng, rng.randint(10, 25)) + "\n\n"}[size]
    return {"messages": [{"role": "user", "content": context + ask}],
            "output_tokens": rng.choice([32, 64, 128, 256, 512]), "tag": "chat-" + size}


def long_doc(rng, i):
    name = rng.choice(NAMES) + "-" + str(rng.randint(100, 999))
    paras = [paragraph(rng, rng.randint(3, 6)) for _ in range(rng.randint(8, 20))]
    fact_at = rng.randrange(len(paras))
    value = rng.randint(10, 990)
    paras[fact_at] += f" The {name} cluster keeps a retry budget of {value} requests per minute."
    doc = "\n\n".join(f"[{k + 1}] {p}" for k, p in enumerate(paras))
    return {"system": "Answer only from the document. Cite the paragraph number.",
            "prompt": f"Document:\n{doc}\n\nQuestion: What retry budget does the {name} cluster keep?",
            "output_tokens": rng.choice([32, 64, 96]), "tag": "rag"}


def code_ctx(rng, i):
    fns = []
    for k in range(rng.randint(4, 14)):
        name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}_{k}"
        body = "\n".join(f"    {rng.choice(WORDS)}_{j} = {rng.choice(WORDS)}({rng.randint(0, 99)})"
                         for j in range(rng.randint(3, 12)))
        fns.append(f"def {name}(x):\n{body}\n    return x\n")
    code = "\n".join(fns)
    task = rng.choice(["Find the bug in this module and propose a fix.", "Add type hints to every function.",
                       "Write unit tests for the second function.", "Explain what this module does."])
    return {"messages": [{"role": "system", "content": "You are a careful senior Python reviewer."},
                         {"role": "user", "content": f"```python\n{code}```\n\n{task}"}],
            "output_tokens": rng.choice([128, 256, 512]), "tag": "code"}


def multi_turn(rng, i):
    turns = rng.randint(2, 6)
    conv = []
    for k in range(turns):
        t = rng.choice(TOPICS)
        conv.append({"from": "human", "value": rng.choice(ASKS).format(t=t, n=rng.randint(2, 5))})
        if k < turns - 1:
            conv.append({"from": "gpt", "value": paragraph(rng, rng.randint(2, 6))})
    return {"conversations": conv, "output_tokens": rng.choice([64, 128, 256]), "tag": "multi-turn"}


# The sample trace (Mooncake / AIPerf shape): three system prompts as shared prefix groups of whole 512-token
# blocks, a tenth of the requests with no shared prefix, and bursty arrivals.
TRACE_BLOCK = 512
TRACE_GROUPS = [  # (name, prefix blocks, share of requests)
    ("assistant", 2, 0.45), ("coding", 3, 0.30), ("rag", 1, 0.15)]
TRACE_SECONDS = 180


def trace(rng, scale):
    """Records of a bursty trace of TRACE_SECONDS x scale: Poisson at 2 req/s, plus a 5-second burst at
    10 req/s every 30 s (at 12 s, 42 s, ...). Prompts <= 2048 tokens, answers 16-256 tokens."""
    group_ids, next_id = [], 0
    for _, blocks, _ in TRACE_GROUPS:
        group_ids.append(list(range(next_id, next_id + blocks)))
        next_id += blocks
    next_id = 1000  # the requests' own blocks: never shared
    records, t = [], 0.0
    end = TRACE_SECONDS * scale
    while True:
        in_burst = (t % 30.0) >= 12.0 and (t % 30.0) < 17.0
        t += rng.expovariate(10.0 if in_burst else 2.0)
        if t >= end:
            return records
        u, acc, group = rng.random(), 0.0, None
        for k, (_, _, share) in enumerate(TRACE_GROUPS):
            acc += share
            if u < acc:
                group = k
                break
        prefix = group_ids[group] if group is not None else []
        own = rng.randint(32, 2048 - TRACE_BLOCK * len(prefix)) if len(prefix) < 4 else 0
        input_length = TRACE_BLOCK * len(prefix) + own
        own_blocks = -(-own // TRACE_BLOCK)
        hash_ids = prefix + list(range(next_id, next_id + own_blocks))
        next_id += own_blocks
        output_length = int(round(16 * 16 ** rng.random()))  # log-uniform 16..256
        records.append({"timestamp": int(t * 1000), "input_length": input_length,
                        "output_length": output_length, "hash_ids": hash_ids})


FILES = [("chat.jsonl", chat, 200), ("long_doc_qa.jsonl", long_doc, 50),
         ("code_context.jsonl", code_ctx, 50), ("multi_turn.jsonl", multi_turn, 50)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--seed", type=int, default=20240601)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    for name, make, count in FILES:
        rng = random.Random(f"{a.seed}:{name}")
        with open(os.path.join(a.out, name), "w", encoding="utf-8", newline="\n") as f:
            for i in range(count * a.scale):
                f.write(json.dumps(make(rng, i), ensure_ascii=False, sort_keys=True) + "\n")
    rng = random.Random(f"{a.seed}:trace_sample.jsonl")
    with open(os.path.join(a.out, "trace_sample.jsonl"), "w", encoding="utf-8", newline="\n") as f:
        for r in trace(rng, a.scale):
            f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
