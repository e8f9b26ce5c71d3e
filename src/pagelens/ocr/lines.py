"""Turn detector-style OCR output (text boxes without layout) into lines and blocks.

EasyOCR and RapidOCR return one quadrilateral per detected text run, with no paragraph structure.
Runs on the same baseline that nearly touch become one line; lines stacked closely with overlapping
horizontal extent become one block. Blocks are returned top to bottom, left to right, in columns
when the boxes form columns.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pagelens.ocr.protocol import OcrLine, OcrWord

Quad = Sequence[Sequence[float]]
Merged = tuple[tuple[float, float, float, float], str, float, tuple[OcrWord, ...]]
"""A line of runs: its box, text, mean confidence and the runs as words."""


def quad_to_box(points: Quad) -> tuple[float, float, float, float]:
    xs = [float(p[0]) for p in points]
    ys = [float(p[1]) for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def group_runs(runs: Iterable[tuple[Quad, str, float]]) -> list[OcrLine]:
    """``runs`` are (quad points, text, confidence 0..1) in any order."""
    items = [(quad_to_box(q), str(t).strip(), float(c)) for q, t, c in runs if str(t).strip()]
    items.sort(key=lambda it: (it[0][1], it[0][0]))
    lines: list[list[tuple[tuple[float, float, float, float], str, float]]] = []
    for it in items:
        for line in lines:
            if _same_line(line[-1][0], it[0]):
                line.append(it)
                break
        else:
            lines.append([it])
    merged: list[Merged] = []
    for line in lines:
        line.sort(key=lambda it: it[0][0])
        box = (
            min(b[0][0] for b in line), min(b[0][1] for b in line),
            max(b[0][2] for b in line), max(b[0][3] for b in line),
        )
        text = " ".join(b[1] for b in line)
        conf = sum(b[2] for b in line) / len(line)
        merged.append((box, text, conf, tuple(OcrWord(b[1], b[0], round(b[2], 3)) for b in line)))
    return _blocks(merged)


def _same_line(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    ha, hb = a[3] - a[1], b[3] - b[1]
    overlap = min(a[3], b[3]) - max(a[1], b[1])
    if overlap < 0.5 * min(ha, hb):
        return False
    gap = max(a[0], b[0]) - min(a[2], b[2])
    return gap < 1.5 * max(ha, hb)


def _blocks(lines: list[Merged]) -> list[OcrLine]:
    lines.sort(key=lambda it: (it[0][1], it[0][0]))
    blocks: list[list[Merged]] = []
    for ln in lines:
        box = ln[0]
        h = box[3] - box[1]
        for blk in blocks:
            last = blk[-1][0]
            gap = box[1] - last[3]
            x_overlap = min(box[2], last[2]) - max(box[0], last[0])
            if -0.5 * h <= gap < 0.9 * h and x_overlap > 0 and abs(box[0] - last[0]) < 4 * h:
                blk.append(ln)
                break
        else:
            blocks.append([ln])
    blocks.sort(key=_block_order_key(blocks))
    out: list[OcrLine] = []
    for i, blk in enumerate(blocks):
        for box, text, conf, words in blk:
            out.append(OcrLine(text, box, round(conf, 3), i, words))
    return out


def _block_order_key(blocks: list[list[Merged]]):
    """Column-aware order: a block belongs to the column band its left edge starts in."""
    if not blocks:
        return lambda blk: 0
    right = max(ln[0][2] for blk in blocks for ln in blk) or 1.0
    lefts = sorted(blk[0][0][0] for blk in blocks)
    # A new column starts where block left edges jump by more than a fifth of the image width.
    starts = [lefts[0]]
    for x in lefts[1:]:
        if x - starts[-1] > right / 5:
            starts.append(x)

    def key(blk: list[Merged]) -> tuple[int, float]:
        x0 = blk[0][0][0]
        width = max(ln[0][2] for ln in blk) - x0
        col = max(i for i, s in enumerate(starts) if s <= x0 + 1e-6)
        # A block spanning most of the width (a title, a full-width paragraph) reads in column 0.
        if width > 0.6 * right:
            col = 0
        return (col, blk[0][0][1])

    return key
