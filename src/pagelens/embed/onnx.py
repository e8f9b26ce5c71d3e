"""The same sentence-transformers model exported to ONNX, run by onnxruntime + tokenizers (no torch).

Importing torch and loading MiniLM takes seconds; this path loads in a fraction of one, which is what
a one-query ``pagelens search`` needs. It is used only when an export exists that was verified at export
time: the ONNX vectors of :data:`CHECK_SENTENCES` must match the torch model's (float32) to a cosine of
at least :data:`MIN_COSINE` each, so vectors already in an index stay valid. An export that fails the
check is recorded as rejected and never used.

Exports live under ``<cache>/<key>/`` where the key hashes the model directory, its weight files' sizes
and times, and the torch/transformers/onnx versions that made it; ``cache`` is ``index.onnx_cache`` or the
user cache dir (``~/.cache/pagelens/onnx``). Exporting needs torch and the ``onnx`` package (``pip
install onnx``); running it needs only onnxruntime (which PyMuPDF's layout models bring) and tokenizers.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

EXPORT_FORMAT = 1
OPSET = 17
MIN_COSINE = 0.9999
CHECK_SENTENCES = (
    "What was the revenue growth in the second quarter?",
    "Table 3: operating expenses by segment, in millions of dollars, 2022 and 2023.",
    "Attention is all you need.",
    "The Adam optimizer keeps exponential moving averages of the gradient and its square.",
    "Figure 2 shows the corrosion rate against inhibitor concentration at 25 °C.",
    "name: Jane Doe — employee id: 4471 — start date: 2021-03-01",
    "a",
    "BERT is pre-trained on masked language modelling and next sentence prediction. " * 12,
    "Net cash provided by operating activities was $3.8 million (2009: $(1.2) million).",
    "Wie hoch war der Umsatz im Jahr 2023?",
)


def default_cache() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("pagelens", appauthor=False)) / "onnx"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "-"


def export_key(model_dir: str | Path) -> str:
    root = Path(model_dir).resolve()
    files = []
    for p in sorted(root.glob("*")):
        if p.is_file() and p.suffix in (".safetensors", ".bin", ".json", ".txt"):
            st = p.stat()
            files.append([p.name, st.st_size, int(st.st_mtime)])
    ident = {
        "path": str(root), "files": files, "format": EXPORT_FORMAT, "opset": OPSET,
        "torch": _version("torch"), "transformers": _version("transformers"), "onnx": _version("onnx"),
    }
    return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:16]


def export_dir(model_dir: str | Path, cache: Path | None = None) -> Path:
    return (cache or default_cache()) / export_key(model_dir)


def runtime_available() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "tokenizers"))


def export_status(model_dir: str | Path, cache: Path | None = None) -> dict[str, Any] | None:
    """The export's record (``{"ok": bool, "min_cosine": ...}``), or None when none was made."""
    record = export_dir(model_dir, cache) / "export.json"
    try:
        return json.loads(record.read_text())
    except (OSError, ValueError):
        return None


class OnnxTextEncoder:
    """BERT + mean pooling + L2 normalisation in one ONNX graph; tokenised by ``tokenizers``."""

    def __init__(self, folder: Path, threads: int = 0) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        record = json.loads((folder / "export.json").read_text())
        self.max_tokens = int(record["max_seq_length"])
        self.dim = int(record["dim"])
        self._counter = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._counter.no_truncation()
        self._counter.no_padding()
        self._tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tok.enable_truncation(max_length=self.max_tokens)
        self._tok.enable_padding(pad_id=int(record.get("pad_id", 0)))
        opts = ort.SessionOptions()
        opts.log_severity_level = 3
        if threads > 0:
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
        self._session = ort.InferenceSession(str(folder / "model.onnx"), opts, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}

    @classmethod
    def load(cls, model_dir: str | Path, cache: Path | None = None, threads: int = 0) -> "OnnxTextEncoder | None":
        """The verified export of ``model_dir``, or None (none made, rejected, or runtime missing)."""
        status = export_status(model_dir, cache)
        if not status or not status.get("ok") or not runtime_available():
            return None
        try:
            return cls(export_dir(model_dir, cache), threads)
        except Exception:  # a damaged cache entry: fall back to torch, which still works
            return None

    def embed(self, texts: list[str], batch_size: int = 16) -> np.ndarray:
        out = []
        for i in range(0, len(texts), batch_size):
            enc = self._tok.encode_batch(list(texts[i : i + batch_size]))
            feed = {
                "input_ids": np.array([e.ids for e in enc], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in enc], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in enc], dtype=np.int64),
            }
            out.append(self._session.run(None, {k: v for k, v in feed.items() if k in self._inputs})[0])
        if not out:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.ascontiguousarray(np.concatenate(out), dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        return len(self._counter.encode(text, add_special_tokens=True).ids)


def export(st_model: Any, model_dir: str | Path, cache: Path | None = None) -> dict[str, Any]:
    """Export a loaded SentenceTransformer (Transformer + mean Pooling [+ Normalize]) and verify it.

    Returns the record written to ``export.json``; ``ok`` is False (and the export is not used) when
    the model has another shape or a check sentence's cosine to torch is under MIN_COSINE."""
    import torch

    target = export_dir(model_dir, cache)
    target.parent.mkdir(parents=True, exist_ok=True)
    record: dict[str, Any] = {"ok": False, "model": str(model_dir), "min_cosine": None}
    work = Path(tempfile.mkdtemp(prefix=".export-", dir=target.parent))
    try:
        transformer, pooling = st_model[0], st_model[1]
        mode = getattr(pooling, "pooling_mode", None)
        mean = mode == "mean" or (isinstance(mode, (list, tuple)) and list(mode) == ["mean"])
        if not (mean or getattr(pooling, "pooling_mode_mean_tokens", False)) or not hasattr(transformer, "auto_model"):
            record["reason"] = "only mean-pooled transformer models are exported"
            return _publish(work, target, record)
        hf = transformer.auto_model.eval()
        tokenizer_file = Path(model_dir) / "tokenizer.json"
        if not tokenizer_file.is_file():
            record["reason"] = "the model directory has no tokenizer.json"
            return _publish(work, target, record)

        class Pooled(torch.nn.Module):
            def __init__(self, m: Any) -> None:
                super().__init__()
                self.m = m

            def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
                h = self.m(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)[0]
                mask = attention_mask.unsqueeze(-1).to(h.dtype)
                v = (h * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                return torch.nn.functional.normalize(v, p=2, dim=1)

        ids = torch.ones(2, 8, dtype=torch.long)
        axes = {"b": 0, "s": 1}
        dyn = {n: {axes["b"]: "batch", axes["s"]: "tokens"} for n in ("input_ids", "attention_mask", "token_type_ids")}
        dyn["embedding"] = {0: "batch"}
        import warnings

        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Pooled(hf), (ids, ids, torch.zeros_like(ids)), str(work / "model.onnx"),
                input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=["embedding"],
                dynamic_axes=dyn, opset_version=OPSET, dynamo=False,
            )
        shutil.copyfile(tokenizer_file, work / "tokenizer.json")
        pad_id = getattr(getattr(transformer, "tokenizer", None), "pad_token_id", 0) or 0
        record.update(max_seq_length=int(st_model.max_seq_length), dim=int(hf.config.hidden_size), pad_id=int(pad_id))
        (work / "export.json").write_text(json.dumps(record))
        reference = st_model.encode(list(CHECK_SENTENCES), normalize_embeddings=True, convert_to_numpy=True)
        candidate = OnnxTextEncoder(work, threads=1).embed(list(CHECK_SENTENCES))
        cosines = np.sum(np.asarray(reference, dtype=np.float64) * candidate, axis=1)
        record["min_cosine"] = float(cosines.min())
        record["ok"] = bool(cosines.min() >= MIN_COSINE)
        if not record["ok"]:
            record["reason"] = f"cosine to the torch model {cosines.min():.6f} < {MIN_COSINE}"
            (work / "model.onnx").unlink(missing_ok=True)
        return _publish(work, target, record)
    except Exception as exc:  # an export problem costs only the fast path, never the command
        record["reason"] = f"export failed: {type(exc).__name__}: {str(exc)[:200]}"
        return _publish(work, target, record)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _publish(work: Path, target: Path, record: dict[str, Any]) -> dict[str, Any]:
    """Move the finished export into place in one rename (a concurrent reader sees all or nothing)."""
    record["versions"] = {d: _version(d) for d in ("torch", "transformers", "onnx", "onnxruntime", "tokenizers")}
    (work / "export.json").write_text(json.dumps(record))
    if target.exists():
        return record  # another process published first
    try:
        os.rename(work, target)
    except OSError:
        pass
    return record
