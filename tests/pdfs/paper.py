"""The QUILL paper: a nine-page two-column research paper about a made-up encoder."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from .layout import BODY, H, LEFT, RIGHT, W, Column, booktabs, caption, lorem

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
              + lorem("the reading order", 4))
    right.para(lorem("fine-tuning", 12))
    right.para("Our contributions are a masked objective that lets the encoder read in both directions, and "
               "a study of how model size changes accuracy on small tasks. " + lorem("model size", 5))

    # Page 2: related work (text only).
    p = doc.new_page(width=W, height=H)
    left, right = Column(p, LEFT, 60), Column(p, RIGHT, 60)
    left.heading("2 Related Work")
    left.para(lorem("earlier encoders", 14))
    left.heading("2.1 Unsupervised Feature Approaches")
    left.para(lorem("word embeddings", 12))
    right.heading("2.2 Unsupervised Fine-tuning Approaches")
    right.para(lorem("sentence encoders", 16))
    right.heading("2.3 Transfer from Supervised Data")
    right.para(lorem("transfer learning", 10))

    # Page 3: Figure 1 (vector), section 3, a footnote, the input representation.
    p = doc.new_page(width=W, height=H)
    _figure1(p)
    caption(p, (70, 540), 240, "Figure 1: Overall pre-training and fine-tuning procedures for QUILL. The same "
            "architecture is used in both stages; only the output layers differ.")
    left, right = Column(p, LEFT, 290), Column(p, RIGHT, 290)
    left.heading("3 QUILL")
    left.para("There are two steps in our framework: pre-training and fine-tuning. During pre-training the "
              "model is trained on unlabeled data over different tasks. " + lorem("pre-training", 3))
    left.heading("3.1 Pre-training QUILL")
    left.para("Unlike earlier encoders, we do not use traditional left-to-right language models to "
              "pre-train QUILL. Instead, we pre-train it with two unsupervised tasks, described in this "
              "section and in the next one.")
    x = LEFT[0] + pymupdf.get_text_length("section and in the next one.", fontname="tiro", fontsize=BODY)
    p.insert_text((x + 1, left.y - 6 - 4), "1", fontname="tiro", fontsize=6)  # footnote mark
    left.para(lorem("masked tokens", 5))
    p.draw_line((LEFT[0], 706), (LEFT[0] + 80, 706), width=0.4)  # footnote rule
    p.insert_text((LEFT[0], 716), "1", fontname="tiro", fontsize=5.5)
    foot = Column(p, (LEFT[0] + 4, LEFT[1]), 706)
    foot.para("The final model reaches 97% to 98% accuracy on sentence order prediction after one epoch.",
              size=8, after=0)
    right.para("Input representation. QUILL uses WordPiece embeddings with a 30,000 token vocabulary. The "
               "first token of every sequence is always a special classification token, whose final "
               "hidden state is used as the aggregate sequence representation.")
    right.para(lorem("the input representation", 12))

    # Page 4: Table 1 (booktabs, full width), experiments, pre-training data.
    p = doc.new_page(width=W, height=H)
    cols = [0, 92, 150, 188, 226, 264, 300, 340, 380, 418]
    bottom = booktabs(p, 58, 60, cols, [GLUE_HEADER] + GLUE_ROWS, x1=554)
    caption(p, (58, 554), bottom + 4, "Table 1: GLUE Test results, scored by the evaluation server. The number "
            "below each task denotes the number of training examples. QUILLLARGE is best on every task.")
    left, right = Column(p, LEFT, bottom + 50), Column(p, RIGHT, bottom + 50)
    left.heading("4 Experiments")
    left.para("In this section we present fine-tuning results of QUILL on eleven tasks. "
              + lorem("the GLUE tasks", 6))
    left.para("Pre-training data. For the pre-training corpus we use a collection of public-domain novels "
              "(800M words) and English Wikipedia (2,500M words). For Wikipedia we extract only the text "
              "passages and ignore lists, tables and headers.")
    right.para(lorem("the benchmark", 14))

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
    Column(p, LEFT, b + 14).para(lorem("reading comprehension", 8))
    right = Column(p, RIGHT, 60)
    right.para(lorem("commonsense inference", 8))
    b = booktabs(p, RIGHT[0], right.y + 8, [0, 120, 180], [
        ["System", "Dev", "Test"],
        ["ESIM+ELMo", "59.1", "59.2"],
        ["QUILL_BASE", "81.6", "-"],
        ["QUILL_LARGE", "86.6", "86.3"],
    ], x1=RIGHT[1])
    b = caption(p, RIGHT, b + 4, "Table 4: Commonsense inference accuracy on the dev and test sets.")
    Column(p, RIGHT, b + 14).para(lorem("the ablations", 6))

    # Page 6: Table 5 (ablation) in the left column.
    p = doc.new_page(width=W, height=H)
    b = booktabs(p, LEFT[0], 60, [0, 72, 112, 146, 180, 212], ABLATION, size=8, header_rows=2, x1=LEFT[1])
    b = caption(p, LEFT, b + 4, ABLATION_CAPTION)
    Column(p, LEFT, b + 14).para(lorem("the pre-training tasks", 10))
    right = Column(p, RIGHT, 60)
    right.heading("5 Ablation Studies")
    right.para(lorem("each component", 18))

    # Page 7: text, then Table 6 at the bottom of the left column.
    p = doc.new_page(width=W, height=H)
    left, right = Column(p, LEFT, 60), Column(p, RIGHT, 60)
    left.heading("5.1 Effect of Model Size")
    left.para(lorem("model size", 20))
    b = booktabs(p, LEFT[0], 560, [0, 28, 60, 88, 130, 170, 205], SIZES, x1=LEFT[1])
    caption(p, LEFT, b + 4, "Table 6: Ablation over model size. #L is the number of layers, #H the hidden "
            "size and #A the number of attention heads.")
    right.para(lorem("larger models", 24))

    # Page 8: Figure 4 (raster pieces inside vector panels).
    p = doc.new_page(width=W, height=H)
    _figure4(p)
    caption(p, (70, 540), 400, "Figure 4: Illustrations of fine-tuning QUILL on different tasks.")
    Column(p, LEFT, 460).para(lorem("task-specific layers", 10))
    Column(p, RIGHT, 460).para(lorem("task-specific layers", 10))

    # Page 9: conclusion and references (text only).
    p = doc.new_page(width=W, height=H)
    left, right = Column(p, LEFT, 60), Column(p, RIGHT, 60)
    left.heading("6 Conclusion")
    left.para(lorem("unsupervised pre-training", 10))
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
