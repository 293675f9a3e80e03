"""Writes N chat prompts of exactly IN simulator tokens (words of the simulator's vocabulary, one token
each), with the requested output length, as JSON lines GuideLLM reads ({prompt, prompt_tokens_count,
output_tokens_count}). Usage: python prompts.py OUT_FILE N IN OUT SEED"""
import json
import random
import sys

from sim_tokenizer_vocab import VOCAB

out, n, in_tokens, out_tokens, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rnd = random.Random(seed)
with open(out, "w") as f:
    for _ in range(n):
        words = [rnd.choice(VOCAB) for _ in range(in_tokens)]
        f.write(json.dumps({"prompt": " ".join(words), "prompt_tokens_count": in_tokens,
                            "output_tokens_count": out_tokens}) + "\n")
