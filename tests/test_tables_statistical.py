"""A statistical agency's table without rules (the Census Bureau's Statistical Abstract prints them
this way), on a PDF built here: "(X)" / "(NA)" cells for not applicable / not available, and dot
leaders whose run is too short to be recognised by length before the first value (". ." between a long
label and its value column). Found on a real Census table (bench/realdocs.py): its last rows, whose
cells are "(X)", came out as loose text, one element per number, and a label with a short leader run
was glued to its first value."""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest

from pagelens.ingest import tables
from pagelens.ingest.context import PageContext
from pagelens.ingest.table_values import value_kind
from pagelens.models import Element
from pagelens.settings import IngestSettings
from pagelens.store.images import ImageStore

FONT = 7.5
LABEL_END = 150.0  # where the leaders stop; the first value column ends at 190
COLS = (190.0, 240.0, 290.0)
ROWS = [
    ("Total", ("11,062.6", "1,540.0", "9,522.6")),
    ("Robbery", ("102.1", "25.5", "76.6")),
    ("Aggravated assault", ("338.4", "40.1", "298.3")),
    ("Burglary", ("240.9", "60.3", "180.6")),
    ("Larceny-theft", ("1,080.1", "258.1", "822.0")),
    ("Suspicion", ("1.6", "–", "1.4")),
    ("Curfew and loitering law violations", ("91.0", "91.0", "(X)")),
    ("Runaways", ("75.8", "75.8", "(X)")),
    ("Vagrancy", ("26.6", "(NA)", "24.4")),
]


def _right(page: pymupdf.Page, x1: float, y: float, text: str) -> None:
    page.insert_text((x1 - pymupdf.get_text_length(text, "helv", FONT), y), text, fontsize=FONT)


def _leader(label: str) -> str:
    """The label and as many ". " as fit before LABEL_END (a long label gets only a couple)."""
    room = LABEL_END - 40 - pymupdf.get_text_length(label + " ", "helv", FONT)
    return (label + " " + ". " * max(int(room / pymupdf.get_text_length(". ", "helv", FONT)), 2)).rstrip()


@pytest.fixture(scope="module")
def pdf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = pymupdf.open()
    page = doc.new_page(width=420, height=600)
    page.insert_text((40, 50), "Table 324. Arrests by Sex and Age: 2009", fontsize=11)
    page.insert_text((40, 64), "[In thousands. Represents arrests reported by 12,910 agencies]", fontsize=FONT)
    page.insert_text((40, 92), "Offense charged", fontsize=FONT)
    for x1, name in zip(COLS, ("Total", "Under 18", "18 and over")):
        _right(page, x1, 92, name)
    y = 106.0
    for label, values in ROWS:
        page.insert_text((40, y), _leader(label), fontsize=FONT)
        for x1, v in zip(COLS, values):
            _right(page, x1, y, v)
        y += 9.5
    page.insert_text((40, y + 8), "X Not applicable. NA Not available. Source: Uniform Crime Reports.", fontsize=6)
    path = tmp_path_factory.mktemp("statistical") / "abstract-table-324.pdf"
    doc.save(path)
    return path


def _table(path: Path, tmp_path: Path) -> tuple[Element, PageContext]:
    doc = pymupdf.open(path)
    ctx = PageContext.build(doc[0], doc_id="d", file_name=path.name, settings=IngestSettings(),
                            images=ImageStore(tmp_path / "img"), pdf_bytes=path.read_bytes())
    ctx.use_layout = tables.is_hard_page(ctx)
    els = tables.extract_tables(ctx)
    assert len(els) == 1, [e.text[:80] for e in els]
    return els[0], ctx


def test_agency_markers_are_empty_cells_not_text():
    assert [value_kind(t) for t in ("(X)", "(NA)", "(D)", "(Z)", "(S)")] == ["nil"] * 5
    # footnote marks and words in parentheses stay text
    assert [value_kind(t) for t in ("(a)", "(b)", "(x)", "(Note)")] == [None] * 4


def test_rows_with_not_applicable_cells_stay_in_the_table(pdf: Path, tmp_path: Path):
    el, _ = _table(pdf, tmp_path)
    t = el.table
    assert t is not None and t.finder == "whitespace"
    labels = [r[0] for r in t.rows]
    assert labels == [label for label, _ in ROWS]
    assert t.rows[labels.index("Runaways")][1:] == ["75.8", "75.8", "(X)"]
    assert t.rows[labels.index("Vagrancy")][1:] == ["26.6", "(NA)", "24.4"]
    assert any(r.startswith("Runaways — ") and "18 and over: (X)" in r for r in t.records), t.records[-3:]


def test_a_short_leader_run_ends_the_label_before_its_value(pdf: Path, tmp_path: Path):
    el, _ = _table(pdf, tmp_path)
    row = next(r for r in el.table.rows if r[0].startswith("Curfew"))
    assert row == ["Curfew and loitering law violations", "91.0", "91.0", "(X)"]
    assert not any(c.startswith(".") for r in el.table.rows for c in r[1:])
