"""Page layout helpers for the built PDFs: line breaking, columns, booktabs tables, captions."""

from __future__ import annotations

import pymupdf

W, H = 612, 792
LEFT, RIGHT = (54, 297), (315, 558)
BODY = 10.0


def wrap(text: str, width: float, size: float = BODY, font: str = "tiro") -> list[str]:
    """Greedy line breaking; a "|" forces a line break (used to end a line on a hyphen)."""
    lines: list[str] = []
    for segment in text.split("|"):
        line = ""
        for word in segment.split():
            trial = f"{line} {word}".strip()
            if line and pymupdf.get_text_length(trial, fontname=font, fontsize=size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        if line:
            lines.append(line)
    return lines


class Column:
    """Writes headings and paragraphs top-down into one column of a page."""

    def __init__(self, page: pymupdf.Page, span: tuple[float, float], y: float) -> None:
        self.page, (self.x0, self.x1), self.y = page, span, y

    def para(self, text: str, size: float = BODY, font: str = "tiro", after: float = 6) -> float:
        top = self.y
        for line in wrap(text, self.x1 - self.x0, size, font):
            self.y += size * 1.2
            if all(ord(c) < 256 for c in line):
                self.page.insert_text((self.x0, self.y), line, fontname=font, fontsize=size)
            else:  # curly quotes and the like: insert_text's base-14 fonts are Latin-1 only
                tw = pymupdf.TextWriter(self.page.rect)
                tw.append((self.x0, self.y), line, font=pymupdf.Font(font), fontsize=size)
                tw.write_text(self.page)
        self.y += after
        return top

    def heading(self, text: str, size: float = 12) -> None:
        self.y += 6
        self.para(text, size=size, font="tibo", after=4)

    def skip(self, to: float) -> None:
        self.y = to


def lorem(topic: str, n: int) -> str:
    """Plain filler sentences about ``topic`` (enough running text for a realistic page)."""
    sentences = [
        f"We describe how {topic} behaves when the amount of training data changes.",
        "The results are averaged over five random restarts with different seeds.",
        f"Each experiment on {topic} uses the same optimiser settings and the same batch size.",
        "Longer training helps most on the smallest tasks, where the variance between runs is large.",
        "We report the median of the runs to reduce the effect of unlucky initialisations.",
        "All models are trained on the same hardware and read the same tokenised text.",
    ]
    return " ".join(sentences[i % len(sentences)] for i in range(n))


def booktabs(page: pymupdf.Page, x0: float, y: float, cols: list[float], rows: list[list[str]],
             size: float = 8, header_rows: int = 1, x1: float | None = None) -> float:
    """A booktabs table (top, mid and bottom rules, no vertical lines); ``cols`` are x offsets from
    ``x0``. A cell "NAME_SUB" is set as NAME with SUB as a smaller subscript. Returns the bottom y."""
    right = x1 if x1 is not None else x0 + cols[-1] + 60
    step = size * 1.5
    page.draw_line((x0, y), (right, y), width=0.8)
    y += 2
    for i, row in enumerate(rows):
        y += step
        for cx, cell in zip(cols, row):
            if "_" in cell:
                name, sub = cell.split("_", 1)
                page.insert_text((x0 + cx, y), name, fontname="tiro", fontsize=size)
                dx = pymupdf.get_text_length(name, fontname="tiro", fontsize=size)
                page.insert_text((x0 + cx + dx, y + 1.5), sub, fontname="tiro", fontsize=size * 0.7)
            else:
                page.insert_text((x0 + cx, y), cell, fontname="tiro", fontsize=size)
        if i == header_rows - 1:
            page.draw_line((x0, y + 4), (right, y + 4), width=0.5)
            y += 2
    y += 5
    page.draw_line((x0, y), (right, y), width=0.8)
    return y


def caption(page: pymupdf.Page, span: tuple[float, float], y: float, text: str, size: float = 9) -> float:
    col = Column(page, span, y)
    col.para(text, size=size, after=0)
    return col.y


def grid_table(
    page: pymupdf.Page, top: float, rows: list[list[str]], caption: str | None = None,
    x0: float = 72, widths: tuple[float, ...] = (140, 90, 90), row_h: float = 18,
) -> None:
    """A fully ruled table (every row and column line drawn), its caption 8 pt above it."""
    if caption:
        page.insert_text((x0, top - 8), caption, fontsize=9)
    xs = [x0]
    for w in widths:
        xs.append(xs[-1] + w)
    for i in range(len(rows) + 1):
        page.draw_line((xs[0], top + i * row_h), (xs[-1], top + i * row_h), width=0.6)
    for x in xs:
        page.draw_line((x, top), (x, top + len(rows) * row_h), width=0.6)
    for i, row in enumerate(rows):
        for j, cell in enumerate(row):
            page.insert_text((xs[j] + 4, top + i * row_h + 12), cell, fontsize=9)
