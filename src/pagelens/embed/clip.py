"""CLIP image/text embeddings for the figure channel (transformers, no torchvision).

A local CLIP directory (``config.json`` with ``model_type: clip``, weights, tokenizer files and
``preprocessor_config.json``) is checked when the embedder is built and loaded on first use. Images
are preprocessed by ``CLIPImageProcessorPil`` (Pillow only), so no torchvision is needed.
"""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path
from typing import Any

import numpy as np

from pagelens.embed.sentence import quiet_loading, torch_threads
from pagelens.errors import ComponentUnavailable, DocumentError

CLIP_FIX = "set index.clip_model to a local CLIP model directory, e.g. openai/clip-vit-base-patch32 downloaded elsewhere"
_TOKENIZER_FILES = ("tokenizer.json", "vocab.json")


def inspect_clip_dir(path: str | Path) -> int:
    """Validate a CLIP directory without loading weights; return its projection dimension.

    Raises :class:`ComponentUnavailable` naming what is missing.
    """
    root = Path(path).expanduser()
    if not root.is_dir():
        raise ComponentUnavailable("clip", f"{root} is not a directory", CLIP_FIX)
    config_path = root / "config.json"
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ComponentUnavailable("clip", f"{root} has no config.json", CLIP_FIX) from exc
    except (OSError, ValueError) as exc:
        raise ComponentUnavailable("clip", f"{config_path} is unreadable: {exc}", CLIP_FIX) from exc
    if config.get("model_type") != "clip":
        raise ComponentUnavailable(
            "clip", f"{config_path} has model_type {config.get('model_type')!r}, expected 'clip'", CLIP_FIX
        )
    if not any((root / name).is_file() for name in ("model.safetensors", "pytorch_model.bin")) and not any(
        root.glob("model-*.safetensors")
    ):
        raise ComponentUnavailable("clip", f"{root} has no model weights (model.safetensors)", CLIP_FIX)
    if not any((root / name).is_file() for name in _TOKENIZER_FILES):
        raise ComponentUnavailable("clip", f"{root} has no tokenizer (tokenizer.json or vocab.json)", CLIP_FIX)
    if not (root / "preprocessor_config.json").is_file():
        raise ComponentUnavailable("clip", f"{root} has no preprocessor_config.json", CLIP_FIX)
    return int(config.get("projection_dim", 512))


class ClipEmbedder:
    """A local CLIP model as an :class:`~pagelens.embed.protocol.ImageEmbedder`."""

    def __init__(self, path: str, threads: int = 0, batch_size: int = 16) -> None:
        self.path = str(Path(path).expanduser())
        self.dim = inspect_clip_dir(self.path)
        self.name = f"clip:{Path(self.path).name}"
        self.threads = threads
        self.batch_size = batch_size
        self._parts: tuple[Any, Any, Any] | None = None
        self._lock = threading.Lock()

    def _load(self) -> tuple[Any, Any, Any]:
        if self._parts is None:
            with self._lock:
                if self._parts is None:
                    self._parts = self._load_parts()
        return self._parts

    def _load_parts(self) -> tuple[Any, Any, Any]:
        try:
            from transformers import AutoTokenizer, CLIPImageProcessorPil, CLIPModel
        except ImportError as exc:
            raise ComponentUnavailable("clip", f"transformers lacks CLIP support ({exc})", "pip install 'transformers>=5'") from exc
        try:
            with quiet_loading():
                model = CLIPModel.from_pretrained(self.path, local_files_only=True)
            tokenizer = AutoTokenizer.from_pretrained(self.path, local_files_only=True)
            processor = CLIPImageProcessorPil.from_pretrained(self.path, local_files_only=True)
        except Exception as exc:  # translate transformers/IO errors at the boundary
            raise ComponentUnavailable("clip", f"cannot load {self.path}: {type(exc).__name__}: {exc}", CLIP_FIX) from exc
        model.eval()
        return model, tokenizer, processor

    def embed_images(self, pngs: list[bytes]) -> np.ndarray:
        if not pngs:
            return np.zeros((0, self.dim), dtype=np.float32)
        import torch
        from PIL import Image, UnidentifiedImageError

        model, _, processor = self._load()
        images = []
        for i, data in enumerate(pngs):
            try:
                with Image.open(io.BytesIO(data)) as im:
                    images.append(im.convert("RGB"))
            except (UnidentifiedImageError, OSError, ValueError) as exc:
                raise DocumentError(f"image {i} of {len(pngs)} is not a readable image: {exc}", stage="clip embed") from exc
        rows = []
        with torch_threads(self.threads), torch.inference_mode():
            for start in range(0, len(images), self.batch_size):
                pixels = processor(images=images[start : start + self.batch_size], return_tensors="pt")
                rows.append(_features(model.get_image_features(pixel_values=pixels["pixel_values"])))
        return _normalise(np.concatenate(rows, axis=0))

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        import torch

        model, tokenizer, _ = self._load()
        max_length = int(model.config.text_config.max_position_embeddings)
        rows = []
        with torch_threads(self.threads), torch.inference_mode():
            for start in range(0, len(texts), self.batch_size):
                batch = tokenizer(
                    texts[start : start + self.batch_size],
                    padding=True,
                    truncation=True,
                    max_length=max_length,
                    return_tensors="pt",
                )
                rows.append(
                    _features(
                        model.get_text_features(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"])
                    )
                )
        return _normalise(np.concatenate(rows, axis=0))

    def __repr__(self) -> str:
        return f"ClipEmbedder({self.path!r})"


def _features(output: Any) -> np.ndarray:
    """transformers 5 returns a ModelOutput whose pooler_output is projected; 4.x a tensor."""
    tensor = getattr(output, "pooler_output", output)
    return tensor.detach().float().cpu().numpy()


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.ascontiguousarray(vectors / np.where(norms == 0.0, 1.0, norms), dtype=np.float32)
