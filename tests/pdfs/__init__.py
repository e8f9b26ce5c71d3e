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

from pathlib import Path

from .forms import HR_CHECKBOXES, HR_RADIO, HR_TEXT_FIELDS, hr_form_pdf
from .mathpaper import LEGEND, RUNNING_HEADER, math_pdf
from .paper import (
    ABLATION,
    ABLATION_CAPTION,
    FIGURE1_LABELS,
    GLUE_HEADER,
    GLUE_ROWS,
    PAPER_CREATED,
    PAPER_QUESTIONS,
    PAPER_TITLE,
    SIZES,
    paper_pdf,
)
from .raster import RASTER_WORDS, raster_figures_pdf

DATA = Path(__file__).resolve().parent.parent / "data"
"""Small public PDFs committed with the tests (sources and licences in data/README.md)."""
SAMPLE = DATA.parent.parent / "samples" / "otsl-2305.03393v1-p9.pdf"
"""The bundled one-page sample (samples/README.md)."""

__all__ = [
    "ABLATION", "ABLATION_CAPTION", "DATA", "FIGURE1_LABELS", "GLUE_HEADER", "GLUE_ROWS", "HR_CHECKBOXES",
    "HR_RADIO", "HR_TEXT_FIELDS", "LEGEND", "PAPER_CREATED", "PAPER_QUESTIONS", "PAPER_TITLE", "RASTER_WORDS",
    "RUNNING_HEADER", "SAMPLE", "SIZES", "hr_form_pdf", "math_pdf", "paper_pdf", "raster_figures_pdf",
]
