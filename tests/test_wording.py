"""A drawn question's numbers in the prompt's words, never the author's parameter names
(prompts as the course's banks write them)."""

from __future__ import annotations

from typing import Any

import pytest

from lessonkit.bank.wording import numbers_in_words

SERVING = {
    "params": {
        "chip": {"cases": {"H100 SXM": {"tb_s": 3.35, "hbm_gb": 80, "gpu_price": 4.00},
                           "H200": {"tb_s": 4.8, "hbm_gb": 141, "gpu_price": 5.00}}},
        "gpus": {"values": [4, 8]},
        "weights_gb": {"values": [8, 35, 70]},
        "batch": {"values": [16, 32, 64]},
        "kv_gb": {"values": [0.5, 1.0, 2.0]},
    },
    "derived": {"node_price": {"formula": "gpus * gpu_price", "decimals": 2}},
    "prompt": "A server with {gpus} {chip} GPUs, each with {tb_s} TB/s of memory bandwidth, "
    "serves a model whose 8-bit weights take {weights_gb} GB. It decodes a batch of {batch} "
    "sequences, each with {kv_gb} GB of KV cache, and costs ${node_price} per hour. What is "
    "the lowest possible cost per million output tokens, in US dollars?",
}  # fmt: skip
CHIPS = {
    "params": {
        "weights_gb": {"values": [16, 70, 140]},
        "batch": {"values": [16, 32, 48, 64]},
        "kv_gb": {"values": [1, 2, 4]},
        "hbm_gb": {"values": [80, 96, 141, 192]},
        "free_pct": {"values": [10, 20]},
    },
    "prompt": "A model's BF16 weights take {weights_gb} GB. You want to serve a batch of {batch} "
    "sequences at {kv_gb} GB of KV cache each on chips with {hbm_gb} GB of HBM, keeping "
    "{free_pct}% of every chip's memory free for activations and the runtime. What is the "
    "smallest number of chips that can hold it?",
}
RIDGE = {
    "params": {"chip": {"cases": {"H100 SXM": {"tflops": 989, "tb_s": 3.35},
                                  "B200": {"tflops": 2250, "tb_s": 7.7}}}},
    "prompt": "{chip} peaks at {tflops} TFLOPS and reads {tb_s} TB/s. Ridge point?",
}  # fmt: skip
KV = {
    "params": {
        "layers": {"values": [32]},
        "kv_heads": {"values": [8]},
        "seqs": {"values": [4]},
        "tokens": {"values": [16384, 32768]},
    },
    "prompt": "A model's configuration lists {layers} layers, {kv_heads} key-value heads of 128 "
    "dimensions each, and BF16 values. How many GB does its KV cache take when you decode "
    "{seqs} sequences of {tokens} tokens each?",
}


@pytest.mark.parametrize(
    ("question", "numbers", "said"),
    [
        (SERVING, {"chip": "H100 SXM", "tb_s": 3.35, "hbm_gb": 80, "gpu_price": 4.0, "gpus": 8,
                   "weights_gb": 8, "batch": 64, "kv_gb": 1.0},
         "server with 8 H100 SXM GPUs, 3.35 TB/s of memory bandwidth, weights take 8 GB, "
         "batch of 64 sequences, 1 GB of KV cache, $32.00 per hour"),
        (CHIPS, {"weights_gb": 140, "batch": 64, "kv_gb": 1, "hbm_gb": 80, "free_pct": 10},
         "weights take 140 GB, batch of 64 sequences, 1 GB of KV cache, 80 GB of HBM, "
         "10% of every chip's memory"),
        (RIDGE, {"chip": "B200", "tflops": 2250, "tb_s": 7.7},
         "B200, peaks at 2,250 TFLOPS, reads 7.7 TB/s"),
        (KV, {"layers": 32, "kv_heads": 8, "seqs": 4, "tokens": 32768},
         "configuration lists 32 layers, 8 key-value heads of 128 dimensions, decode 4 "
         "sequences, 32,768 tokens"),
        # Numbers kept from before the bank drew them: a chip it no longer has.
        (RIDGE, {"chip": "MI300X"}, "MI300X"),
    ],
    ids=["serving", "chips", "ridge", "kv-cache", "numbers-before"],
)  # fmt: skip
def test_numbers_are_said_in_the_prompt_s_words(
    question: dict[str, Any], numbers: dict[str, Any], said: str
) -> None:
    assert numbers_in_words(question, numbers) == said


def test_a_number_the_prompt_does_not_show_falls_back_to_its_name() -> None:
    question = {"params": {"n": {"values": [3]}}, "prompt": "How many?"}
    assert numbers_in_words(question, {"n": 3}) == "n = 3"
