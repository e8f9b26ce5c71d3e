"""Which parser produced a stored document, and whether it is due a re-parse.

A document's id is the sha256 of its bytes, so an unchanged file is never parsed twice — unless the
parser changed. ``PARSER_VERSION`` is stored with every document (``Document.parser_version``;
documents stored before it existed read as 0); an ingest re-parses a stored document whose version is
older (``ingest.reparse_stale``), replacing its elements, chunks and vectors, and ``pagelens check``
lists the ones still stale.
"""

from __future__ import annotations

from pagelens.models import Document

PARSER_VERSION = 15
"""Bump this whenever parse output changes (elements, their text, kinds, ids or section paths), so
that existing homes re-parse their documents on the next ingest. History: 1 = before versions were
recorded (stored as 0); 2 = table extraction and SEC filing headings (#10); 3 = tables on pages turned
by /Rotate, listings of names and ID numbers, ranges as values, a year row beside a row label as header;
4 = column titles right-aligned over their numbers (R/Stata printouts), an empty stub title no longer "Col1";
5 = a chart's point markers set in a symbol font (ZapfDingbats) no longer read as labels;
6 = program printouts in monospace without rules of characters as tables (``table_printout``);
7 = form fields named by their printed labels and captions (generic names, opaque radio states), flat
printed forms read as fields (``printed_forms``);
8 = a label and the amounts set on its line to its right as one line (``label_values.join_label_values``: a
bill's items), a printout's heading line ("Likelihood ratio test") in its table's caption, after the command;
9 = a scan whose OCR layer spells words letter by letter is read again by OCR, and small text on a scan is
read again larger (``ocr_page``);
10 = slides: a title repeated only on a run of consecutive landscape pages (overlays, "(cont.)" slides) is
the slide's title, not a running header; a line opened by a drawn bullet (a small filled shape just left of
it) is a list item of its own, and "·" is a bullet glyph;
11, 12 = 7 to 10 merged (each branch had bumped on its own);
13 = a scan whose OCR layer breaks words apart ("W ater", "L eak ag e") is read again by OCR; on scanned pages a
block in the top/bottom band repeated across pages is a running header/footer (``furniture.mark_ocr_running``);
14 = scanned pages: tables (rows of values, or of short text cells apart by wide gaps) and form fields (labels
with the values written under or after them) read from the OCR words' boxes (``ocr_tables``);
15 = a scanned page whose automatic layout left most of its ink unread is read again as one block
(``ocr_block``), amounts OCR split at a separator are one word (``ocr_numbers``), and a table's period
section ("Year Ended December 31, 2021") is closed by no total row (``row_sections``)."""


def is_stale(doc: Document) -> bool:
    """Whether ``doc`` was parsed by an older parser than this one."""
    return doc.parser_version < PARSER_VERSION


def needs_parse(stored: Document | None, *, reparse_stale: bool, force: bool = False) -> bool:
    """Whether a file whose content is stored as ``stored`` (None: not stored) must be parsed:
    new content always; stored content when forced (``ingest --reparse``) or stale (and allowed)."""
    return stored is None or force or (reparse_stale and is_stale(stored))
