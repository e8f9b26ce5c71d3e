"""A mean-pooled BERT sentence model (all-MiniLM-L6-v2) in plain torch, for bulk embedding at ingest.

Why: on a CPU with native bfloat16 (AMX), torch under bf16 autocast embeds MiniLM about 3-4x cheaper
than the ONNX float32 export (measured on the dev corpus's 372 chunks, 1 thread: 6.8 CPU-s vs 26), so
bulk embedding stays on torch there; but ``import sentence_transformers`` costs about 5.6 CPU-s and
``import torch`` alone 1.4. This module needs only torch, safetensors and tokenizers: the same weights
(``model.safetensors``), the same tokenizer (``tokenizer.json``, truncated at the model's
``max_seq_length``), the same computation as transformers' ``BertModel`` (post-LayerNorm encoder, exact
GELU, scaled dot-product attention with the padding mask), then mean pooling and L2 normalisation as
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

PAD_MULTIPLE = 32
"""Batches are padded to a multiple of this many tokens. oneDNN (torch's CPU kernels, bf16 on AMX)
keeps compiled kernels per input shape: with a batch padded to its own longest text every length was a
new shape, and a process embedding varied text grew from 257 to 1,144 MB RSS over 240 batches; padded
to multiples of 32 (at most 8 lengths up to 256 tokens) it stayed at 450-460 MB. Padding is masked
out of attention and pooling, so the vectors do not change."""

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

    def _fused_linear(self) -> Any:
        """oneDNN's linear with a fused GELU (``torch.ops.mkldnn._linear_pointwise``, what torch's
        compiler emits on CPU) when this torch has it, else None. bf16 GELU on its own ran ~3x slower
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
                if got.shape == want.shape and torch.allclose(got, want, rtol=0.05, atol=0.05):
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

    def _forward(self, ids: Any, mask: Any, types: Any, bf16: bool = False) -> Any:
        torch, F = self.torch, self.torch.nn.functional
        w = self._weights(bf16)
        fused = self._fused_linear() if bf16 else None
        n, length = ids.shape
        positions = torch.arange(length).unsqueeze(0)
        h = (
            F.embedding(ids, w["embeddings.word_embeddings.weight"])
            + F.embedding(types, w["embeddings.token_type_embeddings.weight"])
            + F.embedding(positions, w["embeddings.position_embeddings.weight"])
        )
        h = F.layer_norm(h, (self.dim,), w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        keep = mask.bool()[:, None, None, :]  # (n, 1, 1, length): attend to real tokens only
        head = self.dim // self.heads
        # bf16 as autocast ran it: linear layers and attention in bf16 (inputs cast), layer norms and
        # residual sums in float32.
        low = (lambda x: x.to(torch.bfloat16)) if bf16 else (lambda x: x)
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def lin(x: Any, name: str, gelu: bool = False, p: str = p) -> Any:
                weight, bias = w[p + name + ".weight"], w[p + name + ".bias"]
                if fused is not None:
                    return fused(x, weight, bias, "gelu" if gelu else "none", [], "none" if gelu else "")
                y = F.linear(x, weight, bias)
                return F.gelu(y) if gelu else y

            def split(x: Any) -> Any:
                return x.reshape(n, length, self.heads, head).transpose(1, 2)

            q, k, v = (split(t) for t in lin(low(h), "attention.self.qkv").split(self.dim, dim=-1))
            ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=keep).transpose(1, 2).reshape(n, length, self.dim)
            a = F.layer_norm(lin(ctx, "attention.output.dense") + h, (self.dim,),
                             w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], self.eps)
            h = F.layer_norm(lin(lin(low(a), "intermediate.dense", gelu=True), "output.dense") + a, (self.dim,),
                             w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], self.eps)
        m = mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return F.normalize(pooled.float(), p=2, dim=1)

    def embed(self, texts: list[str], batch_size: int = 16, bf16: bool = False, streams: int = 1) -> np.ndarray:
        """Unit vectors in the order of ``texts``.

        Texts are tokenized once, sorted by token count and batched in that order, each batch padded
        to its longest text rounded up to ``PAD_MULTIPLE`` (batches of texts sorted by characters, as
        callers pass them, were 28% padding on the dev corpus; by tokens, 8%). Full batches only come
        in the few lengths ``PAD_MULTIPLE`` allows: oneDNN keeps ~4 MB of kernels per input shape, and
        batches cut per length bucket (every bucket's last batch a new size) held 28 shapes where these
        hold 7.

        ``streams`` > 1: that many batches run at once, each on its own thread (torch releases the GIL
        in its kernels); callers set torch to one intra-op thread for it. Unlike OpenMP threads
        sharing one batch, a stream never spins at a barrier waiting for a core another process holds."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = self._tok.encode_batch([t.strip() for t in texts])
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        batches = []
        for start in range(0, len(order), batch_size):
            rows = order[start : start + batch_size]
            batches.append((-(-len(encodings[rows[-1]].ids) // PAD_MULTIPLE) * PAD_MULTIPLE, rows))
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        self._weights(bf16)  # prepared once, before any stream starts
        if bf16:
            self._fused_linear()

        def run(batch: tuple[int, list[int]]) -> None:
            torch = self.torch
            length, rows = batch
            ids = torch.full((len(rows), length), self.pad_id, dtype=torch.long)
            mask = torch.zeros((len(rows), length), dtype=torch.long)
            types = torch.zeros((len(rows), length), dtype=torch.long)
            for r, i in enumerate(rows):
                e = encodings[i]
                n = len(e.ids)
                ids[r, :n] = torch.tensor(e.ids, dtype=torch.long)
                mask[r, :n] = torch.tensor(e.attention_mask, dtype=torch.long)
                types[r, :n] = torch.tensor(e.type_ids, dtype=torch.long)
            with torch.inference_mode():  # thread-local: entered on the thread that runs the batch
                out[rows] = self._forward(ids, mask, types, bf16).numpy()

        if streams > 1 and len(batches) > 1:
            list(self._streams(streams).map(run, batches))
        else:
            for batch in batches:
                run(batch)
        return out
