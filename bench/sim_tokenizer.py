"""Writes a Hugging Face tokenizer directory that counts tokens the way Kneepoint's simulator does for
the text it generates and for prompts built from the same words: one token per word of its 64-word
vocabulary (docs/SIMULATOR.md, "Tokenizer"). Peer tools need a tokenizer to build prompts of N tokens
and to count output tokens; there is no network access to a model hub, and a real model's tokenizer
would count the simulator's words differently. Usage: python sim_tokenizer.py OUT_DIR"""
import json
import os
import sys

from tokenizers import Tokenizer, decoders, models, pre_tokenizers

from sim_tokenizer_vocab import VOCAB


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
vocab = {"[UNK]": 0}
for w in VOCAB:
    vocab[w] = len(vocab)
tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
tok.decoder = decoders.WordPiece(prefix="##")  # joins words with single spaces
tok.save(os.path.join(out, "tokenizer.json"))
with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
    json.dump({"tokenizer_class": "PreTrainedTokenizerFast", "unk_token": "[UNK]", "model_max_length": 8192,
               "clean_up_tokenization_spaces": False}, f)
with open(os.path.join(out, "special_tokens_map.json"), "w") as f:
    json.dump({"unk_token": "[UNK]"}, f)
print(out)
