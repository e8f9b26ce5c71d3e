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
        self._tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tok.enable_truncation(max_length=self.max_tokens)
        self._tok.enable_padding(pad_id=int(config.get("pad_token_id") or 0), pad_to_multiple_of=PAD_MULTIPLE)
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

    def _forward(self, ids: Any, mask: Any, types: Any) -> Any:
        torch, w, F = self.torch, self.w, self.torch.nn.functional
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
        for i in range(self.layers):
            p = f"encoder.layer.{i}."

            def lin(x: Any, name: str, p: str = p) -> Any:
                return F.linear(x, w[p + name + ".weight"], w[p + name + ".bias"])

            def split(x: Any) -> Any:
                return x.view(n, length, self.heads, head).transpose(1, 2)

            q, k, v = split(lin(h, "attention.self.query")), split(lin(h, "attention.self.key")), split(lin(h, "attention.self.value"))
            ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=keep).transpose(1, 2).reshape(n, length, self.dim)
            a = F.layer_norm(lin(ctx, "attention.output.dense") + h, (self.dim,),
                             w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], self.eps)
            h = F.layer_norm(lin(F.gelu(lin(a, "intermediate.dense")), "output.dense") + a, (self.dim,),
                             w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], self.eps)
        m = mask.unsqueeze(-1).to(h.dtype)
        pooled = (h * m).sum(1) / m.sum(1).clamp(min=1e-9)
        return F.normalize(pooled.float(), p=2, dim=1)

    def embed(self, texts: list[str], batch_size: int = 16, bf16: bool = False) -> np.ndarray:
        """Batches in the given order (callers sort by length: less padding)."""
        torch = self.torch
        out = []
        with torch.inference_mode(), torch.autocast("cpu", dtype=torch.bfloat16, enabled=bf16):
            for i in range(0, len(texts), batch_size):
                enc = self._tok.encode_batch([t.strip() for t in texts[i : i + batch_size]])
                ids = torch.tensor([e.ids for e in enc], dtype=torch.long)
                mask = torch.tensor([e.attention_mask for e in enc], dtype=torch.long)
                types = torch.tensor([e.type_ids for e in enc], dtype=torch.long)
                out.append(self._forward(ids, mask, types).numpy())
        if not out:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.ascontiguousarray(np.concatenate(out), dtype=np.float32)
