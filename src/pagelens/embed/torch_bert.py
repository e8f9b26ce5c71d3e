"""A mean-pooled BERT sentence model (all-MiniLM-L6-v2) in plain torch, for bulk embedding at ingest.

Why: on a CPU with native bfloat16 (AMX), torch under bf16 autocast embeds MiniLM about 3-4x cheaper
than the ONNX float32 export (measured on the dev corpus's 372 chunks, 1 thread: 6.8 CPU-s vs 26), so
bulk embedding stays on torch there; but ``import sentence_transformers`` costs about 5.6 CPU-s and
``import torch`` alone 1.4. This module needs only torch, safetensors and tokenizers: the same weights
(``model.safetensors``), the same tokenizer (``tokenizer.json``, truncated at the model's
``max_seq_length``), the same computation as transformers' ``BertModel`` (post-LayerNorm encoder, exact
GELU, scaled dot-product attention over each text's own tokens), then mean pooling and L2 normalisation as
sentence-transformers' Pooling + Normalize modules do. ``tests/test_embed_lean.py`` checks its vectors
against the sentence-transformers model on real text (cosine >= 0.9999, float32 and bf16).

:meth:`LeanBertEncoder.load` returns None for any directory that is not exactly that shape (another
architecture, other pooling, a missing file); the caller then uses sentence-transformers.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import numpy as np

TOKENS_PER_TEXT = 128
"""A batch holds ``batch_size`` x this many tokens, packed (texts of any length side by side, no padding):
the default 16 texts make 2,048-token batches, past which larger batches were no cheaper per token."""
ROW_BUCKET = 256
"""A packed batch's row count (its tokens) is rounded up to a multiple of this (small ones to 32, 64, 128
or 256) with masked-out rows. oneDNN keeps compiled kernels and buffers per input shape, ~9 MB per
matrix-product shape at 4,096 rows: an exact row count per batch grew RSS by 3.4 GB over 312 row counts;
rounded, a 2,048-token budget has at most 11 row counts. Padding rows are in no text: no attention to or from them,
not pooled, so no vector changes."""

STRUCTURE = [
    "sentence_transformers.models.Transformer",
    "sentence_transformers.models.Pooling",
    "sentence_transformers.models.Normalize",
]


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def supported(model_dir: Path) -> dict[str, Any] | None:
    """The model's config when the directory is a BERT + mean pooling + normalize sentence model."""
    try:
        modules = [m.get("type") for m in _read_json(model_dir / "modules.json")]
        config = _read_json(model_dir / "config.json")
        pooling_dir = next(m.get("path") for m in _read_json(model_dir / "modules.json") if m.get("type") == STRUCTURE[1])
        pooling = _read_json(model_dir / pooling_dir / "config.json")
        st_config = _read_json(model_dir / "sentence_bert_config.json")
    except (OSError, ValueError, StopIteration, TypeError, AttributeError):
        return None
    mean_only = pooling.get("pooling_mode_mean_tokens") and not any(
        pooling.get(k) for k in ("pooling_mode_cls_token", "pooling_mode_max_tokens", "pooling_mode_mean_sqrt_len_tokens")
    )
    if (
        modules != STRUCTURE or config.get("model_type") != "bert" or not mean_only
        or config.get("hidden_act") != "gelu" or config.get("position_embedding_type", "absolute") != "absolute"
        or not (model_dir / "model.safetensors").is_file() or not (model_dir / "tokenizer.json").is_file()
    ):
        return None
    config["max_seq_length"] = int(st_config.get("max_seq_length") or config["max_position_embeddings"])
    return config


class LeanBertEncoder:
    """``embed(texts)`` → unit vectors (float32), like ``SentenceTransformer.encode(normalize_embeddings=True)``."""

    def __init__(self, model_dir: Path, config: dict[str, Any]) -> None:
        import torch
        from safetensors.torch import load_file
        from tokenizers import Tokenizer

        self.torch = torch
        self.max_tokens = int(config["max_seq_length"])
        self.dim = int(config["hidden_size"])
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config.get("layer_norm_eps", 1e-12))
        weights = load_file(str(model_dir / "model.safetensors"))
        self.w = {k.removeprefix("bert."): v.float() for k, v in weights.items()}
        self._prepared: dict[str, dict[str, Any]] = {}  # forward weights, float32 / bf16 (made on first use)
        self.prepack = True  # bf16 products on oneDNN-blocked weights (``_packed_weights``); False: plain
        self._fused: Any = None  # oneDNN linear+GELU, False when this torch lacks it (``_fused_linear``)
        self._pool: Any = None  # batch streams (``_streams``)
        self._pool_size = 0
        self._pool_lock = threading.Lock()
        self.pad_id = int(config.get("pad_token_id") or 0)
        # Truncated, unpadded: embed() pads each batch itself, after grouping texts by padded length.
        self._tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tok.enable_truncation(max_length=self.max_tokens)
        self._tok.no_padding()
        self._counter = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._counter.no_truncation()
        self._counter.no_padding()

    @classmethod
    def load(cls, model_dir: str | Path) -> "LeanBertEncoder | None":
        root = Path(model_dir)
        config = supported(root)
        if config is None:
            return None
        try:
            return cls(root, config)
        except (ImportError, OSError, KeyError, ValueError, RuntimeError):
            return None

    def count_tokens(self, text: str) -> int:
        return len(self._counter.encode(text, add_special_tokens=True).ids)

    def _weights(self, bf16: bool) -> dict[str, Any]:
        """The weights ``_forward`` uses: each layer's query/key/value projections joined into one
        (``qkv``: one matrix product instead of three, the same sums per output); with ``bf16`` every
        linear layer in bfloat16, cast once (autocast cast the float32 weights again on every call,
        inference mode keeps no cast cache: a copy of the model per batch)."""
        key = "bf16" if bf16 else "fp32"
        if key not in self._prepared:
            torch = self.torch
            w = dict(self.w)
            for i in range(self.layers):
                p = f"encoder.layer.{i}.attention.self."
                for part in ("weight", "bias"):
                    w[f"{p}qkv.{part}"] = torch.cat([w.pop(f"{p}{name}.{part}") for name in ("query", "key", "value")])
            if bf16:
                linear = (".attention.self.qkv.", ".attention.output.dense.", ".intermediate.dense.", ".output.dense.")
                w = {k: (v.to(torch.bfloat16) if any(m in k for m in linear) else v) for k, v in w.items()}
            self._prepared[key] = w
        return self._prepared[key]

    def _packed_weights(self) -> dict[str, Any]:
        """The bf16 linear weights in oneDNN's own blocked layout (``_reorder_linear_weight``, as torch's
        compiler freezes them on CPU), made once: a product on plain weights reorders them on every call.
        Same sums, bit-identical outputs; empty when this torch cannot reorder."""
        if "packed" not in self._prepared:
            torch = self.torch
            w = self._weights(True)
            try:
                with torch.inference_mode():
                    packed = {k: torch.ops.mkldnn._reorder_linear_weight(v, TOKENS_PER_TEXT * 16)
                              for k, v in w.items() if k.endswith(".weight") and v.dtype == torch.bfloat16}
            except (AttributeError, RuntimeError, TypeError):
                packed = {}
            self._prepared["packed"] = {**w, **packed} if packed else {}
        return self._prepared["packed"]

    def _fused_linear(self) -> Any:
        """oneDNN's linear with a fused GELU (``torch.ops.mkldnn._linear_pointwise``, what torch's
        compiler emits on CPU) when this torch has it and its residual-add variant, else None. bf16 GELU on its own ran ~3x slower
        than the matrix product before it; fused, it is applied to the float32 sums before rounding."""
        if self._fused is None:
            self._fused = False
            torch = self.torch
            try:
                op = torch.ops.mkldnn._linear_pointwise
                x = torch.randn(2, 3, 8).to(torch.bfloat16)
                wt, b = torch.randn(4, 8).to(torch.bfloat16), torch.randn(4).to(torch.bfloat16)
                with torch.inference_mode():
                    got = op(x, wt, b, "gelu", [], "none").float()
                    want = torch.nn.functional.gelu(torch.nn.functional.linear(x.float(), wt.float(), b.float()))
                    r = torch.randn(2, 3, 4).to(torch.bfloat16)  # the residual-add variant ``_forward`` uses too
                    got_add = op.binary(x, r, wt, b, "add").float()
                    want_add = torch.nn.functional.linear(x.float(), wt.float(), b.float()) + r.float()
                if (got.shape == want.shape and torch.allclose(got, want, rtol=0.05, atol=0.05)
                        and got_add.shape == want_add.shape and torch.allclose(got_add, want_add, rtol=0.05, atol=0.05)):
                    self._fused = op
            except (AttributeError, RuntimeError, TypeError):
                pass
        return self._fused or None

    def _streams(self, n: int) -> Any:
        """The threads that run batches in parallel, kept for the encoder's life: threads started per
        call each took a fresh malloc arena and oneDNN scratch space (peak RSS +200 MB on 40 filings)."""
        with self._pool_lock:
            if self._pool is None or self._pool_size != n:
                from concurrent.futures import ThreadPoolExecutor

                if self._pool is not None:
                    self._pool.shutdown(wait=False)
                self._pool, self._pool_size = ThreadPoolExecutor(max_workers=n, thread_name_prefix="pagelens-embed"), n
            return self._pool

    def _forward(self, ids: Any, lens: list[int], bf16: bool = False) -> Any:
        """Unit vectors of the texts packed in ``ids`` (their token ids one after another, then padding
        rows up to the row bucket), ``lens`` tokens each.

        Packed, every matrix product runs on real tokens only (padding each text to its batch's longest
        was 25% of the dev corpus's forward work); attention runs per text, on its own tokens, so no mask
        is needed. In bf16 the residual stream stays bf16 and each residual sum is fused into the
        product before it (oneDNN's ``add`` post-op, summed in float32, rounded once): the float32
        residual sums, layer-norm copies and casts were ~20% of a batch. Layer norms still compute in
        float32. Vectors stay at cosine >= 0.9999 to the float32 model (``tests/test_embed_lean.py``)."""
        torch, F = self.torch, self.torch.nn.functional
        w = self._weights(bf16)
        fused = self._fused_linear() if bf16 else None
        if fused is not None and self.prepack:
            w = self._packed_weights() or w
        rows, total = ids.shape[0], sum(lens)
        positions = torch.zeros(rows, dtype=torch.long)
        positions[:total] = torch.cat([torch.arange(n) for n in lens])
        h = (
            F.embedding(ids, w["embeddings.word_embeddings.weight"])
            + w["embeddings.token_type_embeddings.weight"][0]
            + F.embedding(positions, w["embeddings.position_embeddings.weight"])
        )
        h = F.layer_norm(h, (self.dim,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        if bf16:
            h = h.to(torch.bfloat16)
        head = self.dim // self.heads
        starts = [0]
        for n in lens[:-1]:
            starts.append(starts[-1] + n)
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def lin(x: Any, name: str, gelu: bool = False, add: Any = None, p: str = p) -> Any:
                """``x @ W.T + b`` (then GELU, or plus the residual ``add``)."""
                weight, bias = w[p + name + ".weight"], w[p + name + ".bias"]
                if fused is not None:
                    if add is not None:
                        return torch.ops.mkldnn._linear_pointwise.binary(x, add, weight, bias, "add")
                    return fused(x, weight, bias, "gelu" if gelu else "none", [], "none" if gelu else "")
                y = F.linear(x, weight, bias)
                return F.gelu(y) if gelu else (y + add if add is not None else y)

            def norm(x: Any, name: str, p: str = p) -> Any:
                return F.layer_norm(x, (self.dim,), w[p + name + ".weight"], w[p + name + ".bias"], self.eps)

            qkv = lin(h, "attention.self.qkv")
            ctx = qkv.new_zeros(rows, self.dim)
            for s, n in zip(starts, lens, strict=True):
                q, k, v = qkv[s : s + n].view(n, 3, self.heads, head).permute(1, 2, 0, 3).unsqueeze(1)
                ctx[s : s + n] = F.scaled_dot_product_attention(q, k, v)[0].transpose(0, 1).reshape(n, self.dim)
            a = norm(lin(ctx, "attention.output.dense", add=h), "attention.output.LayerNorm")
            h = norm(lin(lin(a, "intermediate.dense", gelu=True), "output.dense", add=a), "output.LayerNorm")
        text_of = torch.repeat_interleave(torch.arange(len(lens)), torch.tensor(lens))
        pooled = torch.zeros(len(lens), self.dim).index_add_(0, text_of, h[:total].float())
        pooled /= torch.tensor(lens, dtype=torch.float32).unsqueeze(1)
        return F.normalize(pooled, p=2, dim=1)

    def embed(self, texts: list[str], batch_size: int = 16, bf16: bool = False, streams: int = 1) -> np.ndarray:
        """Unit vectors in the order of ``texts``.

        Texts are tokenized once, sorted by token count and packed in that order into batches of at
        most ``batch_size`` x ``TOKENS_PER_TEXT`` tokens (a text is never split), each batch's row count
        rounded up to its ``ROW_BUCKET``: no padding inside a batch, a few shapes for oneDNN.

        ``streams`` > 1: that many batches run at once, each on its own thread (torch releases the GIL
        in its kernels); callers set torch to one intra-op thread for it. Unlike OpenMP threads
        sharing one batch, a stream never spins at a barrier waiting for a core another process holds."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = self._tok.encode_batch([t.strip() for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        budget = max(1, batch_size) * TOKENS_PER_TEXT
        batches: list[list[int]] = [[]]
        used = 0
        for i in order:
            n = len(encodings[i].ids)
            if batches[-1] and used + n > budget:
                batches.append([])
                used = 0
            batches[-1].append(i)
            used += n
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        self._weights(bf16)  # prepared once, before any stream starts
        if bf16 and self._fused_linear() is not None and self.prepack:
            self._packed_weights()

        def run(rows: list[int]) -> None:
            torch = self.torch
            lens = [len(encodings[i].ids) for i in rows]
            ids = torch.full((bucket_rows(sum(lens)),), self.pad_id, dtype=torch.long)
            ids[: sum(lens)] = torch.tensor([t for i in rows for t in encodings[i].ids], dtype=torch.long)
            with torch.inference_mode():  # thread-local: entered on the thread that runs the batch
                out[rows] = self._forward(ids, lens, bf16).numpy()

        if streams > 1 and len(batches) > 1:
            list(self._streams(streams).map(run, batches))
        else:
            for batch in batches:
                run(batch)
        return out


def bucket_rows(tokens: int) -> int:
    """The row count a packed batch of ``tokens`` tokens is padded to (``ROW_BUCKET``)."""
    for small in (32, 64, 128):
        if tokens <= small:
            return small
    return -(-tokens // ROW_BUCKET) * ROW_BUCKET
