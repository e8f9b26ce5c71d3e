"""The SOLVE paper: running header, page numbers, TeX-font formulas, charts with path legends."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from .layout import H, W, Column, caption, lorem

# -- the math paper ------------------------------------------------------------------------------------
RUNNING_HEADER = "Published as a workshop paper at LEARN 2025"
LEGEND = ("AdaDelta", "Momentum")


def _text_as_paths(text: str, size: float = 14) -> pymupdf.Document:
    """A one-line PDF whose glyphs are vector paths (no text layer), via PyMuPDF's SVG output."""
    width = pymupdf.get_text_length(text, fontname="helv", fontsize=size) + 10
    with pymupdf.open() as tmp:
        page = tmp.new_page(width=width, height=size * 1.6)
        page.insert_text((5, size * 1.2), text, fontname="helv", fontsize=size)
        svg = page.get_svg_image(text_as_path=True)
    with pymupdf.open("svg", svg.encode()) as vec:
        return pymupdf.open("pdf", vec.convert_to_pdf())


def _math_line(page: pymupdf.Page, at: tuple[float, float], text: str, size: float = 11) -> None:
    """Set ``text`` in fonts renamed to TeX math fonts (CMMI10, CMSY10...), whose text layer writes
    α, ε, θ as "↵", "✏", "✓" — what a TeX PDF without ToUnicode maps gives."""
    before = {f[0] for f in page.get_fonts()}
    tw = pymupdf.TextWriter(page.rect)
    tw.append(at, text, font=pymupdf.Font("cjk"), fontsize=size)
    tw.write_text(page)
    doc = page.parent
    for n, (xref, *_rest) in enumerate(f for f in page.get_fonts() if f[0] not in before):
        name = f"/ABCDEF+{('CMMI10', 'CMSY10', 'CMEX10')[n % 3]}"
        doc.xref_set_key(xref, "BaseFont", name)
        for kid in (int(r.split()[0]) for r in doc.xref_get_key(xref, "DescendantFonts")[1].strip("[]").split(" R") if r.strip()):
            doc.xref_set_key(kid, "BaseFont", name)
            desc = doc.xref_get_key(kid, "FontDescriptor")[1]
            if desc.endswith(" R"):
                doc.xref_set_key(int(desc.split()[0]), "FontName", name)


def _chart(page: pymupdf.Page, box: pymupdf.Rect, seed: int) -> None:
    """A line chart: axes, ticks, two curves and a legend whose words are paths."""
    page.draw_line(box.bl, box.tl, width=0.7)
    page.draw_line(box.bl, box.br, width=0.7)
    for i in range(1, 6):
        y = box.y1 - i * box.height / 6
        page.draw_line((box.x0 - 3, y), (box.x0, y), width=0.5)
        x = box.x0 + i * box.width / 6
        page.draw_line((x, box.y1), (x, box.y1 + 3), width=0.5)
    for c, color in enumerate(((0.8, 0.1, 0.1), (0.1, 0.2, 0.8))):
        pts = [pymupdf.Point(box.x0 + 4 + k * (box.width - 8) / 30,
                             box.y0 + 10 + (box.height - 20) * (1 - 1 / (1 + 0.1 * (k + 1) * (c + 1 + seed)))) for k in range(31)]
        page.draw_polyline(pts, color=color, width=1.0)
    for i, word in enumerate(LEGEND):
        label = _text_as_paths(word)
        r = pymupdf.Rect(box.x1 - 95, box.y0 + 8 + i * 22, box.x1 - 5, box.y0 + 8 + i * 22 + 20)
        page.show_pdf_page(r, label, 0, keep_proportion=True)


def math_pdf(path: Path | None = None) -> bytes:
    """Four pages: running header and page numbers on each; formulas on pages 2 and 3; two vector
    charts (legends as paths) with Figure 3's caption on page 4."""
    doc = pymupdf.open()

    def page_with_furniture(n: int) -> pymupdf.Page:
        page = doc.new_page(width=W, height=H)
        page.insert_text((200, 40), RUNNING_HEADER, fontname="tiro", fontsize=9)
        page.insert_text((302, 765), str(n), fontname="tiro", fontsize=10)
        return page

    body = (108, 504)
    p = page_with_furniture(1)
    p.insert_text((150, 100), "SOLVE: A Method for Stochastic Optimisation", fontname="tibo", fontsize=16)
    c = Column(p, body, 140)
    c.heading("Abstract")
    c.para("We introduce SOLVE, an algorithm for first-order gradient-based optimisation of stochastic "
           "objective functions, based on adaptive estimates of lower-order moments. " + lorem("the optimiser", 6))
    c.heading("1 Introduction")
    c.para(lorem("stochastic gradients", 16))

    p = page_with_furniture(2)
    c = Column(p, body, 60)
    c.heading("2 Algorithm")
    c.para("The update keeps exponential moving averages of the gradient and of its square. The moving "
           "averages are initialised as vectors of zeros, which biases them towards zero; the bias is "
           "corrected before the parameters are updated with the rule below.")
    _math_line(p, (200, c.y + 24), "✓t ← ✓t−1 − ↵t · mt / (√vt + ✏)")
    c.skip(c.y + 46)
    c.para("Here mt and vt are the bias-corrected first and second moment estimates, and the step size "
           "is scaled by the ratio of the two. " + lorem("the step size", 10))

    p = page_with_furniture(3)
    c = Column(p, body, 60)
    c.heading("3 Extension to the Infinity Norm")
    c.para("Letting the norm grow without bound gives a simple and stable algorithm, in which the second "
           "moment estimate is replaced by an exponentially weighted infinity norm:")
    _math_line(p, (230, c.y + 24), "vt = max(β2 · vt−1, |gt|)")
    p.insert_text((480, c.y + 24), "(12)", fontname="tiro", fontsize=10)
    c.skip(c.y + 46)
    c.para("The recursion needs no bias correction, because the maximum does not shrink towards zero. "
           + lorem("the infinity norm", 10))

    p = page_with_furniture(4)
    _chart(p, pymupdf.Rect(110, 80, 290, 260), 0)
    _chart(p, pymupdf.Rect(330, 80, 510, 260), 1)
    caption(p, body, 285, "Figure 3: Training cost of two convolutional networks on image data, for the "
            "methods named in each legend.")
    Column(p, body, 340).para(lorem("convolutional networks", 14))

    doc.set_metadata({"title": "SOLVE: A Method for Stochastic Optimisation", "author": "Grace Hopper, Alan Turing"})
    doc.subset_fonts()
    data = doc.tobytes(garbage=3, deflate=True)
    if path is not None:
        path.write_bytes(data)
    return data
