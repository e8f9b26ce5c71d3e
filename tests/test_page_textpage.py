"""One TextPage per page: the page's dict text and its word list are read from the same TextPage
(ingest/context.py), and must be what each separate extraction gave before."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pagelens.ingest.context import TEXT_FLAGS, WORD_FLAGS, PageContext
from pagelens.settings import IngestSettings


def _page(path: Path) -> pymupdf.Document:
    """Hyphenated line ends (what TEXT_DEHYPHENATE, the one flag the two differ in, is about), runs of
    spaces, text turned 90 degrees, text running off the media box, two fonts."""
    doc = pymupdf.open()
    page = doc.new_page(width=400, height=300)
    lines = ["This is an exam-", "ple of a hyphen-", "ated line and co-", "Operation ends.", "gaps    between   words"]
    for i, line in enumerate(lines):
        page.insert_text((40, 40 + 14 * i), line, fontsize=11)
    page.insert_text((40, 140), "Bold col-", fontname="hebo", fontsize=12)
    page.insert_text((40, 156), "umn header", fontname="hebo", fontsize=12)
    page.insert_text((360, 280), "Turned text", rotate=90, fontsize=9)
    page.insert_text((330, 200), "runs off the page edge here", fontsize=10)
    doc.save(path)
    doc.close()
    return pymupdf.open(path)


def test_words_and_dict_from_one_textpage_match_separate_extractions(tmp_path: Path) -> None:
    with _page(tmp_path / "hyphens.pdf") as doc:
        page = doc[0]
        ctx = PageContext.build(page, doc_id="d", file_name="hyphens.pdf", settings=IngestSettings(), images=None)  # type: ignore[arg-type]
        assert ctx.textpage is not None
        assert ctx.words == page.get_text("words", flags=WORD_FLAGS)
        assert ctx.text == page.get_text("dict", flags=TEXT_FLAGS, sort=False)
        words = [w[4] for w in ctx.words]
        assert "exam-" in words and "ple" in words and "col-" in words  # line ends kept as printed
        assert "Turned" in words and "runs" in words
