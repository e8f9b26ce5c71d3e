"""Multi-word column titles right-aligned over right-aligned numbers (issue #10, "tables with their
structure on unseen documents").

Program output printed into a paper (R's ``coeftest``, Stata, statsmodels) sets its titles flush right
over the numbers with a single space between titles: "Estimate Std. Error z value Pr(>|z|)". Word
gaps do not tell the titles apart, so each word went to the nearest column ("Estimate Std. | Error z |
value"), and the empty title over the row labels read "Col1". Titles now go to the column whose right
edge they end at (``table_header.right_aligned``) and the stub keeps its empty name. Pages are built
with PyMuPDF, in monospace (whole lines typed as strings) and in a proportional font (words placed one
wide gap apart), and read through ``tables.extract_tables`` as the pipeline reads them.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from table_support import only_table

ROWS = [
    ("(Intercept)", ["833", "461", "1.81", "0.071", "12.0"]),
    ("Income", ["-1834", "1243", "-1.48", "0.140", "9.5"]),
    ("I(Income^2)", ["1587", "830", "1.91", "0.056", "10.2"]),
    ("Population", ["22", "17", "1.30", "0.190", "8.8"]),
]
TITLES = ["Estimate", "Std. Error", "z value", "Pr(>|z|)", "Lower bound"]
# A monospace face whose word boxes are lower than two spaces are wide (TeX's Latin Modern Mono, as in
# the vignette this was found on, is another): one space then separates every word of the title line.
# Courier's boxes are taller, so its title line reads as one piece; both must come out right.
DEJAVU_MONO = Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")


def _mono(ncols: int, font: str = "cour", size: float = 9) -> bytes:
    """A coefficient table as a program prints it: each title and value right-aligned in a field as
    wide as the widest entry, fields one space apart, typed line by line in monospace."""
    titles = TITLES[:ncols]
    widths = [max(len(t), *(len(v[j]) for _, v in ROWS)) for j, t in enumerate(titles)]
    stub = max(len(label) for label, _ in ROWS) + 4
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "The coefficient tests with sandwich standard errors are:", fontsize=10)
    if font == "dejavu":
        if not DEJAVU_MONO.exists():
            pytest.skip("DejaVu Sans Mono is not installed")
        page.insert_font(fontname="dejavu", fontfile=str(DEJAVU_MONO))
    y = 90.0
    head = " " * stub + " ".join(t.rjust(w) for t, w in zip(titles, widths))
    page.insert_text((54, y), head, fontname=font, fontsize=size)
    for label, values in ROWS:
        y += size * 1.4
        line = label.ljust(stub) + " ".join(v.rjust(w) for v, w in zip(values[:ncols], widths))
        page.insert_text((54, y), line, fontname=font, fontsize=size)
    page.insert_text((54, y + 30), "The squared income term is significant at the ten percent level.", fontsize=10)
    return doc.tobytes()


def _spaced(ncols: int, size: float = 9) -> bytes:
    """The same table in Helvetica, each word placed by hand: numbers right-aligned at their column's
    edge, each title's words one wide gap (0.75 em) apart and ending at that edge, the titles one such
    gap apart too."""
    gap = 0.75 * size
    rights = [0.0] * ncols
    x = 150.0
    for j in range(ncols):
        title = TITLES[j]
        words = sum(pymupdf.get_text_length(w, "helv", size) for w in title.split()) + gap * (len(title.split()) - 1)
        x += max(words, max(pymupdf.get_text_length(v[j], "helv", size) for _, v in ROWS)) + (gap if j else 0)
        rights[j] = x
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "The coefficient tests with sandwich standard errors are:", fontsize=10)
    y = 90.0
    for j in range(ncols):
        words = TITLES[j].split()
        pos = rights[j]
        for w in reversed(words):
            pos -= pymupdf.get_text_length(w, "helv", size)
            page.insert_text((pos, y), w, fontsize=size)
            pos -= gap
    for label, values in ROWS:
        y += size * 1.5
        page.insert_text((54, y), label, fontsize=size)
        for x1, v in zip(rights, values[:ncols]):
            page.insert_text((x1 - pymupdf.get_text_length(v, "helv", size), y), v, fontsize=size)
    page.insert_text((54, y + 30), "The squared income term is significant at the ten percent level.", fontsize=10)
    return doc.tobytes()


@pytest.mark.parametrize("ncols", [3, 4, 5])
@pytest.mark.parametrize("font", ["cour", "dejavu", "helv"])
def test_right_aligned_titles_name_the_numbers_under_them(tmp_path: Path, font: str, ncols: int) -> None:
    el = only_table(_spaced(ncols) if font == "helv" else _mono(ncols, font), tmp_path)
    t = el.table
    assert t is not None
    assert t.header == ["", *TITLES[:ncols]], t.markdown
    assert [r[0] for r in t.rows] == [label for label, _ in ROWS]
    assert t.rows[1] == ["Income", *ROWS[1][1][:ncols]]
    # the record of a row pairs each value with the title printed over it
    income = next(r for r in t.records if r.startswith("Income"))
    assert "Std. Error: 1243" in income and "Estimate: -1834" in income, income


@pytest.mark.parametrize("font", ["cour", "helv"])
def test_the_empty_stub_title_stays_empty(tmp_path: Path, font: str) -> None:
    el = only_table(_mono(4) if font == "cour" else _spaced(4), tmp_path)
    first = el.table.markdown.splitlines()[0]
    assert first.startswith("|  | Estimate | Std. Error |"), first
    assert "Col1" not in el.table.markdown


def test_left_aligned_titles_over_text_columns_keep_their_columns(tmp_path: Path) -> None:
    """Titles set flush left over columns of text (a name, a description), then right-aligned titles of
    two words over the amounts: the text columns keep their titles, the amounts theirs."""
    size = 9
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "Revenue by segment is set out below, with comparisons to the prior year.", fontsize=10)
    rows = [("Cloud", "Hosted services for business", "1,204", "998"),
            ("Devices", "Phones and tablets", "877", "901"),
            ("Gaming", "Consoles and content", "2,310", "2,118"),
            ("Search", "Advertising on search pages", "5,402", "4,990")]

    def right(x1: float, y: float, text: str) -> None:
        page.insert_text((x1 - pymupdf.get_text_length(text, "helv", size), y), text, fontsize=size)

    y = 110.0
    page.insert_text((54, y), "Segment name", fontsize=size)
    page.insert_text((150, y), "Description", fontsize=size)
    right(400, y, "Net sales")
    right(470, y, "Prior year")
    for name, desc, a, b in rows:
        y += 14
        page.insert_text((54, y), name, fontsize=size)
        page.insert_text((150, y), desc, fontsize=size)
        right(400, y, a)
        right(470, y, b)
    t = only_table(doc.tobytes(), tmp_path).table
    assert t.header == ["Segment name", "Description", "Net sales", "Prior year"], t.markdown
    assert t.rows[0] == ["Cloud", "Hosted services for business", "1,204", "998"]


def test_a_title_spanning_two_columns_still_spans_them(tmp_path: Path) -> None:
    """A centred group title over two right-aligned year titles is no column's own title."""
    size = 9
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "Results for the year are summarised below.", fontsize=10)

    def right(x1: float, y: float, text: str) -> None:
        page.insert_text((x1 - pymupdf.get_text_length(text, "helv", size), y), text, fontsize=size)

    title = "Year ended December 31"
    page.insert_text((435 - pymupdf.get_text_length(title, "helv", size) / 2, 100), title, fontsize=size)
    right(400, 112, "2023")
    right(470, 112, "2022")
    y = 112.0
    for label, a, b in [("Revenue", "1,204", "998"), ("Costs", "877", "901"), ("Net income", "327", "97")]:
        y += 14
        page.insert_text((54, y), label, fontsize=size)
        right(400, y, a)
        right(470, y, b)
    t = only_table(doc.tobytes(), tmp_path).table
    assert t.header[1:] == ["Year ended December 31 2023", "Year ended December 31 2022"], t.markdown


def test_titles_one_space_apart_between_rules_of_characters(tmp_path: Path) -> None:
    """The same printout typed between ``====`` / ``----`` rules (``table_mono``): the title line ran
    over every column, so the columns merged into one; each title now goes to the column it ends at."""
    titles = TITLES[:4]
    widths = [max(len(t), *(len(v[j]) for _, v in ROWS)) for j, t in enumerate(titles)]
    stub = max(len(label) for label, _ in ROWS) + 4
    head = " " * stub + " ".join(t.rjust(w) for t, w in zip(titles, widths))
    body = [label.ljust(stub) + " ".join(v.rjust(w) for v, w in zip(values, widths)) for label, values in ROWS]
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "The coefficient tests are below.", fontsize=10)
    y = 90.0
    for line in ["=" * len(head), head, "-" * len(head), *body, "=" * len(head)]:
        page.insert_text((54, y), line, fontname="cour", fontsize=9)
        y += 12
    t = only_table(doc.tobytes(), tmp_path).table
    assert t.finder == "monospace"
    assert t.header == ["", *titles], t.markdown
    assert t.rows[1] == ["Income", *ROWS[1][1][:4]]
