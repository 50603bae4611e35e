"""A small OpenAI-compatible embeddings endpoint for the tests of `describe_tools`' semantic
ranking: `POST /v1/embeddings` with `{"model": ..., "input": "text" | ["text", ...]}` answers
`{"object": "list", "data": [{"object": "embedding", "index": i, "embedding": [...]}], ...}`.

The model is wordllama's default (shipped inside its wheel: nothing is downloaded). Vectors
are L2-normalised float32 values, so the same input gives the same bytes in every process.

    embed_server.py [--port N]   serve on 127.0.0.1 (0: any free port); the first line on
                                 stdout is `listening on http://127.0.0.1:PORT`

For the degradation tests the model name chooses a behaviour: `slow-<ms>` sleeps that long
before answering, `broken` answers 500, `garbage` answers vectors of the wrong dimension.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import wordllama
from wordllama import WordLlama

# wordllama looks for its tokenizer under `tokenizer/` beside the module while the wheel
# ships it under `tokenizers/`; the package directory as the cache finds both files.
ROOT = pathlib.Path(wordllama.__file__).parent
MODEL = WordLlama.load(cache_dir=ROOT, disable_download=True)
NAME = "wordllama-l2-supercat-256"


def embed(texts: list[str]) -> list[list[float]]:
    vectors = MODEL.embed(texts, norm=True)
    return [[float(x) for x in row] for row in vectors]


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
        vectors = embed(texts) if texts else []
        if model == "garbage":
            vectors = [v[:3] for v in vectors]
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    sys.exit(0)


if __name__ == "__main__":
    main()
