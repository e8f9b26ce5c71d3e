"""The plain-torch MiniLM (pagelens.embed.torch_bert): the same vectors as sentence-transformers on real
text, and an ingest that embeds with it imports neither sentence-transformers nor transformers."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from pagelens.embed import onnx
from pagelens.embed.sentence import SentenceTransformerEmbedder, native_bf16, resolve_model_path
from pagelens.embed.torch_bert import LeanBertEncoder, supported

DATA = Path(__file__).parent / "data"


def real_texts() -> list[str]:
    """Chunk-sized pieces of the committed public PDFs' text layers (tables, prose, a form-like page)."""
    texts: list[str] = []
    for name in ("redp5110_sampled.pdf", "sp-table-nics-checks-2015-11.pdf", "amt_handbook_sample.pdf"):
        with pymupdf.open(DATA / name) as doc:
            text = " ".join(" ".join(page.get_text().split()) for page in doc)
        texts += [text[i : i + 700] for i in range(0, min(len(text), 700 * 14), 700)]
    texts += ["a", "Which depot kept its cost flat?", "  padded query  "]
    return [t for t in texts if t.strip()]


@pytest.fixture(scope="module")
def model_dir() -> Path:
    return Path(resolve_model_path("all-MiniLM-L6-v2")[0])


@pytest.fixture(scope="module")
def reference(model_dir: Path) -> tuple[list[str], np.ndarray, SentenceTransformerEmbedder]:
    st = SentenceTransformerEmbedder("all-MiniLM-L6-v2", precision="float32", runtime="torch")
    texts = real_texts()
    return texts, st.embed(texts), st


def test_vectors_match_sentence_transformers_float32(model_dir: Path, reference) -> None:
    texts, want, st = reference
    lean = LeanBertEncoder.load(model_dir)
    assert lean is not None
    got = lean.embed(sorted(texts, key=len), batch_size=8)
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    cosines = np.sum(want[order] * got, axis=1)
    assert got.dtype == np.float32 and got.shape == (len(texts), 384)
    assert cosines.min() >= 0.99999, cosines.min()
    assert [lean.count_tokens(t) for t in texts] == [st.count_tokens(t) for t in texts]
    assert max(lean.count_tokens(t) for t in texts) > lean.max_tokens  # truncation was exercised


@pytest.mark.skipif(not native_bf16(), reason="bf16 autocast is used only where the CPU computes bf16 natively")
def test_bf16_vectors_stay_within_the_index_tolerance(model_dir: Path, reference) -> None:
    texts, want, _ = reference
    lean = LeanBertEncoder.load(model_dir)
    assert lean is not None
    got = lean.embed(texts, bf16=True)
    assert np.sum(want * got, axis=1).min() >= 0.9999


def test_other_model_shapes_are_not_taken(model_dir: Path, tmp_path: Path) -> None:
    copy = tmp_path / "cls-pooled"
    shutil.copytree(model_dir, copy, ignore=shutil.ignore_patterns("*.safetensors", "*.bin"))
    assert supported(model_dir) is not None
    (copy / "model.safetensors").symlink_to(model_dir / "model.safetensors")
    assert supported(copy) is not None
    pooling = json.loads((copy / "1_Pooling" / "config.json").read_text())
    pooling.update(pooling_mode_cls_token=True, pooling_mode_mean_tokens=False)
    (copy / "1_Pooling" / "config.json").write_text(json.dumps(pooling))
    assert supported(copy) is None
    assert LeanBertEncoder.load(copy) is None
    assert LeanBertEncoder.load(tmp_path / "missing") is None


INGEST = """
import json, sys
from pathlib import Path
from pagelens.app import Pagelens
from pagelens.settings import Settings
home, cache, pdf = sys.argv[1:4]
settings = Settings(home=Path(home)).with_overrides(**{"ingest.ocr": "off", "index.onnx_cache": cache,
                                                     "index.embed_precision": "bfloat16"})
with Pagelens(settings) as app:
    [result] = app.ingest([Path(pdf)])
    hits = app.search("depot cost flat", k=3)
print(json.dumps({"status": result.status, "chunks": result.chunks, "hits": len(hits),
                  "loaded": sorted(m for m in ("sentence_transformers", "transformers") if m in sys.modules)}))
"""


@pytest.mark.skipif(importlib.util.find_spec("onnx") is None, reason="making the ONNX export needs the onnx package")
def test_ingest_with_an_export_imports_no_sentence_transformers(model_dir: Path, tmp_path: Path) -> None:
    cache = tmp_path / "onnx"
    maker = SentenceTransformerEmbedder("all-MiniLM-L6-v2", precision="float32", runtime="auto", onnx_cache=cache)
    maker.warm()  # the first ingest on a machine makes the export with sentence-transformers (once)
    assert (onnx.export_status(model_dir, cache) or {}).get("ok")
    pdf = tmp_path / "memo.pdf"
    doc = pymupdf.open()
    for i in range(3):
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 400), f"Part {i}. The depot kept its cost flat in 2024. " * 9)
    doc.save(pdf)
    proc = subprocess.run(
        [sys.executable, "-c", INGEST, str(tmp_path / "home"), str(cache), str(pdf)], capture_output=True, text=True,
        timeout=600, env={"PATH": "/usr/bin:/bin", "HF_HUB_OFFLINE": "1", "PYTHONPATH": ":".join(sys.path)},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    assert res["status"] == "indexed" and res["chunks"] >= 1 and res["hits"] >= 1
    assert res["loaded"] == [], f"ingest imported {res['loaded']}"


SHAPES = """
import random, sys
import torch
from pagelens.embed.sentence import resolve_model_path
from pagelens.embed.torch_bert import LeanBertEncoder
torch.set_num_threads(1)
def rss():
    return int(open('/proc/self/statm').read().split()[1]) * 4096 / 2**20
enc = LeanBertEncoder.load(resolve_model_path('all-MiniLM-L6-v2')[0])
words = 'revenue interest expense segment million fiscal reported tax rate liquidity'.split()
random.seed(7)
marks = []
for _ in range(4):
    for _ in range(30):
        n = random.randint(3, 200)
        enc.embed([' '.join(random.choice(words) for _ in range(n)) for _ in range(16)], bf16=True)
    marks.append(round(rss()))
print(*marks)
"""


@pytest.mark.skipif(not native_bf16(), reason="measured on the bf16 (AMX) kernels, which bulk ingest uses there")
def test_memory_stays_flat_over_batches_of_every_length() -> None:
    proc = subprocess.run([sys.executable, "-c", SHAPES], capture_output=True, text=True, timeout=600,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ":".join(sys.path)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    marks = [int(x) for x in proc.stdout.split()]
    assert marks[-1] - marks[0] < 80, marks  # unpadded: +370 MB over the same batches
