"""The ONNX export of MiniLM: verified against torch at export time, then used for queries without torch."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from pagelens.embed import onnx
from pagelens.embed.sentence import SentenceTransformerEmbedder, resolve_model_path

MISSING = [m for m in ("onnxruntime", "tokenizers", "onnx") if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(
    bool(MISSING), reason=f"the ONNX path needs {', '.join(MISSING)} (pip install onnxruntime tokenizers onnx)"
)

TEXTS = [
    "Which depot kept its cost flat in the third quarter?",
    "Interest expense rose to $3.8 million in 2009 from $2.1 million.",
    "Table 4 — Segment results (in thousands): Americas 12,400; EMEA 9,310; APAC 4,022.",
    "The encoder stacks six identical layers, each with multi-head self-attention. " * 30,  # > 256 tokens
    "ok",
]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding a fresh export made from the loaded torch model (as an ingest makes it)."""
    cache = tmp_path_factory.mktemp("onnx-cache")
    torch_side = SentenceTransformerEmbedder("all-MiniLM-L6-v2", precision="float32", runtime="auto", onnx_cache=cache)
    torch_side.warm()  # no export yet: loads torch, exports, verifies
    record = onnx.export_status(resolve_model_path("all-MiniLM-L6-v2")[0], cache)
    assert record is not None and record["ok"], record
    assert record["min_cosine"] >= onnx.MIN_COSINE
    return cache


def test_onnx_query_vectors_match_torch(exported: Path) -> None:
    reference = SentenceTransformerEmbedder("all-MiniLM-L6-v2", precision="float32", runtime="torch")
    fast = SentenceTransformerEmbedder("all-MiniLM-L6-v2", precision="float32", runtime="onnx", onnx_cache=exported)
    want, got = reference.embed(TEXTS), fast.embed(TEXTS)
    assert fast.onnx_active and not fast.loaded  # the torch model was never loaded
    assert got.shape == want.shape == (len(TEXTS), 384) and got.dtype == np.float32
    cosines = np.sum(want * got, axis=1)
    assert cosines.min() >= 0.9999, cosines
    assert [fast.count_tokens(t) for t in TEXTS] == [reference.count_tokens(t) for t in TEXTS]


def test_a_query_in_a_fresh_process_imports_no_torch(exported: Path) -> None:
    code = (
        "import sys, json\n"
        "from pagelens.embed.sentence import SentenceTransformerEmbedder\n"
        f"e = SentenceTransformerEmbedder('all-MiniLM-L6-v2', precision='bfloat16', onnx_cache={str(exported)!r})\n"
        "v = e.embed(['which depot kept its cost flat'])\n"
        "print(json.dumps({'shape': list(v.shape), 'onnx': e.onnx_active, "
        "'heavy': sorted(m for m in ('torch', 'sentence_transformers', 'transformers') if m in sys.modules)}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == {"shape": [1, 384], "onnx": True, "heavy": []}


def test_bulk_embedding_stays_on_torch_where_bf16_is_native(exported: Path) -> None:
    e = SentenceTransformerEmbedder("all-MiniLM-L6-v2", precision="bfloat16", runtime="auto", onnx_cache=exported)
    e.embed(TEXTS[:2])  # a query-sized call: ONNX
    assert e.onnx_active and not e.loaded
    bulk = e.embed(TEXTS * 4)  # a document batch under bf16: torch, which autocasts to bf16
    assert e.torch_active and not e.loaded  # the plain-torch encoder: sentence-transformers stays unloaded
    want = SentenceTransformerEmbedder("all-MiniLM-L6-v2", precision="float32", runtime="torch").embed(TEXTS * 4)
    assert np.sum(want * bulk, axis=1).min() >= 0.9999


def test_a_rejected_or_missing_export_is_never_used(exported: Path, tmp_path: Path) -> None:
    source = resolve_model_path("all-MiniLM-L6-v2")[0]
    cache = tmp_path / "cache"
    folder = onnx.export_dir(source, cache)
    folder.mkdir(parents=True)
    record = json.loads((onnx.export_dir(source, exported) / "export.json").read_text())
    record.update(ok=False, min_cosine=0.98, reason="cosine to the torch model 0.980000 < 0.9999")
    (folder / "export.json").write_text(json.dumps(record))
    assert onnx.OnnxTextEncoder.load(source, cache) is None
    assert onnx.OnnxTextEncoder.load(source, tmp_path / "empty") is None
    e = SentenceTransformerEmbedder("all-MiniLM-L6-v2", precision="float32", runtime="auto", onnx_cache=cache)
    assert e.embed(["a query"]).shape == (1, 384)
    assert not e.onnx_active and e.torch_active  # fell back to torch
