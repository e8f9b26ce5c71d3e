"""Body text from the text layer: paragraphs, list items, headings, captions, footnotes, formulas,
running headers/footers and page numbers.

Works on ``ctx.text`` (``get_text("dict")``, computed once per page). Per PyMuPDF block, lines that
share a baseline are merged into rows; rows are cut into segments where the style changes (size,
bold, a bullet, a caption label, an equation, a gap, a side-by-side jump), and each segment becomes
one typed element. Spans inside regions claimed by tables and figures are skipped. SEC filing
structure (PART/Item headings, overprinted fake-bold text) is read by ``filing``; a label and the amounts
set on its line are joined into one ``label: values`` line by ``label_values``.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


from pagelens.ingest import filing, formulas
from pagelens.ingest.claims import touches_claim
from pagelens.ingest.context import PageContext
from pagelens.ingest.furniture import BAND, is_page_number, normalize
from pagelens.ingest.label_values import join_label_values
from pagelens.models import Element, ElementKind

BULLETS = frozenset("•◦▪▫‣⁃∙·●○■□►▶➢➤❖◆◇♦–—\ufffd\uf0b7\uf0a7\uf0d8\uf076\uf0fc")
_DINGBAT_FONT = re.compile(r"wingding|dingbat|symbol|bookmaster", re.IGNORECASE)
_ENUM = re.compile(r"^(?:\(?\d{1,2}[.)]|\(?[a-z][.)]|\([ivx]{1,4}\)|[ivx]{1,4}\.)\s+\S")
CAPTION_LABEL = r"(?:figure|fig\.?|table|tab\.|algorithm|listing|chart|exhibit|scheme|plate)"
_CAPTION_STRICT = re.compile(CAPTION_LABEL + r"\s*(?:\d+|[A-Z]|[IVXL]+)(?:[.\-–]\d+)*[a-z]?\s*[:.|—–]", re.I)
_CAPTION_LOOSE = re.compile(CAPTION_LABEL + r"\s*\d+(?:[.\-–]\d+)*[a-z]?\s+\S", re.I)
NUMBERED_HEADING = re.compile(
    r"^(?:(?P<kw>chapter|section|part|appendix)\s+)?"
    r"(?P<num>\d{1,2}(?:\.\d{1,2}){0,4}|[A-Z](?:\.\d{1,2}){1,4}|[A-Z](?=\s*[.:]))\.?:?\s+(?P<title>\S.*)$",
    re.IGNORECASE,
)
_BOLD_FONT = re.compile(r"bold|medi|black|heavy|semibold|demi", re.IGNORECASE)
_ITALIC_FONT = re.compile(r"italic|oblique|ital", re.IGNORECASE)
_SPACES = re.compile(r"\s+")


@functools.lru_cache(maxsize=512)
def _font_style(font: str) -> tuple[bool, bool]:
    """(bold, italic) judged from the font name, for fonts whose flags do not say."""
    return bool(_BOLD_FONT.search(font)), bool(_ITALIC_FONT.search(font))


@dataclass
class Row:
    """Lines of one block that sit on the same baseline, left to right."""

    x0: float
    y0: float
    x1: float
    y1: float
    parts: list[tuple[float, list[tuple[str, str, float, int]]]] = field(default_factory=list)
    rotated: bool = False
    top: float = 0.0  # nominal extent of the first line, from its baseline
    bot: float = 0.0
    text: str = ""
    part_texts: list[str] = field(default_factory=list)
    spans: list[tuple[str, str, float, int]] = field(default_factory=list)  # (text, font, size, flags)
    size: float = 0.0
    bold: float = 0.0
    italic: float = 0.0
    formula: bool = False
    furniture: ElementKind | None = None
    marked: bool = False  # a drawn bullet (a small filled shape) sits just left of the row (``_mark_drawn_bullets``)

    @property
    def h(self) -> float:
        return self.y1 - self.y0

    def add(self, bbox: tuple[float, float, float, float], spans: list[tuple[str, str, float, int]]) -> None:
        self.x0, self.y0 = min(self.x0, bbox[0]), min(self.y0, bbox[1])
        self.x1, self.y1 = max(self.x1, bbox[2]), max(self.y1, bbox[3])
        self.parts.append((bbox[0], spans))

    def finish(self) -> None:
        self.parts.sort(key=lambda p: p[0])
        texts: list[str] = []
        sizes: Counter[float] = Counter()
        bold = italic = total = 0
        for _x, spans in self.parts:
            texts.append("".join(s[0] for s in spans))
            for t, font, size, flags in spans:
                n = len(t.strip())
                total += n
                sizes[round(size, 1)] += n
                is_bold, is_italic = _font_style(font)
                if flags & 16 or is_bold:
                    bold += n
                if flags & 2 or is_italic:
                    italic += n
            self.spans.extend(spans)
        self.part_texts = [t.strip() for t in texts if t.strip()]
        self.text = _SPACES.sub(" ", " ".join(texts)).strip()
        self.size = sizes.most_common(1)[0][0] if sizes else 0.0
        self.bold = bold / total if total else 0.0
        self.italic = italic / total if total else 0.0


def _block_rows(ctx: PageContext, block: dict[str, Any]) -> list[Row]:
    rows: list[Row] = []
    check = bool(ctx.claimed)
    for line in block["lines"]:
        lb = line["bbox"]
        if check:
            if ctx.is_claimed(lb):
                continue
            partial = touches_claim(lb, ctx.claimed)
        else:
            partial = False
        spans = []
        for s in line["spans"]:
            t = s["text"]
            if not t or (partial and ctx.is_claimed(s["bbox"])):
                continue
            spans.append((formulas.fix_math_glyphs(t, s["font"]), s["font"], s["size"], s["flags"]))
        if not spans or not any(s[0].strip() for s in spans):
            continue
        bbox = tuple(lb)
        big = max(line["spans"], key=lambda s: s["size"])
        size, base = big["size"], big["origin"][1]
        # Nominal extent from the baseline: tall glyphs (radicals, big operators) and stacked
        # scripts must not glue rows together.
        top, bot = base - 0.75 * size, base + 0.25 * size
        rotated = abs(line["dir"][1]) > 0.5
        for r in reversed(rows[-4:]):
            overlap = min(r.bot, bot) - max(r.top, top)
            near = bbox[0] - r.x1 < 2.5 * size and r.x0 - bbox[2] < 2.5 * size
            if not rotated and not r.rotated and near and overlap >= 0.5 * min(r.bot - r.top, bot - top):
                r.add(bbox, spans)
                break
        else:
            row = Row(*bbox, rotated=rotated, top=top, bot=bot)
            row.add(bbox, spans)
            rows.append(row)
    for r in rows:
        r.finish()
    return [r for r in rows if r.text]


def body_size(rows: list[Row]) -> float:
    """Dominant font size of the page, weighted by characters."""
    sizes: Counter[float] = Counter()
    for r in rows:
        for t, _f, size, _fl in r.spans:
            sizes[round(size * 2) / 2] += len(t)
    return sizes.most_common(1)[0][0] if sizes else 10.0


def _bullet(row: Row) -> bool:
    if row.marked:
        return True
    first = row.spans[0]
    head = row.text[:1]
    if head in BULLETS or unicodedata.category(head) == "Co":
        return len(row.text) > 2
    if head in "-*" and row.text[1:2] == " ":
        return True
    lone = first[0].strip()
    return len(lone) == 1 and bool(_DINGBAT_FONT.search(first[1])) and len(row.text) > 2


def _item_start(row: Row) -> bool:
    return _bullet(row) or bool(_ENUM.match(row.text))


def _caption_start(row: Row, body: float) -> bool:
    if _CAPTION_STRICT.match(row.text):
        return True
    styled = row.italic >= 0.5 or row.bold >= 0.3 or row.size <= 0.95 * body
    return styled and bool(_CAPTION_LOOSE.match(row.text))


def _is_furniture_row(row: Row, running: set[str]) -> bool:
    """A page number, a running string, or a running string and a page number side by side."""
    if is_page_number(row.text) or normalize(row.text) in running:
        return True
    parts = row.part_texts
    if len(parts) < 2:
        return False
    if all(is_page_number(p) or normalize(p) in running for p in parts):
        return True  # "Acme Corporation ... 2023 Form 10-K" merged into one row
    for number, rest in ((parts[0], parts[1:]), (parts[-1], parts[:-1])):
        if is_page_number(number):
            other = normalize(" ".join(rest))
            if other in running or other.startswith(("chapter", "section", "part", "appendix")):
                return True
    return False


def _mark_furniture(ctx: PageContext, rows_by_block: list[list[Row]]) -> None:
    rect = ctx.page.rect
    top, bottom = rect.y0 + BAND * rect.height, rect.y1 - BAND * rect.height
    for rows in rows_by_block:
        band = [r for r in rows if r.y1 <= top or r.y0 >= bottom]
        if not band:
            continue
        hit = any(_is_furniture_row(r, ctx.furniture) for r in band)
        for r in band if hit else []:
            # A band block holding a page number or a running string is furniture as a whole
            # ("Chapter 2. Roles ... 11" footers).
            r.furniture = ElementKind.PAGE_HEADER if r.y1 <= top else ElementKind.PAGE_FOOTER


def _mark_drawn_bullets(ctx: PageContext, rows: list[Row]) -> None:
    """Rows that open a list item marked by a drawing, not a glyph: beamer's triangles and discs,
    PowerPoint's shapes. A small filled shape (at most the row's height, at least a point) whose middle
    is level with the row's and that ends less than two of the row's heights before the row starts is
    its bullet; the item is then one of its own, not a line of the paragraph above."""
    marks = []
    for d in ctx.drawings:
        if d.get("fill") is None:
            continue
        x0, y0, x1, y1 = d["rect"]
        marks.append((x0, y0, x1, y1))
    if not marks or len(marks) > 200:
        return
    for r in rows:
        h = r.bot - r.top
        if r.furniture is not None or h <= 0:
            continue
        mid = (r.top + r.bot) / 2
        for x0, y0, x1, y1 in marks:
            w, t = x1 - x0, y1 - y0
            if 1.0 <= w <= h and 1.0 <= t <= h and abs((y0 + y1) / 2 - mid) <= 0.35 * h and 0 <= r.x0 - x1 <= 2 * h:
                r.marked = True
                break


def _mark_formulas(rows: list[Row], body: float) -> None:
    """Flag display equations: math rows that stand apart from the prose around them.

    A run of math rows counts when it fills its block, carries an equation number "(3)", or is
    indented/centred; a math row flush with the paragraph's left edge is the paragraph's tail.
    """
    for r in rows:
        r.formula = formulas.is_formula_line(r.spans, r.text, body)
    left = min(r.x0 for r in rows)
    numbers = [r for r in rows if formulas.EQUATION_NUMBER.fullmatch(r.text)]
    i = 0
    while i < len(rows):
        if not rows[i].formula:
            i += 1
            continue
        j = i
        while j < len(rows) and rows[j].formula:
            j += 1
        run = rows[i:j]
        keep = (
            len(run) + len(numbers) == len(rows)
            or any(formulas.has_equation_number(r.text) for r in run)
            or any(abs(n.top - r.top) < body for n in numbers for r in run)
            or min(r.x0 for r in run) > left + 1.5 * body
        )
        for r in run:
            r.formula = keep
        i = j


def _breaks(prev: Row, row: Row, body: float) -> bool:
    if row.rotated or prev.rotated or row.furniture != prev.furniture or row.formula != prev.formula:
        return True
    if row.x0 > prev.x1 or row.x1 < prev.x0 or row.y0 - prev.y1 > 0.9 * max(prev.h, row.h):
        return True
    if abs(row.size - prev.size) > 0.9 or (row.bold >= 0.85) != (prev.bold >= 0.85):
        return True
    if filing.cuts_between(prev.text, row.text, prev_short=row.x1 - prev.x1 > body):
        return True
    return _item_start(row) or _caption_start(row, body)


def _join(rows: list[Row]) -> str:
    out = ""
    for r in rows:
        t = r.text
        if not out:
            out = t
        elif out.endswith("-") and out[-2:-1].isalpha() and t[:1].islower():
            last = out.rsplit(" ", 1)[-1]
            out = out + t if last.count("-") > 1 else out[:-1] + t  # keep "left-to-right" hyphens
        else:
            out += " " + t
    return out


def _heading_level(rows: list[Row], text: str, body: float, whole_block: bool) -> int | None:
    """Heading level of a segment, or None when it reads as ordinary text."""
    if len(rows) > 3 or len(text) > 160 or not (text[:1].isupper() or text[:1].isdigit()):
        return None
    words = len(text.split())
    if text.endswith((",", ";")) or (text.endswith(".") and words > 8):
        return None
    letters = [c for c in text if c.isalpha()]
    if len(letters) < 2:
        return None
    size = max(r.size for r in rows)
    bold = sum(r.bold for r in rows) / len(rows)
    m = NUMBERED_HEADING.match(text)
    upper = sum(c.isupper() for c in letters) / len(letters)
    if size >= 1.15 * body or (bold >= 0.85 and size >= 0.95 * body and words <= 20):
        pass
    elif not (m and whole_block and len(rows) == 1 and words <= 12 and upper >= 0.6):
        return None
    if m:
        kw = (m.group("kw") or "").lower()
        if kw in ("chapter", "part"):
            return 1
        return m.group("num").count(".") + 1
    ratio = size / body
    return 1 if ratio >= 1.6 else 2 if ratio >= 1.25 else 3


def _footnote(rows: list[Row], text: str, body: float, page_h: float, top: float) -> bool:
    size = max(r.size for r in rows)
    if size > 0.9 * body or rows[0].y0 < top + 0.6 * page_h:
        return False
    first = rows[0].spans[0]
    mark = first[0].strip()
    superscript = bool(first[3] & 1) or (0 < len(mark) <= 3 and first[2] < 0.8 * rows[0].size)
    return superscript or (len(text) >= 50 and rows[0].y0 >= top + 0.75 * page_h)


def _classify(
    ctx: PageContext, rows: list[Row], body: float, whole_block: bool
) -> tuple[ElementKind, str, int | None, bool]:
    """Kind, text and heading level of a segment, and whether ``filing`` read it as a PART/Item heading."""
    first = rows[0]
    if first.furniture is not None:
        return first.furniture, " ".join(r.text for r in rows), None, False
    if first.formula:
        return ElementKind.FORMULA, " ".join(r.text for r in rows), None, False
    text = _join(rows)
    if first.rotated:
        return ElementKind.TEXT, text, None, False
    if _caption_start(first, body):
        return ElementKind.CAPTION, text, None, False
    rect = ctx.page.rect
    if _footnote(rows, text, body, rect.height, rect.y0):
        return ElementKind.FOOTNOTE, text, None, False
    if _bullet(first):
        mark = first.spans[0][0].strip()
        rest = text[len(mark):].strip() if text.startswith(mark) else ""
        if rest and (level := filing.heading_level(rows, rest, body, whole_block)):  # "● PART II", a dingbat
            return ElementKind.HEADING, rest, level, True
        return ElementKind.LIST_ITEM, text[1:].strip() if not first.text[:1].isalnum() else text, None, False
    level = filing.heading_level(rows, text, body, whole_block)
    if level is not None:
        return ElementKind.HEADING, text, level, True
    level = _heading_level(rows, text, body, whole_block)
    if level is not None:
        return ElementKind.HEADING, text, level, False
    if _ENUM.match(first.text):
        return ElementKind.LIST_ITEM, text, None, False
    return ElementKind.TEXT, text, None, False


def extract_text(ctx: PageContext) -> list[Element]:
    """Typed text elements of one page (reading order is set later by ``order.reading_order``)."""
    filing.dedupe_overprint(ctx.text)
    rows_by_block = [
        rows for b in ctx.text.get("blocks", []) if b.get("type") == 0 and (rows := _block_rows(ctx, b))
    ]
    all_rows = [r for rows in rows_by_block for r in rows]
    if not all_rows:
        return []
    body = body_size(all_rows)
    for rows in rows_by_block:
        _mark_formulas(rows, body)
    _mark_furniture(ctx, rows_by_block)
    _mark_drawn_bullets(ctx, all_rows)
    out: list[Element] = []
    for rows in rows_by_block:
        segments: list[list[Row]] = []
        for r in rows:
            if segments and not _breaks(segments[-1][-1], r, body):
                segments[-1].append(r)
            else:
                segments.append([r])
        for seg in segments:
            kind, text, level, filing_heading = _classify(ctx, seg, body, whole_block=len(segments) == 1)
            if not text:
                continue
            bbox = (min(r.x0 for r in seg), min(r.y0 for r in seg), max(r.x1 for r in seg), max(r.y1 for r in seg))
            attrs: dict[str, Any] = {"size": round(max(r.size for r in seg), 1)}
            if sum(r.bold for r in seg) / len(seg) >= 0.85:
                attrs["bold"] = True
            if seg[0].rotated:
                attrs["rotated"] = True
            if kind in (ElementKind.PAGE_HEADER, ElementKind.PAGE_FOOTER) and ctx.page.rect.width > ctx.page.rect.height:
                attrs["landscape"] = True  # a slide's footer: the deck's short title and speaker (``Chunk.running``)
            if filing_heading:
                attrs["numbered"] = attrs["filing"] = True
            elif kind == ElementKind.HEADING and NUMBERED_HEADING.match(text):
                attrs["numbered"] = True
            if kind == ElementKind.FORMULA and formulas.has_equation_number(text):
                attrs["equation_number"] = formulas.EQUATION_NUMBER.search(text).group(0).strip()  # type: ignore[union-attr]
            out.append(
                Element(
                    doc_id=ctx.doc_id, page=ctx.page_no, order=0, kind=kind, text=text, bbox=bbox,
                    level=level, parser="pymupdf", attrs=attrs,
                )
            )
    return join_label_values(formulas.merge_fragments(filing.join_split_headings(out), body))
