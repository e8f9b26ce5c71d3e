"""Display-equation detection on text-layer lines.

A line is mathematical when most of its glyphs come from math fonts (TeX's CMMI/CMSY/CMEX, Symbol,
STIX, Cambria Math...) or when operators, Greek letters and sub/superscripts outweigh words. Runs of
such lines that stand on their own become one FORMULA element (see ``text.extract_text``).

TeX documents embedded without a ToUnicode map garble some Greek letters in CMMI fonts (adam.pdf:
α→"↵", ε→"✏", θ→"✓"); ``fix_math_glyphs`` maps those three back, only for spans in math fonts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from pagelens.models import Element, ElementKind

MATH_FONT = re.compile(
    r"^(?:[A-Z]{6}\+)?(?:CM(?:MI|SY|EX|BSY|MIB)|MSAM|MSBM|EUFM|EUSM|RSFS|ESINT|STIX|XITS|LMMATH|"
    r"LATINMODERNMATH|ASANA|EUCLID|SYMBOL|MTSY|MTEX|RTXMI|TXSY|PXSY|TXMI|PXMI|NEWTXMATH|.*MATH)",
    re.IGNORECASE,
)
"""Fonts whose glyphs are (nearly) always mathematics."""

MATH_ROMAN = re.compile(r"^(?:[A-Z]{6}\+)?(?:CMR\d|CMBX\d|LMROMAN\d)", re.IGNORECASE)
"""TeX roman fonts: digits and brackets inside formulas, but also ordinary text in some papers."""

MATH_CHARS = frozenset("=+−±×÷·∑∏∫∮√∂∇∆≤≥≈≠≡∝∞←→↔⇒⇐⇔∈∉⊂⊆⊃⊇∪∩∀∃∧∨⊙⊗⊕‖|^_∼≪≫′⟨⟩") | frozenset("↵✏✓")
GARBLED_GREEK = {"↵": "α", "✏": "ε", "✓": "θ"}
_MATH_CHAR = re.compile("[" + re.escape("".join(sorted(MATH_CHARS))) + "\u0370-\u03ff]")
EQUATION_NUMBER = re.compile(r"\(\s*\d{1,3}(?:\.\d{1,3})?[a-z]?\s*\)\s*$")
_WORD = re.compile(r"[A-Za-z]{3,}")


@functools.lru_cache(maxsize=512)
def is_math_font(font: str) -> bool:
    return bool(MATH_FONT.match(font))


def fix_math_glyphs(text: str, font: str) -> str:
    """Undo the α/ε/θ garbling of TeX math fonts (only in math fonts, where ✓ cannot be a tick)."""
    if is_math_font(font) and any(c in text for c in GARBLED_GREEK):
        return "".join(GARBLED_GREEK.get(c, c) for c in text)
    return text


Span = tuple[str, str, float, int]
"""(text, font, size, flags) of one text-layer span."""


def line_math_score(spans: Sequence[Span], body_size: float) -> tuple[float, int]:
    """(fraction of non-space glyphs that look mathematical, number of prose words) for one line.

    Glyphs count as mathematical when set in a math font, when they are operators or Greek letters,
    or when they are set in a script size (sub/superscripts) next to math.
    """
    math = total = words = 0
    has_math_font = any(is_math_font(s[1]) for s in spans)
    for t, font, size, _flags in spans:
        n = sum(1 for c in t if not c.isspace())
        if not n:
            continue
        total += n
        if is_math_font(font) or (has_math_font and MATH_ROMAN.match(font)):
            math += n
            continue
        small = size < 0.8 * body_size
        if small and has_math_font:
            math += n
            continue
        math += len(_MATH_CHAR.findall(t))
        words += len(_WORD.findall(t))
    return (math / total if total else 0.0), words


def is_formula_line(spans: Sequence[Span], text: str, body_size: float) -> bool:
    """A line that is (mostly) an equation rather than prose with an inline symbol."""
    if not _MATH_CHAR.search(text) and not any(is_math_font(s[1]) for s in spans):
        return False  # plain prose: the common case, decided without counting
    core = EQUATION_NUMBER.sub("", text).strip()
    if len(core.replace(" ", "")) < 3:
        return False
    frac, words = line_math_score(spans, body_size)
    if words > 4:
        return False
    has_operator = any(c in MATH_CHARS for c in core)
    if frac >= 0.6 and (has_operator or words == 0):
        return True
    # Plain-font equations (Word, Symbol-less LaTeX): operators and short tokens, almost no words.
    ops = len(_MATH_CHAR.findall(core))
    return ops >= 2 and words <= 1 and "=" in core


def has_equation_number(text: str) -> bool:
    return bool(EQUATION_NUMBER.search(text))


def _is_fragment(e: Element) -> bool:
    """Short text pieces a display equation leaves behind: "(8)", a radical sign, "X t", "i=1"."""
    if e.kind == ElementKind.FORMULA:
        return True
    return e.kind == ElementKind.TEXT and (len(e.text) <= 14 or bool(EQUATION_NUMBER.fullmatch(e.text)))


def merge_fragments(els: list[Element], body_size: float) -> list[Element]:
    """Join FORMULA elements with the fragments around them into one element per display equation.

    TeX splits a display equation into many positioned pieces (limits, radicals, stacked scripts,
    the equation number); PyMuPDF returns them as separate blocks. Pieces whose boxes, padded by
    about a character, touch a formula are merged with it.
    """
    if not any(e.kind == ElementKind.FORMULA for e in els):
        return els
    cand = [i for i, e in enumerate(els) if _is_fragment(e) and e.bbox is not None]
    pad_x, pad_y = 1.5 * body_size, 0.4 * body_size
    parent = {i: i for i in cand}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    boxes = {i: els[i].bbox for i in cand}
    numbers = {i for i in cand if EQUATION_NUMBER.fullmatch(els[i].text)}
    for a_pos, a in enumerate(cand):
        ax0, ay0, ax1, ay1 = boxes[a]  # type: ignore[misc]
        for b in cand[a_pos + 1 :]:
            bx0, by0, bx1, by1 = boxes[b]  # type: ignore[misc]
            if (a in numbers) != (b in numbers):
                # An equation number sits at the right margin on the equation's middle line.
                (nx0, ny0, _nx1, ny1), (fx0, fy0, fx1, fy1) = (boxes[a], boxes[b]) if a in numbers else (boxes[b], boxes[a])  # type: ignore[misc]
                touch = nx0 >= fx1 - 1 and fy0 <= (ny0 + ny1) / 2 <= fy1
            else:
                touch = bx0 - pad_x <= ax1 and ax0 <= bx1 + pad_x and by0 - pad_y <= ay1 and ay0 <= by1 + pad_y
            if touch:
                parent[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for i in cand:
        groups.setdefault(find(i), []).append(i)
    drop: set[int] = set()
    for members in groups.values():
        if len(members) < 2 or not any(els[i].kind == ElementKind.FORMULA for i in members):
            continue
        parts = sorted(members, key=lambda i: (els[i].bbox[1] + els[i].bbox[3]) / 2)  # type: ignore[index]
        lines: list[list[int]] = []
        for i in parts:
            yc = (els[i].bbox[1] + els[i].bbox[3]) / 2  # type: ignore[index]
            last = lines[-1][-1] if lines else None
            if last is not None and abs(yc - (els[last].bbox[1] + els[last].bbox[3]) / 2) < 0.6 * body_size:  # type: ignore[index]
                lines[-1].append(i)
            else:
                lines.append([i])
        text = "\n".join(" ".join(els[i].text for i in sorted(ln, key=lambda i: els[i].bbox[0])) for ln in lines)  # type: ignore[index]
        head = members[0]
        boxes_m = [els[i].bbox for i in members]
        els[head] = els[head].model_copy(
            update={
                "kind": ElementKind.FORMULA,
                "text": text,
                "level": None,
                "bbox": (
                    min(b[0] for b in boxes_m), min(b[1] for b in boxes_m),  # type: ignore[index]
                    max(b[2] for b in boxes_m), max(b[3] for b in boxes_m),  # type: ignore[index]
                ),
            }
        )
        numbers = EQUATION_NUMBER.findall(text)
        if numbers:
            els[head].attrs = {**els[head].attrs, "equation_number": numbers[-1].strip()}
        drop.update(members[1:])
    return [e for i, e in enumerate(els) if i not in drop]
