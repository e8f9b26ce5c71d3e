"""Program output printed in monospace without rules of characters is read as tables (``table_printout``).

Statistics papers and manuals print R / Python output as typed lines ("Fixed effects:", titles
right-aligned over the numbers, a label column, values one space apart); before, these lines came back
as loose text, so a question for "the estimate for Days" could not connect the row with its column.
Pages are built with PyMuPDF in Courier (whole lines typed as strings, as a printout is set) and read
through ``tables.extract_tables`` as the pipeline reads them; the pipeline test checks that the rows
are claimed by the table and do not come back as text too. Code listings must stay text.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf
import pytest
from table_support import page_tables

from pagelens.ingest.pipeline import Ingestor
from pagelens.ingest.table_printout import has_printout
from pagelens.models import ElementKind
from pagelens.settings import Settings
from pagelens.store.catalog import Catalog
from pagelens.store.images import ImageStore

SIZE = 9
LEAD = 12.0  # baseline to baseline: a printout's lines, no blank line between them

FIXED = [
    "Fixed effects:",
    "            Estimate Std. Error t value",
    "(Intercept)   251.41       6.82   36.84",
    "Days           10.47       1.55    6.77",
]
# R prints a matrix's columns one space apart when the values are as wide as their titles
FORECAST = [
    "     Point Forecast    Lo 80    Hi 80    Lo 95    Hi 95",
    "2004       3900.329 3770.801 4029.857 3702.233 4098.425",
    "2005       3952.650 3747.279 4158.022 3638.562 4266.738",
    "2006       4004.972 3725.589 4284.355 3577.692 4432.251",
]
CODE = [
    "fit <- lmer(Reaction ~ Days + (Days | Subject), sleepstudy)",
    "for (i in 1:10) {",
    "    x[i] <- 2 * i + 1",
    "}",
    "plot(x, ylim = c(0, 25), col = 2)",
]
PROMPTS = [
    "> x <- c(1.5, 2.25, 3.0)",
    "> y <- 10 20 30",
    "+   0.5 0.25 0.125",
    "> mean(x)",
]


def _page(doc: pymupdf.Document, *blocks: list[str], prose: bool = True) -> None:
    """A page of prose with printout blocks between paragraphs, each block typed line by line."""
    page = doc.new_page(width=612, height=792)
    y = 60.0
    for lines in blocks:
        if prose:
            page.insert_text((54, y), "The model summary printed by the software is shown below.", fontsize=10)
            y += 28
        for line in lines:
            page.insert_text((54, y), line, fontname="cour", fontsize=SIZE)
            y += LEAD
        y += 20
    page.insert_text((54, y + 10), "Note that there are no p values in this output.", fontsize=10)


def _pdf(*blocks: list[str]) -> bytes:
    doc = pymupdf.open()
    _page(doc, *blocks)
    return doc.tobytes()


def _tables(data: bytes, tmp_path: Path) -> list:
    return [e for e in page_tables(data, tmp_path) if e.table is not None and e.table.finder == "monospace"]


def test_a_coefficient_printout_is_a_table_with_its_titles_and_caption(tmp_path: Path) -> None:
    els = page_tables(_pdf(FIXED), tmp_path)
    assert len(els) == 1, [e.text[:80] for e in els]
    t = els[0].table
    assert t.finder == "monospace"
    assert t.header == ["", "Estimate", "Std. Error", "t value"], t.markdown
    assert t.rows == [["(Intercept)", "251.41", "6.82", "36.84"], ["Days", "10.47", "1.55", "6.77"]]
    assert t.caption == "Fixed effects"
    days = next(r for r in t.records if r.startswith("Days"))
    assert "Estimate: 10.47" in days and "t value: 6.77" in days, days


def test_values_one_space_apart_are_separate_columns(tmp_path: Path) -> None:
    (el,) = _tables(_pdf(FORECAST), tmp_path)
    t = el.table
    assert t.header[1:] == ["Point Forecast", "Lo 80", "Hi 80", "Lo 95", "Hi 95"], t.markdown
    assert t.rows[1] == ["2005", "3952.650", "3747.279", "4158.022", "3638.562", "4266.738"]


def test_knitr_output_is_read_without_its_prefix_and_its_code_stays_out(tmp_path: Path) -> None:
    block = [
        "summary(fit)$coefficients",
        "##             Estimate Std. Error t value",
        "## (Intercept)    0.138      0.051    2.71",
        "## income        -0.004      0.001   -4.02",
        "## age            <NA>       0.113    1.10",
    ]
    (el,) = _tables(_pdf(block), tmp_path)
    t = el.table
    assert t.header == ["", "Estimate", "Std. Error", "t value"], t.markdown
    assert [r[0] for r in t.rows] == ["(Intercept)", "income", "age"]
    assert t.rows[1] == ["income", "-0.004", "0.001", "-4.02"]
    assert t.rows[2][1] == "<NA>"
    assert not any("summary" in c or "##" in c for r in [t.header, *t.rows] for c in r)


def test_input_lines_end_a_table_and_are_not_rows(tmp_path: Path) -> None:
    block = ["> fixef(fm1)", *FIXED[1:], "> nobs(fm1)", "[1] 180"]
    (el,) = _tables(_pdf(block), tmp_path)
    assert [r[0] for r in el.table.rows] == ["(Intercept)", "Days"]


@pytest.mark.parametrize("lines", [CODE, PROMPTS], ids=["listing", "prompts"])
def test_code_listings_are_not_tables(lines: list[str], tmp_path: Path) -> None:
    data = _pdf(lines)
    assert has_printout(pymupdf.open(stream=data, filetype="pdf")[0].get_text("dict"))  # the gate lets it through
    assert page_tables(data, tmp_path) == []


def test_prose_page_does_not_pass_the_gate() -> None:
    doc = pymupdf.open()
    page = doc.new_page(width=612, height=792)
    for i in range(30):
        page.insert_text((54, 60 + 14 * i), f"Line {i} of ordinary prose, with 3 numbers 4.5 and 6.", fontsize=10)
    assert not has_printout(page.get_text("dict"))


@pytest.fixture
def stored(tmp_path: Path, settings: Settings) -> list:
    doc = pymupdf.open()
    _page(doc, ["> summary(fm1)", *FIXED], CODE)
    path = tmp_path / "mixed-models.pdf"
    doc.save(path)
    s = settings.with_overrides(**{"ingest.ocr": "off"})
    ingestor = Ingestor(s.ingest, Catalog(s.home / "catalog.sqlite3"), ImageStore(s.home / "images"))
    result = ingestor.ingest_file(path)
    assert result.status == "indexed", result.error
    return list(ingestor.catalog.iter_elements(result.doc_id))


def test_the_pipeline_claims_the_printout_lines_for_the_table(stored: list) -> None:
    tables_ = [e for e in stored if e.kind == ElementKind.TABLE]
    assert len(tables_) == 1
    assert tables_[0].table.caption == "summary(fm1): Fixed effects"  # the input line, then the section title
    loose = " ".join(e.text for e in stored if e.kind != ElementKind.TABLE)
    assert "251.41" not in loose and "Std. Error" not in loose and "Fixed effects" not in loose, loose
    assert "summary(fm1)" in loose and "ylim" in loose  # input and code stay text


@pytest.mark.parametrize(("block", "caption", "header", "row"), [
    # the input line that printed the output names the table
    (["> svytotal(~stype, dclus1)", "          total      SE", "stypeE  4873.97 1333.32",
      "stypeH   473.86  158.70", "stypeM   846.17  167.55"],
     "svytotal(~stype, dclus1)", ["", "total", "SE"], (1, ["stypeH", "473.86", "158.70"])),
    # a caption line over the titles is not a title row
    (["Analysis of Variance Table", "              npar Sum Sq Mean Sq F value",
      "polyDays[, 1]    1  23875   23875   46.08", "polyDays[, 2]    1    340     340    0.66"],
     "Analysis of Variance Table", ["", "npar", "Sum Sq", "Mean Sq", "F value"],
     (0, ["polyDays[, 1]", "1", "23875", "23875", "46.08"])),
])
def test_the_caption_comes_from_the_input_line_or_a_line_over_the_titles(
    block: list[str], caption: str, header: list[str], row: tuple[int, list[str]], tmp_path: Path
) -> None:
    (el,) = _tables(_pdf(block), tmp_path)
    t = el.table
    assert t.caption == caption
    assert t.header == header, t.markdown
    assert t.rows[row[0]] == row[1]


def test_one_line_of_values_needs_titles_ending_over_them(tmp_path: Path) -> None:
    titled = ["        mean     SE", "api00 644.17 23.542"]  # R sets each title flush right over its value
    (el,) = _tables(_pdf(titled), tmp_path)
    assert el.table.header == ["", "mean", "SE"] and el.table.rows == [["api00", "644.17", "23.542"]]
    assert _tables(_pdf(["      mean   SE", "api00 644.17 23.542"]), tmp_path) == []  # titles flush left
    assert _tables(_pdf(["api00 644.17 23.542"]), tmp_path) == []  # no titles


def test_both_parts_of_a_wide_vector_keep_its_title(tmp_path: Path) -> None:
    block = [
        "Coefficients:",
        "demand_(Intercept)       demand_price      demand_income",
        "         99.895423          -0.316299           0.334636",
        "      supply_price   supply_farmPrice       supply_trend",
        "          0.160367           0.248133           0.248302",
    ]
    found = _tables(_pdf(block), tmp_path)
    assert [e.table.caption for e in found] == ["Coefficients", "Coefficients"]
    assert found[0].table.header == ["demand_(Intercept)", "demand_price", "demand_income"], found[0].table.markdown
    assert found[1].table.rows == [["0.160367", "0.248133", "0.248302"]]
    assert "demand_(Intercept): 99.895423" in found[0].table.records[0]


def test_rows_continued_on_the_next_page_without_titles_keep_their_year_labels(tmp_path: Path) -> None:
    (el,) = _tables(_pdf(FORECAST[2:] + ["2007       4057.293 3701.885 4412.701 3513.743 4600.842"]), tmp_path)
    assert [r[0] for r in el.table.rows] == ["2005", "2006", "2007"]
    assert el.table.rows[2][1:] == ["4057.293", "3701.885", "4412.701", "3513.743", "4600.842"]


def test_a_pandas_frame_printed_in_parts_under_a_notebook_prompt(tmp_path: Path) -> None:
    block = [
        "[6]: print(data.exog.head())",
        "     LOWINC   PERASIAN  ...   AVSALK  \\",
        "0  34.39730  23.299300  ...  59.15732",
        "1  17.36507  29.328380  ...  59.50397",
        "2  32.64324   9.226386  ...  60.56992",
    ]
    (el,) = _tables(_pdf(block), tmp_path)
    t = el.table
    assert t.caption == "print(data.exog.head())"
    assert t.header[1:] == ["LOWINC", "PERASIAN", "...", "AVSALK"], t.markdown
    assert t.rows[1] == ["1", "17.36507", "29.328380", "...", "59.50397"]


def test_a_printout_heading_between_the_command_and_the_table_joins_its_caption(tmp_path: Path) -> None:
    # knitr output of a test: the command, the test's name, its models, then the table (fresh2's systemfit
    # paper prints an F test, two Wald tests and a likelihood ratio test alike; only the heading tells them apart)
    block = [
        "lrtest( fitsurRmat, fitsur )",
        "## Likelihood ratio test",
        "##",
        "## Model 1: fitsurRmat",
        "## Model 2: fitsur",
        "##   #Df  LogLik Df  Chisq Pr(>Chisq)",
        "## 1   9 -52.117",
        "## 2  10 -51.614  1 1.0043     0.3163",
    ]
    (el,) = _tables(_pdf(block), tmp_path)
    assert el.table.caption == "lrtest( fitsurRmat, fitsur ): Likelihood ratio test", el.table.caption
    assert el.table.rows[-1][-1] == "0.3163", el.table.markdown


def test_a_message_with_a_count_is_no_printout_heading(tmp_path: Path) -> None:
    block = [
        "> fit",
        "convergence achieved after 18 iterations",
        "Coefficients:",
        "            Estimate Std. Error t value",
        "(Intercept)   251.41       6.82   36.84",
        "Days           10.47       1.55    6.77",
    ]
    (el,) = _tables(_pdf(block), tmp_path)
    assert "iterations" not in (el.table.caption or ""), el.table.caption
