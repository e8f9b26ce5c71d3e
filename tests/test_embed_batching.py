"""Bulk embedding without waste: the plain-torch MiniLM packs texts into token-budget batches (vectors
in input order, the same as each text embedded alone), its fused bf16 linear+GELU stays within the
index tolerance of the unfused computation, and the indexer embeds a text repeated in a document once."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pymupdf
import pytest

from pagelens.app import Pagelens
from pagelens.embed.fake import HashingEmbedder
from pagelens.embed.sentence import native_bf16, resolve_model_path
from pagelens.embed.torch_bert import ROW_BUCKET, TOKENS_PER_TEXT, LeanBertEncoder, bucket_rows
from pagelens.index.indexer import SPARSE_ONLY_KINDS
from pagelens.settings import Settings

DATA = Path(__file__).parent / "data"


def real_texts() -> list[str]:
    """Pieces of the committed public PDFs' text layers of very different token lengths (a word, a
    sentence, paragraphs, and pieces past the model's 256-token limit)."""
    with pymupdf.open(DATA / "redp5110_sampled.pdf") as doc:
        words = " ".join(" ".join(page.get_text().split()) for page in doc).split()
    rng = random.Random(7)
    texts, at = [], 0
    for size in [1, 3, 9, 14, 30, 55, 80, 120, 170, 240, 400, 2, 20, 65, 150, 300, 5, 45, 100, 210]:
        texts.append(" ".join(words[at : at + size]))
        at += size
    rng.shuffle(texts)
    return texts


@pytest.fixture(scope="module")
def lean() -> LeanBertEncoder:
    enc = LeanBertEncoder.load(resolve_model_path("all-MiniLM-L6-v2")[0])
    assert enc is not None
    return enc


@pytest.mark.parametrize("bf16", [False, pytest.param(True, marks=pytest.mark.skipif(
    not native_bf16(), reason="bf16 is used only where the CPU computes it natively"))])
def test_batches_by_length_keep_input_order_and_vectors(lean: LeanBertEncoder, bf16: bool) -> None:
    texts = real_texts()
    together = lean.embed(texts, batch_size=4, bf16=bf16)
    alone = np.concatenate([lean.embed([t], bf16=bf16) for t in texts])  # one text a batch: no padding at all
    assert together.shape == (len(texts), 384) and together.dtype == np.float32
    cosines = np.sum(together * alone, axis=1)
    assert cosines.min() >= (0.9999 if bf16 else 0.99999), cosines.min()
    # Row i is text i's vector: it is nearest to its own text's lone vector, not a neighbour's.
    assert list(np.argmax(together @ alone.T, axis=1)) == list(range(len(texts)))


def test_batches_are_packed_in_token_order_within_the_budget(
    lean: LeanBertEncoder, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = sorted(real_texts() * 2, key=len)  # as the indexer passes them: sorted by characters
    seen: list[tuple[int, list[int]]] = []
    forward = lean._forward

    def recording(ids, lens, bf16=False):  # type: ignore[no-untyped-def]
        seen.append((ids.shape[0], list(lens)))
        return forward(ids, lens, bf16)

    monkeypatch.setattr(lean, "_forward", recording)
    lean.embed(texts, batch_size=8)
    real = [n for _, lens in seen for n in lens]
    assert len(real) == len(texts) and real == sorted(real)  # every text once, batches in token order
    counts = sorted(min(lean.count_tokens(t.strip()), lean.max_tokens) for t in texts)
    assert real == counts  # a text is never split nor padded inside its batch
    budget = 8 * TOKENS_PER_TEXT
    assert len(seen) >= 3
    for rows, lens in seen:
        assert sum(lens) <= budget or len(lens) == 1
        assert rows == bucket_rows(sum(lens)) and rows >= sum(lens)
    # Every batch but the last is full: the next text would not have fitted.
    for (_, lens), (_, after) in zip(seen, seen[1:]):
        assert sum(lens) + after[0] > budget
    # Few row counts (oneDNN keeps kernels per shape), and less padding than padding each batch of 8
    # texts to its longest, rounded to 32 tokens (the layout before packing).
    assert len({rows for rows, _ in seen}) <= 4 + budget // ROW_BUCKET
    padded_by_text = sum(-(-max(counts[i : i + 8]) // 32) * 32 * len(counts[i : i + 8]) for i in range(0, len(counts), 8))
    assert sum(rows for rows, _ in seen) < padded_by_text


@pytest.mark.skipif(not native_bf16(), reason="bf16 is used only where the CPU computes it natively")
def test_fused_gelu_stays_within_the_index_tolerance(lean: LeanBertEncoder) -> None:
    if lean._fused_linear() is None:
        pytest.skip("this torch build has no oneDNN linear+GELU (the unfused path is the one in use)")
    texts = real_texts()
    fused = lean.embed(texts, bf16=True)
    exact = lean.embed(texts, bf16=False)
    unfused = LeanBertEncoder.load(resolve_model_path("all-MiniLM-L6-v2")[0])
    assert unfused is not None
    unfused._fused = False
    plain = unfused.embed(texts, bf16=True)
    assert np.sum(fused * plain, axis=1).min() >= 0.9999
    # Rounding after the GELU, not before it, brings bf16 no further from float32.
    assert np.sum(fused * exact, axis=1).mean() >= np.sum(plain * exact, axis=1).mean() - 1e-6


class CountingEmbedder(HashingEmbedder):
    def __init__(self) -> None:
        super().__init__(dim=64)
        self.texts: list[str] = []

    def embed(self, texts: list[str]) -> np.ndarray:
        self.texts += texts
        return super().embed(texts)


def test_indexer_embeds_a_repeated_text_once(tmp_path: Path) -> None:
    pdf = tmp_path / "repeats.pdf"
    doc = pymupdf.open()
    body = ("The depot at Alder Creek kept its fuel cost flat through the winter, while the two coastal "
            "depots paid eleven percent more for the same diesel grade.")
    for pno in range(2):  # an unlabelled bar chart on each page: two figures whose chunk texts are the same
        page = doc.new_page()
        if pno == 0:
            page.insert_text((72, 80), "Operating notes", fontsize=16)
            page.insert_textbox(pymupdf.Rect(72, 100, 523, 200), body, fontsize=11)
        for b in range(8):
            h = 30 + (b * 17) % 90
            page.draw_rect(pymupdf.Rect(120 + b * 40, 460 - h, 145 + b * 40, 460), color=(0, 0, 0), fill=(0.3, 0.4, 0.8))
        page.draw_line((110, 460), (450, 460))
    doc.save(pdf)
    embedder = CountingEmbedder()
    settings = Settings(home=tmp_path / "home").with_overrides(**{"ingest.ocr": "off"})
    with Pagelens(settings, embedder=embedder) as app:
        [result] = app.ingest([pdf])
        assert result.status == "indexed" and result.chunks > 0, result
        chunks = app.indexer.chunks(result.doc_id)
        dense = [c.embed_text for c in chunks if c.kind not in SPARSE_ONLY_KINDS]
        assert len(dense) > len(set(dense)), "the PDF should yield a repeated chunk text"
        chunk_texts = [t for t in embedder.texts if t in set(dense)]
        assert sorted(chunk_texts) == sorted(set(dense))  # each distinct text once
        assert app.store.count(app.indexer.collection, result.doc_id) == len(chunks)  # every chunk has its point
        hits = app.search("fuel cost at the Alder Creek depot", k=5)
        assert hits and "Alder Creek" in hits[0].chunk.text


def test_parallel_streams_give_the_same_vectors(lean: LeanBertEncoder) -> None:
    import torch

    texts = real_texts() * 3
    previous = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        one = lean.embed(texts, batch_size=4, streams=1)
        two = lean.embed(texts, batch_size=4, streams=2)
    finally:
        torch.set_num_threads(previous)
    assert np.array_equal(one, two)  # each batch is computed alone, whichever thread runs it


@pytest.mark.skipif(not native_bf16(), reason="bf16 is used only where the CPU computes it natively")
def test_prepacked_weights_give_the_same_vectors(lean: LeanBertEncoder) -> None:
    if lean._fused_linear() is None or not lean._packed_weights():
        pytest.skip("this torch build cannot run or reorder oneDNN linear weights (plain weights are in use)")
    texts = real_texts()
    plain = LeanBertEncoder.load(resolve_model_path("all-MiniLM-L6-v2")[0])
    assert plain is not None
    plain.prepack = False
    assert np.array_equal(lean.embed(texts, bf16=True), plain.embed(texts, bf16=True))
    assert not plain._prepared.get("packed")  # the comparison really ran on plain weights


def test_padding_rows_change_no_vector(lean: LeanBertEncoder) -> None:
    """A batch's rows are rounded up to its bucket with pad tokens that no text attends to and no text
    pools: the same texts in a batch with more padding rows get the same vectors."""
    texts = real_texts()[:6]
    base = lean.embed(texts, batch_size=64)
    forward = lean._forward

    def more_padding(ids, lens, bf16=False):  # type: ignore[no-untyped-def]
        import torch

        padded = torch.full((ids.shape[0] + ROW_BUCKET,), lean.pad_id, dtype=ids.dtype)
        padded[: ids.shape[0]] = ids
        return forward(padded, lens, bf16)

    lean._forward = more_padding  # type: ignore[method-assign]
    try:
        padded = lean.embed(texts, batch_size=64)
    finally:
        del lean._forward
    assert np.abs(base - padded).max() < 1e-5
