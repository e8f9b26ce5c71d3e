"""PDFs the tests build with PyMuPDF, whose content (and so every expected value) is known exactly.

* ``paper_pdf`` — a nine-page two-column research paper about a made-up encoder, QUILL: title,
  headings by font size, footnotes, hyphenated line ends, captions, booktabs tables (one with a
  GLUE-style CoLA column, side-by-side tables, an ablation table whose caption defines its row names,
  a table at the page bottom), a vector diagram with text labels, a figure of raster pieces in vector
  panels, and text-only pages.
* ``math_pdf`` — a four-page conference-style paper with a running header, page numbers, display
  equations set in TeX math fonts whose text layer garbles α/ε/θ (as a TeX file without ToUnicode
  maps does), and a page of vector charts whose legends are drawn as paths (no text layer).
* ``raster_figures_pdf`` — two pages, each with a raster chart whose words exist only in the image.
* ``hr_form_pdf`` — a filled AcroForm (text fields with and without tooltips, date and phone fields,
  checkboxes, a radio group, a push button), its values also printed into the page content.

Nothing here is copied from a published document; the prose and numbers are invented.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pymupdf

DATA = Path(__file__).resolve().parent / "data"
"""Small public PDFs committed with the tests (sources and licences in data/README.md)."""
SAMPLE = DATA.parent.parent / "samples" / "otsl-2305.03393v1-p9.pdf"
"""The bundled one-page sample (samples/README.md)."""

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


def _lorem(topic: str, n: int) -> str:
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


# -- the QUILL paper -----------------------------------------------------------------------------------
GLUE_HEADER = ["System", "MNLI-(m/mm)", "QQP", "QNLI", "SST-2", "CoLA", "STS-B", "MRPC", "RTE", "Average"]
GLUE_ROWS = [
    ["", "392k", "363k", "108k", "67k", "8.5k", "5.7k", "3.5k", "2.5k", "-"],
    ["Prior SOTA", "80.6/80.1", "66.1", "82.3", "92.8", "33.6", "81.0", "86.0", "61.7", "74.0"],
    ["BiLSTM+ELMo+Attn", "76.4/76.1", "64.8", "79.8", "90.4", "36.0", "73.3", "84.9", "56.8", "71.0"],
    ["QUILL_BASE", "84.2/83.5", "71.0", "90.1", "93.4", "52.7", "85.2", "88.3", "66.1", "79.4"],
    ["QUILL_LARGE", "86.9/85.8", "72.3", "92.5", "94.7", "61.3", "86.4", "89.0", "70.2", "82.1"],
]
"""Table 1 of the paper (page 4). The second row holds training-set sizes."""

ABLATION = [
    ["Tasks", "MNLI-m", "QNLI", "MRPC", "SST-2", "SQuAD"],
    ["", "(Acc)", "(Acc)", "(Acc)", "(Acc)", "(F1)"],
    ["QUILL_BASE", "84.6", "88.7", "86.9", "92.9", "88.7"],
    ["No NSP", "84.1", "84.5", "86.3", "92.4", "87.8"],
    ["LTR & No NSP", "82.3", "84.2", "76.9", "92.1", "77.6"],
    ["+ BiLSTM", "82.4", "84.0", "75.8", "91.4", "84.7"],
]
"""Table 5 (page 6)."""

ABLATION_CAPTION = (
    "Table 5: Ablation over the pre-training tasks using the QUILLBASE architecture. "
    "\u201cNo NSP\u201d is trained without the next sentence prediction task. "
    "\u201cLTR & No NSP\u201d is trained as a left-to-right LM without the next sentence prediction, "
    "reading the text in one direction only."
)

SIZES = [
    ["#L", "#H", "#A", "LM (ppl)", "MNLI-m", "MRPC", "SST-2"],
    ["3", "768", "12", "5.91", "77.8", "79.6", "88.5"],
    ["6", "768", "3", "5.24", "80.6", "82.2", "90.7"],
    ["6", "768", "12", "4.71", "81.9", "84.8", "91.3"],
    ["12", "768", "12", "3.99", "84.4", "86.7", "92.9"],
    ["12", "1024", "16", "3.54", "85.7", "86.9", "93.3"],
]
"""Table 6 (page 7, at the bottom of the left column)."""

PAPER_TITLE = "QUILL: Pre-training Quantized Language Encoders"
PAPER_CREATED = "D:20250102030405Z"
FIGURE1_LABELS = ("Order Pred", "Masked LM", "Span Start/End", "NLI", "Pre-training", "Fine-Tuning")


def _figure1(page: pymupdf.Page) -> None:
    """A vector diagram: two panels of boxes, arrows and text labels (page 3, full width)."""
    for x0, title, heads in ((70, "Pre-training", ("Order Pred", "Masked LM")), (330, "Fine-Tuning", ("NLI", "Span Start/End"))):
        page.draw_rect(pymupdf.Rect(x0, 70, x0 + 210, 230), color=(0.3, 0.3, 0.3), width=0.8, radius=0.05)
        page.insert_text((x0 + 70, 222), title, fontname="helv", fontsize=9)
        for i, head in enumerate(heads):
            box = pymupdf.Rect(x0 + 15 + i * 100, 80, x0 + 95 + i * 100, 100)
            page.draw_rect(box, color=(0, 0, 0), fill=(0.85, 0.9, 1.0), width=0.6)
            page.insert_text((box.x0 + 6, box.y1 - 6), head, fontname="helv", fontsize=8)
        page.draw_rect(pymupdf.Rect(x0 + 15, 130, x0 + 195, 175), color=(0, 0, 0), fill=(0.95, 0.85, 0.7), width=0.6)
        page.insert_text((x0 + 80, 157), "QUILL", fontname="hebo", fontsize=10)
        for i in range(5):
            x = x0 + 30 + i * 35
            page.draw_line((x, 200), (x, 176), width=0.5)
            page.insert_text((x - 6, 210), f"E{i + 1}", fontname="helv", fontsize=7)
            page.draw_line((x, 129), (x, 101), width=0.5)
    page.draw_line((282, 150), (328, 150), width=1.0)


def _figure4(page: pymupdf.Page) -> None:
    """Four adjacent vector panels (frame, token boxes, arrows), each holding six raster pieces and a
    sub-caption (page 8)."""
    subcaps = ["(a) Sentence pair classification", "(b) Single sentence classification",
               "(c) Question answering", "(d) Sequence tagging"]
    for p, sub in enumerate(subcaps):
        x0, y0 = 70 + (p % 2) * 240, 70 + (p // 2) * 160
        page.draw_rect(pymupdf.Rect(x0, y0, x0 + 230, y0 + 150), color=(0.2, 0.2, 0.2), width=0.7)
        for k in range(6):
            pix = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 24, 24), False)
            pix.clear_with(40 * k + 20 + p * 8)
            cx = x0 + 12 + k * 35
            page.insert_image(pymupdf.Rect(cx, y0 + 20, cx + 30, y0 + 50), pixmap=pix)
            page.draw_line((cx + 15, y0 + 52), (cx + 15, y0 + 80), width=0.5)
            page.draw_rect(pymupdf.Rect(cx, y0 + 82, cx + 30, y0 + 98), color=(0, 0, 0), fill=(0.9, 0.9, 0.8), width=0.5)
            page.insert_text((cx + 4, y0 + 94), f"Tok{k + 1}", fontname="helv", fontsize=7)
        page.draw_line((x0 + 10, y0 + 110), (x0 + 220, y0 + 110), width=0.5)
        page.insert_text((x0 + 20, y0 + 135), sub, fontname="tiro", fontsize=8)


def paper_pdf(path: Path | None = None) -> bytes:
    """The QUILL paper (9 pages); written to ``path`` too when given."""
    doc = pymupdf.open()

    # Page 1: title, abstract, introduction (text only).
    p = doc.new_page(width=W, height=H)
    p.insert_text((110, 80), PAPER_TITLE, fontname="tibo", fontsize=15)
    p.insert_text((220, 104), "Ada Byron and Charles Lowe", fontname="tiro", fontsize=11)
    p.insert_text((215, 120), "Analytical Engines Laboratory", fontname="tiro", fontsize=10)
    left, right = Column(p, LEFT, 150), Column(p, RIGHT, 150)
    left.heading("Abstract")
    left.para("We introduce QUILL, a language encoder pre-trained on unlabeled text with two self-supervised "
              "tasks. QUILL is fine-tuned with one additional output layer and reaches strong results on "
              "eleven language understanding tasks, including a GLUE average of 82.1.")
    left.heading("1 Introduction")
    left.para("Language model pre-training has been shown to help many natural language processing tasks. "
              "Two families of methods exist for carrying pre-trained representations over to down-|stream "
              "tasks: feature extraction, which keeps the encoder frozen, and fine-tuning, which updates "
              "every parameter of the encoder on the labelled data of the task.")
    left.para("We observe that current encoders are limited by a strictly left-to-|right reading order, "
              "which restricts the choice of architectures that can be used during pre-training. "
              + _lorem("the reading order", 4))
    right.para(_lorem("fine-tuning", 12))
    right.para("Our contributions are a masked objective that lets the encoder read in both directions, and "
               "a study of how model size changes accuracy on small tasks. " + _lorem("model size", 5))

    # Page 2: related work (text only).
    p = doc.new_page(width=W, height=H)
    left, right = Column(p, LEFT, 60), Column(p, RIGHT, 60)
    left.heading("2 Related Work")
    left.para(_lorem("earlier encoders", 14))
    left.heading("2.1 Unsupervised Feature Approaches")
    left.para(_lorem("word embeddings", 12))
    right.heading("2.2 Unsupervised Fine-tuning Approaches")
    right.para(_lorem("sentence encoders", 16))
    right.heading("2.3 Transfer from Supervised Data")
    right.para(_lorem("transfer learning", 10))

    # Page 3: Figure 1 (vector), section 3, a footnote, the input representation.
    p = doc.new_page(width=W, height=H)
    _figure1(p)
    caption(p, (70, 540), 240, "Figure 1: Overall pre-training and fine-tuning procedures for QUILL. The same "
            "architecture is used in both stages; only the output layers differ.")
    left, right = Column(p, LEFT, 290), Column(p, RIGHT, 290)
    left.heading("3 QUILL")
    left.para("There are two steps in our framework: pre-training and fine-tuning. During pre-training the "
              "model is trained on unlabeled data over different tasks. " + _lorem("pre-training", 3))
    left.heading("3.1 Pre-training QUILL")
    left.para("Unlike earlier encoders, we do not use traditional left-to-right language models to "
              "pre-train QUILL. Instead, we pre-train it with two unsupervised tasks, described in this "
              "section and in the next one.")
    x = LEFT[0] + pymupdf.get_text_length("section and in the next one.", fontname="tiro", fontsize=BODY)
    p.insert_text((x + 1, left.y - 6 - 4), "1", fontname="tiro", fontsize=6)  # footnote mark
    left.para(_lorem("masked tokens", 5))
    p.draw_line((LEFT[0], 706), (LEFT[0] + 80, 706), width=0.4)  # footnote rule
    p.insert_text((LEFT[0], 716), "1", fontname="tiro", fontsize=5.5)
    foot = Column(p, (LEFT[0] + 4, LEFT[1]), 706)
    foot.para("The final model reaches 97% to 98% accuracy on sentence order prediction after one epoch.",
              size=8, after=0)
    right.para("Input representation. QUILL uses WordPiece embeddings with a 30,000 token vocabulary. The "
               "first token of every sequence is always a special classification token, whose final "
               "hidden state is used as the aggregate sequence representation.")
    right.para(_lorem("the input representation", 12))

    # Page 4: Table 1 (booktabs, full width), experiments, pre-training data.
    p = doc.new_page(width=W, height=H)
    cols = [0, 92, 150, 188, 226, 264, 300, 340, 380, 418]
    bottom = booktabs(p, 58, 60, cols, [GLUE_HEADER] + GLUE_ROWS, x1=554)
    caption(p, (58, 554), bottom + 4, "Table 1: GLUE Test results, scored by the evaluation server. The number "
            "below each task denotes the number of training examples. QUILLLARGE is best on every task.")
    left, right = Column(p, LEFT, bottom + 50), Column(p, RIGHT, bottom + 50)
    left.heading("4 Experiments")
    left.para("In this section we present fine-tuning results of QUILL on eleven tasks. "
              + _lorem("the GLUE tasks", 6))
    left.para("Pre-training data. For the pre-training corpus we use a collection of public-domain novels "
              "(800M words) and English Wikipedia (2,500M words). For Wikipedia we extract only the text "
              "passages and ignore lists, tables and headers.")
    right.para(_lorem("the benchmark", 14))

    # Page 5: Tables 2 and 3 in the left column, Table 4 in the right one.
    p = doc.new_page(width=W, height=H)
    b = booktabs(p, LEFT[0], 60, [0, 110, 160, 200], [
        ["System", "Dev EM", "Dev F1", "Test F1"],
        ["Human", "-", "-", "91.2"],
        ["QUILL_BASE", "80.4", "88.3", "-"],
        ["QUILL_LARGE", "85.1", "93.2", "91.7"],
    ], x1=LEFT[1])
    b = caption(p, LEFT, b + 4, "Table 2: Question answering results on the dev and test sets.")
    b = booktabs(p, LEFT[0], b + 16, [0, 110, 160, 200], [
        ["System", "Dev EM", "Dev F1", "Test F1"],
        ["Human", "86.3", "89.0", "89.5"],
        ["QUILL_LARGE", "78.7", "81.9", "83.1"],
    ], x1=LEFT[1])
    b = caption(p, LEFT, b + 4, "Table 3: Results on questions that may have no answer.")
    Column(p, LEFT, b + 14).para(_lorem("reading comprehension", 8))
    right = Column(p, RIGHT, 60)
    right.para(_lorem("commonsense inference", 8))
    b = booktabs(p, RIGHT[0], right.y + 8, [0, 120, 180], [
        ["System", "Dev", "Test"],
        ["ESIM+ELMo", "59.1", "59.2"],
        ["QUILL_BASE", "81.6", "-"],
        ["QUILL_LARGE", "86.6", "86.3"],
    ], x1=RIGHT[1])
    b = caption(p, RIGHT, b + 4, "Table 4: Commonsense inference accuracy on the dev and test sets.")
    Column(p, RIGHT, b + 14).para(_lorem("the ablations", 6))

    # Page 6: Table 5 (ablation) in the left column.
    p = doc.new_page(width=W, height=H)
    b = booktabs(p, LEFT[0], 60, [0, 72, 112, 146, 180, 212], ABLATION, size=8, header_rows=2, x1=LEFT[1])
    b = caption(p, LEFT, b + 4, ABLATION_CAPTION)
    Column(p, LEFT, b + 14).para(_lorem("the pre-training tasks", 10))
    right = Column(p, RIGHT, 60)
    right.heading("5 Ablation Studies")
    right.para(_lorem("each component", 18))

    # Page 7: text, then Table 6 at the bottom of the left column.
    p = doc.new_page(width=W, height=H)
    left, right = Column(p, LEFT, 60), Column(p, RIGHT, 60)
    left.heading("5.1 Effect of Model Size")
    left.para(_lorem("model size", 20))
    b = booktabs(p, LEFT[0], 560, [0, 28, 60, 88, 130, 170, 205], SIZES, x1=LEFT[1])
    caption(p, LEFT, b + 4, "Table 6: Ablation over model size. #L is the number of layers, #H the hidden "
            "size and #A the number of attention heads.")
    right.para(_lorem("larger models", 24))

    # Page 8: Figure 4 (raster pieces inside vector panels).
    p = doc.new_page(width=W, height=H)
    _figure4(p)
    caption(p, (70, 540), 400, "Figure 4: Illustrations of fine-tuning QUILL on different tasks.")
    Column(p, LEFT, 460).para(_lorem("task-specific layers", 10))
    Column(p, RIGHT, 460).para(_lorem("task-specific layers", 10))

    # Page 9: conclusion and references (text only).
    p = doc.new_page(width=W, height=H)
    left, right = Column(p, LEFT, 60), Column(p, RIGHT, 60)
    left.heading("6 Conclusion")
    left.para(_lorem("unsupervised pre-training", 10))
    right.heading("References")
    for i in range(8):
        right.para(f"Author {i + 1} and Colleague. {2010 + i}. A study of encoders, part {i + 1}. "
                   "Proceedings of a workshop on language.", size=9, after=3)

    # Like many LaTeX papers: an info dictionary without a title (the title is the biggest line of page 1).
    doc.set_metadata({"producer": "pdfTeX-1.40.25", "creationDate": PAPER_CREATED, "modDate": PAPER_CREATED})
    data = doc.tobytes(garbage=3, deflate=True)
    if path is not None:
        path.write_bytes(data)
    return data


def subset(data: bytes, pages: Iterable[int], path: Path) -> Path:
    """Write the given 1-based pages of a PDF as a new file."""
    with pymupdf.open(stream=data, filetype="pdf") as src, pymupdf.open() as part:
        for n in pages:
            part.insert_pdf(src, from_page=n - 1, to_page=n - 1)
        part.save(path)
    return path


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
           "objective functions, based on adaptive estimates of lower-order moments. " + _lorem("the optimiser", 6))
    c.heading("1 Introduction")
    c.para(_lorem("stochastic gradients", 16))

    p = page_with_furniture(2)
    c = Column(p, body, 60)
    c.heading("2 Algorithm")
    c.para("The update keeps exponential moving averages of the gradient and of its square. The moving "
           "averages are initialised as vectors of zeros, which biases them towards zero; the bias is "
           "corrected before the parameters are updated with the rule below.")
    _math_line(p, (200, c.y + 24), "✓t ← ✓t−1 − ↵t · mt / (√vt + ✏)")
    c.skip(c.y + 46)
    c.para("Here mt and vt are the bias-corrected first and second moment estimates, and the step size "
           "is scaled by the ratio of the two. " + _lorem("the step size", 10))

    p = page_with_furniture(3)
    c = Column(p, body, 60)
    c.heading("3 Extension to the Infinity Norm")
    c.para("Letting the norm grow without bound gives a simple and stable algorithm, in which the second "
           "moment estimate is replaced by an exponentially weighted infinity norm:")
    _math_line(p, (230, c.y + 24), "vt = max(β2 · vt−1, |gt|)")
    p.insert_text((480, c.y + 24), "(12)", fontname="tiro", fontsize=10)
    c.skip(c.y + 46)
    c.para("The recursion needs no bias correction, because the maximum does not shrink towards zero. "
           + _lorem("the infinity norm", 10))

    p = page_with_furniture(4)
    _chart(p, pymupdf.Rect(110, 80, 290, 260), 0)
    _chart(p, pymupdf.Rect(330, 80, 510, 260), 1)
    caption(p, body, 285, "Figure 3: Training cost of two convolutional networks on image data, for the "
            "methods named in each legend.")
    Column(p, body, 340).para(_lorem("convolutional networks", 14))

    doc.set_metadata({"title": "SOLVE: A Method for Stochastic Optimisation", "author": "Grace Hopper, Alan Turing"})
    doc.subset_fonts()
    data = doc.tobytes(garbage=3, deflate=True)
    if path is not None:
        path.write_bytes(data)
    return data


# -- raster figures ------------------------------------------------------------------------------------
RASTER_WORDS = (("Woodlot", "Pasture", "Orchard"), ("Harbour", "Lighthouse", "Quarry"))
"""The words drawn inside the image on page 1 and page 2 (nowhere in the text layer)."""


def _raster_chart(words: tuple[str, ...], bars: bool) -> bytes:
    """A PNG (150 dpi) of a bar chart or a sketch map, labelled with ``words``."""
    with pymupdf.open() as tmp:
        page = tmp.new_page(width=300, height=200)
        page.draw_rect(page.rect, color=None, fill=(1, 1, 1))
        if bars:
            for i, h in enumerate((120, 70, 150)):
                page.draw_rect(pymupdf.Rect(30 + i * 90, 170 - h, 90 + i * 90, 170), color=(0, 0, 0), fill=(0.4, 0.6, 0.3))
                page.insert_text((28 + i * 90, 190), words[i], fontname="hebo", fontsize=14)
        else:
            page.draw_bezier((10, 185), (80, 160), (200, 195), (290, 150), color=(0.2, 0.3, 0.9), width=4)  # the coast
            for i, (x, y) in enumerate(((20, 30), (110, 70), (170, 110))):
                page.draw_circle((x + 4, y + 8), 4, color=(0, 0, 0), fill=(0.9, 0.2, 0.2))
                page.insert_text((x + 12, y + 12), words[i], fontname="hebo", fontsize=14)
        return page.get_pixmap(dpi=150).tobytes("png")


def raster_figures_pdf(path: Path | None = None) -> bytes:
    """Two pages of running text, each with one raster figure and its caption below."""
    doc = pymupdf.open()
    for n, (words, title) in enumerate(zip(RASTER_WORDS, ("Land use by parcel.", "Sites along the coast.")), start=1):
        page = doc.new_page(width=W, height=H)
        Column(page, (72, 540), 60).para(_lorem("the survey", 6))
        page.insert_image(pymupdf.Rect(156, 200, 456, 400), stream=_raster_chart(words, bars=n == 1))
        caption(page, (72, 540), 410, f"Figure {n}: {title}")
        Column(page, (72, 540), 460).para(_lorem("the parcels", 8))
    data = doc.tobytes(garbage=3, deflate=True)
    if path is not None:
        path.write_bytes(data)
    return data


# -- a filled form ------------------------------------------------------------------------------------
HR_TEXT_FIELDS = [
    # (field name, tooltip /TU, value, rect)
    ("Name_Last", "LAST", "Okafor", (40, 150, 270, 168)),
    ("Name_First", "FIRST", "Ngozi", (40, 190, 270, 208)),
    ("Telephone_Home", "HOME", "5551230000", (40, 230, 150, 248)),
    ("Telephone_Work", "WORK", "5559876543", (160, 230, 270, 248)),
    ("Address_1", "STREET", "12 Mill Lane", (330, 150, 570, 168)),
    ("City", "[2]", "Kalamazoo", (330, 190, 450, 208)),
    ("Emergency_Contact", "NAME", "Tunde Okafor", (330, 230, 450, 248)),
    ("Emergency_Relationship", "RELATIONSHIP", "Older Brother", (460, 230, 570, 248)),
    ("Birthdate", "MONTH/DAY/YEAR", "03/14/1990", (460, 290, 570, 308)),
]
HR_CHECKBOXES = [("HIGH SCHOOL DIPLOMA", True, (40, 300, 48, 308)), ("TRADE CERTIFICATE", False, (40, 315, 48, 323)),
                 ("BACHELORS DEGREE", True, (40, 330, 48, 338))]
HR_RADIO = ("Sex", ["MALE", "FEMALE"], "FEMALE", [(330, 300, 338, 308), (330, 315, 338, 323)])


def hr_form_pdf(path: Path | None = None) -> bytes:
    """An employee form: printed labels, filled text fields (one with a useless "[2]" tooltip),
    checkboxes, a radio group, a push button; the values are also printed into the page content, as
    some form tools do."""
    doc = pymupdf.open()
    page = doc.new_page(width=W, height=H)
    page.insert_text((40, 80), "EMPLOYEE INFORMATION FORM", fontname="hebo", fontsize=16)
    page.insert_text((40, 110), "Please print clearly. All fields are required unless marked optional.", fontname="helv", fontsize=9)
    for name, tip, value, r in HR_TEXT_FIELDS:
        rect = pymupdf.Rect(r)
        page.insert_text((rect.x0, rect.y1 + 9), tip if not tip.startswith("[") else name.upper(), fontname="helv", fontsize=7)
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_TEXT
        w.field_name, w.field_label, w.field_value, w.rect = name, tip, value, rect
        w.text_fontsize = 9
        page.add_widget(w)
        page.insert_text((rect.x0 + 2, rect.y1 - 5), value, fontname="helv", fontsize=9)  # the drawn value
    page.insert_text((40, 292), "EDUCATION", fontname="hebo", fontsize=9)
    for name, checked, r in HR_CHECKBOXES:
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_CHECKBOX
        w.field_name, w.field_label, w.rect, w.field_value = name, name, pymupdf.Rect(r), checked
        page.add_widget(w)
        page.insert_text((r[2] + 4, r[3]), name, fontname="helv", fontsize=7)
    for w in page.widgets(types=[pymupdf.PDF_WIDGET_TYPE_CHECKBOX]):  # the on-state named "On", not "Yes"
        checked = dict((n, c) for n, c, _ in HR_CHECKBOXES)[w.field_name]
        refs = re.findall(r"\d+ 0 R", doc.xref_get_key(w.xref, "AP/N")[1])
        doc.xref_set_key(w.xref, "AP/N", f"<</Off {refs[-1]} /On {refs[0]}>>")
        doc.xref_set_key(w.xref, "AS", "/On" if checked else "/Off")
        doc.xref_set_key(w.xref, "V", "/On" if checked else "/Off")
    name, options, selected, rects = HR_RADIO
    page.insert_text((330, 292), "SEX", fontname="hebo", fontsize=9)
    for opt, r in zip(options, rects):
        w = pymupdf.Widget()
        w.field_type = pymupdf.PDF_WIDGET_TYPE_RADIOBUTTON
        w.field_name, w.field_label, w.rect = name, "SEX", pymupdf.Rect(r)
        page.add_widget(w)
        page.insert_text((r[2] + 4, r[3]), opt, fontname="helv", fontsize=7)
    kids = [w.xref for w in page.widgets() if w.field_name == name]
    parent = int(doc.xref_get_key(kids[0], "Parent")[1].split()[0])
    for opt, xref in zip(options, kids):  # on-states named after the options, as form designers do
        normal = doc.xref_get_key(xref, "AP/N")[1]
        refs = re.findall(r"\d+ 0 R", normal)
        doc.xref_set_key(xref, "AP/N", f"<</Off {refs[0]} /{opt} {refs[-1]}>>")
        doc.xref_set_key(xref, "AS", f"/{opt}" if opt == selected else "/Off")
    doc.xref_set_key(parent, "V", f"/{selected}")
    button = pymupdf.Widget()
    button.field_type = pymupdf.PDF_WIDGET_TYPE_BUTTON
    button.field_name, button.rect, button.button_caption = "Print", pymupdf.Rect(330, 700, 410, 720), "Print"
    page.add_widget(button)
    data = doc.tobytes(garbage=3, deflate=True)
    if path is not None:
        path.write_bytes(data)
    return data


PAPER_QUESTIONS = [
    # (question, pages of paper_pdf() that answer it) — paraphrased, as a user would ask.
    ("How large is the WordPiece vocabulary that QUILL uses?", [3]),
    ("What CoLA score does QUILL-Large obtain on the GLUE test set?", [4]),
    ("How many words does the English Wikipedia part of the pre-training corpus contain?", [4]),
    ("What F1 does QUILL-Large reach on the question answering dev set?", [5]),
    ("How accurate is QUILL-Large on commonsense inference?", [5]),
    ("What MRPC accuracy does the left-to-right model without next sentence prediction get?", [6]),
    ("What LM perplexity does the model with 6 layers and 3 attention heads reach?", [7]),
    ("What are the two steps of the QUILL framework?", [3]),
    ("Which two families of methods carry pre-trained representations over to downstream tasks?", [1]),
    ("How is QUILL fine-tuned for question answering and sequence tagging?", [8]),
    ("What accuracy does the final model reach on sentence order prediction?", [3]),
]
"""Questions about the built paper and where its answers are printed (from the builder above)."""
