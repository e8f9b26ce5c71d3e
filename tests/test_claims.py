"""ingest/claims.py answers "is this box inside a claimed region?" from plain floats where the boxes
lie apart; every answer must be the one pymupdf.Rect arithmetic gives (it decides which text lines
are body text, so any difference would change parse output)."""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import pymupdf

from pagelens.ingest.claims import area, overlaps_claim, touches_claim


def _by_rects(box: tuple, claims: list[pymupdf.Rect], min_overlap: float) -> bool:
    rect = pymupdf.Rect(box)
    size = abs(rect) or 1e-6
    return any(abs(rect & c) / size >= min_overlap for c in claims)


def _boxes(rng: random.Random, n: int) -> list[tuple[float, float, float, float]]:
    out = []
    for _ in range(n):
        x0, y0 = rng.uniform(0, 600), rng.uniform(0, 800)
        w, h = rng.choice([0.0, rng.uniform(0, 3), rng.uniform(3, 200), -rng.uniform(0, 5)]), rng.uniform(-2, 40)
        box = (x0, y0, x0 + w, y0 + h)
        # Half as MuPDF gives text boxes (float32 values), half as Python computes claims (doubles).
        out.append(tuple(array("f", box).tolist()) if rng.random() < 0.5 else box)
    return out


def test_same_answers_as_rect_arithmetic_on_random_and_edge_boxes() -> None:
    rng = random.Random(12)
    claims = [pymupdf.Rect(b) for b in _boxes(rng, 12) if b[2] > b[0] and b[3] > b[1]]
    claims.append(pymupdf.Rect(100, 100, 500, 700))  # a big claim: many boxes lie wholly inside
    boxes = _boxes(rng, 3000)
    # Boxes that end exactly on, or a rounding step beside, a claim's edge: where float32 matters.
    for c in claims:
        for d in (0.0, 1e-7, -1e-7, 1e-5, -1e-5, 0.3):
            boxes += [(c.x0 - 20, c.y0 + 1, c.x0 + d, c.y0 + 9), (c.x1 + d, c.y0, c.x1 + 30, c.y1),
                      (c.x0 + 1, c.y1 + d, c.x1 - 1, c.y1 + 12), (c.x0 + 1 / 3, c.y0 + 1 / 7, c.x1 + d, c.y1 - 1 / 9)]
    asked = 0
    for box in boxes:
        for m in (0.5, 0.01, 0.0, 1.0):
            assert overlaps_claim(box, claims, m) == _by_rects(box, claims, m), (box, m)
            asked += 1
        assert touches_claim(box, claims) == any(pymupdf.Rect(box).intersects(c) for c in claims), box
        assert area(*box) == abs(pymupdf.Rect(box))
    assert asked > 12000
    assert any(overlaps_claim(b, claims) for b in boxes) and not all(overlaps_claim(b, claims) for b in boxes)


def test_text_lines_of_a_built_page(tmp_path: Path) -> None:
    """Real line boxes (float32 from MuPDF) against a claim made of Python floats, as a table's is."""
    doc = pymupdf.open()
    page = doc.new_page()
    for i in range(30):
        page.insert_text((50 + (i % 3) * 170, 60 + i * 22), f"line {i} with some words", fontsize=10)
    doc.save(tmp_path / "lines.pdf")
    with pymupdf.open(tmp_path / "lines.pdf") as pdf:
        lines = [ln["bbox"] for b in pdf[0].get_text("dict")["blocks"] for ln in b["lines"]]
    claims = [pymupdf.Rect(48.3 + 1 / 3, 170.0 + 1 / 7, 400.1, 420.7 + 1 / 9), pymupdf.Rect(0, 600, 612, 700)]
    hits = [overlaps_claim(ln, claims) for ln in lines]
    assert hits == [_by_rects(ln, claims, 0.5) for ln in lines]
    assert 0 < sum(hits) < len(lines)
