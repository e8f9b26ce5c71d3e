"""The extractive answerer reads a table cell at the row the question names × the column it names
(``pagelens.answer.cells``), and withholds the answer when the table lacks the asked row or year.

Three tables are built with PyMuPDF and ingested through the app (OCR off, no answer cache): a ruled
statement with a header band of years and section rows ("Revenue › Services" beside "Revenue ›
Products"), a ruled parts list with several value columns, and a borderless (whitespace-aligned)
regional table on its own page. Each answer must quote the asked cell's value with the page it is on,
and not a neighbouring column's or row's; a year or a row the table does not hold must be abstained on.
"""

from __future__ import annotations

import re
from pathlib import Path

import pymupdf
import pytest

from index_support import ingested_app
from pdf_support import draw_ruled_table

STATEMENT = [
    ("(in millions)", "2023", "2022", "2021"),
    ("Revenue", "", "", ""),
    ("Products", "4,812", "4,377", "3,905"),
    ("Services", "2,614", "2,208", "1,871"),
    ("Total revenue", "7,426", "6,585", "5,776"),
    ("Operating expenses", "", "", ""),
    ("Research and development", "1,137", "1,019", "944"),
    ("Sales and marketing", "862", "803", "751"),
    ("Total operating expenses", "1,999", "1,822", "1,695"),
]
PARTS = [
    ("Part number", "Thread", "Cable range (mm)", "Max torque (Nm)"),
    ("KX-16", "M16x1.5", "4.5 - 10.0", "6"),
    ("KX-25", "M25x1.5", "9.0 - 17.0", "12"),
    ("KX-40", "M40x1.5", "16.0 - 28.0", "22"),
    ("KX-63", "M63x1.5", "34.0 - 48.0", "44"),
]
REGIONS = [
    ("Region", "Stores", "Employees", "Floor area (m2)"),
    ("Northern", "48", "1,310", "52,400"),
    ("Southern", "61", "1,745", "66,900"),
    ("Eastern", "37", "1,022", "41,300"),
    ("Western", "55", "1,598", "60,100"),
]


def _report(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 60, 540, 120),
                        "Harbor Components Inc. annual report. The statement below sets out the results of the "
                        "last three fiscal years.", fontsize=10)
    page.insert_text((72, 140), "Table 1: Consolidated statement of operations", fontsize=10)
    draw_ruled_table(page, [72, 280, 360, 440, 520], 150, 20, STATEMENT)
    page.insert_textbox(pymupdf.Rect(72, 350, 540, 420),
                        "Revenue grew in every year, led by services. Operating expenses rose more slowly than "
                        "revenue.", fontsize=10)
    page.insert_text((72, 450), "Table 2: Cable gland dimensions", fontsize=10)
    draw_ruled_table(page, [72, 170, 260, 390, 520], 460, 20, PARTS)
    page = doc.new_page()
    page.insert_textbox(pymupdf.Rect(72, 60, 540, 120),
                        "Stores and staff by region at the end of the year. The regions are served by "
                        "separate distribution centres.", fontsize=10)
    page.insert_text((72, 140), "Table 3: Regional operations", fontsize=10)
    xs = [72, 220, 320, 440]  # no rules: columns aligned by whitespace only
    for r, row in enumerate(REGIONS):
        for x, value in zip(xs, row):
            page.insert_text((x, 170 + 18 * r), value, fontsize=10)
    page.insert_textbox(pymupdf.Rect(72, 280, 540, 340),
                        "Headcount includes part-time staff counted as full-time equivalents.", fontsize=10)
    doc.save(path)
    doc.close()
    return path


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("cells")
    with ingested_app(root, [_report(root / "harbor-annual-report.pdf")], answer_cache=False) as app:
        yield app


def _pages(answer: str) -> set[int]:
    return {int(p) for p in re.findall(r"p\.(\d+)\]", answer)}


@pytest.mark.parametrize(("question", "value", "wrong", "page"), [
    # section row × a year of the header band (not Products, not another year)
    ("What was the revenue from services in 2022?", "2,208", ("4,377", "2,614", "1,871"), 1),
    ("How much did Harbor Components spend on research and development in 2021?", "944", ("1,019", "1,137"), 1),
    ("What was total revenue in 2023?", "7,426", ("4,812", "2,614"), 1),
    ("How much was spent on sales and marketing in 2022?", "803", ("1,019", "751"), 1),  # a verb asks
    # several value columns: the column the question names, not the row's first value
    ("What is the maximum torque for the M63x1.5 cable gland?", "44", ("34.0 - 48.0", "22"), 1),
    ("What cable range does the KX-25 gland take?", "9.0 - 17.0", ("4.5", "12"), 1),
    # "maximum" names the column here, the row is named: not the largest value of the column
    ("What is the maximum torque of the KX-16 gland?", "6", ("44", "12", "22"), 1),
    # borderless table on page 2
    ("How many employees does the Southern region have?", "1,745", ("61", "66,900", "1,310"), 2),
    ("What floor area do the Eastern region's stores cover?", "41,300", ("1,022", "37"), 2),
])
def test_the_answer_quotes_the_asked_cell_with_its_page(app, question, value, wrong, page):
    ans = app.ask(question)
    assert not ans.abstained, ans.answer
    first = ans.answer.split("]")[0]  # the best snippet and its citation
    assert value in first, ans.answer
    assert not any(w in first.replace(value, "") for w in wrong), ans.answer
    assert not any(w in ans.answer.replace(value, "") for w in wrong[:1]), ans.answer  # nor a neighbour after it
    assert page in _pages(first + "]"), ans.answer


@pytest.mark.parametrize("question", [
    "What was the revenue from services in 2019?",  # a year the header band does not hold
    "How much did Harbor Components spend on research and development in 2018?",
    "How many employees does the Central region have?",  # a row the table does not hold
    "What is the maximum torque for the KX-32 cable gland?",
])
def test_an_absent_year_or_row_is_abstained_on(app, question):
    ans = app.ask(question)
    assert ans.abstained, ans.answer


def _rows(header: list[str], body: list[tuple[str, ...]]):
    from pagelens.answer.candidates import _row_candidates

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return [c for c in _row_candidates(lines, "", 0, 1) if c.kind == "row"]


def test_the_read_picks_the_row_and_year_and_marks_an_absent_one():
    from pagelens.answer import cells
    from pagelens.answer import text as tx

    rows = _rows(list(STATEMENT[0]), STATEMENT[1:])

    def read(q: str) -> cells.Cell:
        cell = cells.read(q, tx.content_terms(q), rows)
        assert cell is not None
        return cell

    cell = read("What was the revenue from services in 2021?")
    assert (cells.key(cell.row).split(" › ")[-1], cell.value, cell.named, cell.absent) == ("Services", "1,871", True, False)
    assert read("What was the revenue from services in 2019?").absent  # no 2019 column
    assert read("What were licensing fees in 2022?").absent  # no such row
    shells = _rows(["Package", "Description", "popcon", "size"],
                   [("bash", "GNU Bourne Again SHell", "V:821, I:999", "7175"),
                    ("debianutils", "miscellaneous utilities specific to Debian", "V:919, I:999", "243"),
                    ("zsh", "Z shell: the standard shell with many enhancements", "V:40, I:73", "2436")])
    fish = cells.read("What popcon values does the Debian list give for the fish shell?",
                      tx.content_terms("What popcon values does the Debian list give for the fish shell?"), shells)
    assert fish is not None and fish.absent  # "debian" does not name debianutils, "shell" every row


def test_a_two_level_header_names_its_column_by_its_own_words() -> None:
    from pagelens.answer import text as tx

    # a bank's table: two spanning group headers over their columns
    header = ["($ in millions)", "Principal forgiveness", "Interest rate reduction",
              "Primary modification type (1) Other concessions (2)", "Primary modification type (1) Total",
              "Financial effects of modifications Weighted average interest rate reduction",
              "Financial effects of modifications Recorded investment related to interest rate reduction (4)"]
    assert tx.own_name(header, 3) == "Other concessions (2)"
    assert tx.own_name(header, 5) == "Weighted average interest rate reduction"
    assert tx.own_name(header, 2) == "Interest rate reduction"  # nothing shared with a neighbour
    q = tx.content_terms("What was the weighted average interest rate reduction for credit card loans in 2021?")
    assert tx.best_column(header, q) == 5  # not the shorter "Interest rate reduction" it holds
    q = tx.content_terms("How much fell under other concessions in 2020?")
    assert tx.best_column(header, q) == 3
    # parallel names: what tells them apart sits between the words they repeat
    header = ["Period", "Total Number of Class A Shares Purchased (in thousands)",
              "Total Number of Class C Shares Purchased (in thousands)", "Average Price Paid per Class A Share",
              "Average Price Paid per Class C Share"]
    assert tx.own_name(header, 2) == "C"
    assert tx.own_name(header, 4) == "C"
    q = tx.content_terms("How many Class C shares, in thousands, did Alphabet buy back in November?")
    assert tx.best_column(header, q) == 2  # not the average price, whose name is shorter
    q = tx.content_terms("What average price per Class C share did Alphabet pay in November?")
    assert tx.best_column(header, q) == 4


def test_a_row_of_acronyms_is_named_by_the_words_they_stand_for():
    from pagelens.answer import cells
    from pagelens.answer import text as tx

    rows = _rows(["Tasks", "MNLI-m (Acc)", "QNLI (Acc)", "MRPC (Acc)"],
                 [("BERT BASE", "84.4", "88.4", "86.7"), ("No NSP", "83.9", "84.9", "86.5"),
                  ("LTR & No NSP", "82.1", "84.3", "77.5"), ("+ BiLSTM", "82.1", "84.1", "75.7")])
    q = "What MRPC accuracy does the left-to-right model trained without next-sentence prediction get?"
    cell = cells.read(q, tx.content_terms(q), rows)
    assert cell is not None and (cell.row.label, cell.value) == ("LTR & No NSP", "77.5")
    q = "What MRPC accuracy does the model trained without next-sentence prediction get?"
    cell = cells.read(q, tx.content_terms(q), rows)
    assert cell is not None and (cell.row.label, cell.value) == ("No NSP", "86.5")


COSTS = [
    ("Pathway", "Unit cost (£)", "Number of persons", "Total cost (£)"),
    ("Non-reflex pathway", "", "", ""),
    ("Anti-HCV test", "7.4", "236 185", "1 747 769"),
    ("Referral of anti-HCV positives", "75", "6001", "450 075"),
    ("HCV RNA test", "64.2", "6001", "385 264"),
    ("Total", "", "", "2 583 108"),
    ("Reflex pathway", "", "", ""),
    ("Anti-HCV test", "7.4", "236 185", "1 747 769"),
    ("HCV RNA test on anti-HCV positives", "64.2", "6001", "385 264"),
    ("Referral of HCV RNA positives", "75", "3781", "283 575"),
    ("Total", "", "", "2 416 608"),
]


def test_a_word_may_name_the_row_and_the_column_both(tmp_path):
    """'Total' names the row and, with 'cost', the column "Total cost": the section's Total row is quoted
    in that column, ahead of its sibling rows that repeat more of the question's words ("*test*")."""
    from pagelens.answer import cells
    from pagelens.answer import text as tx

    rows = _rows(list(COSTS[0]), COSTS[1:])
    q = "What was the total cost in pounds of the reflex testing pathway?"
    cell = cells.read(q, tx.content_terms(q), rows)
    assert cell is not None and (cells.key(cell.row), cell.value) == ("Reflex pathway › Total", "2 416 608")
    with ingested_app(tmp_path, [_costs_pdf(tmp_path)], answer_cache=False) as app:
        ans = app.ask(q)
    assert not ans.abstained, ans.answer
    first = ans.answer.split("]")[0]
    assert "2 416 608" in first and "1 747 769" not in first, ans.answer


def _costs_pdf(folder: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 70), "Table 7: Costs of the testing programme by pathway", fontsize=10)
    draw_ruled_table(page, [60, 250, 340, 450, 550], 80, 20, COSTS, size=9)
    page.insert_textbox(pymupdf.Rect(72, 330, 540, 400), "Reflex testing runs the RNA test on the same sample, "
                        "so fewer people are referred before their infection is confirmed.", fontsize=10)
    doc.save(folder / "hcv-testing-costs.pdf")
    doc.close()
    return folder / "hcv-testing-costs.pdf"


def test_a_table_whose_best_named_row_is_a_sibling_lacks_the_asked_row(tmp_path):
    """"An HCV *core antigen* test" is no row of a table whose tests are "Anti-HCV test" and "HCV RNA test"
    (a hyphenated modifier names a sibling too): the table lacks the asked row, and nothing is answered;
    the RNA test it has is read."""
    with ingested_app(tmp_path, [_costs_pdf(tmp_path)], answer_cache=False) as app:
        missing = app.ask("In the reflex pathway, what unit cost in pounds is given for an HCV core antigen test?")
        present = app.ask("In the reflex pathway, what unit cost in pounds is given for an HCV RNA test?")
    assert missing.abstained, missing.answer
    assert not present.abstained and "64.2" in present.answer.split("]")[0], present.answer


def test_at_the_cap_the_named_cell_leads_its_table():
    from pagelens.answer.extractive import _named_cell_first

    rows = _rows(list(COSTS[0]), COSTS[1:])
    total = next(r for r in rows if r.text.startswith("Reflex pathway › Total"))
    sibling = next(r for r in rows if r.text.startswith("Reflex pathway › Anti-HCV test"))
    for r in rows:
        r.score = 1.0  # capped: the cell's bonus no longer shows
    total.column = 3  # the cell the table read names
    pool = [sibling, total, rows[0]]
    assert rows[0] not in (sibling, total)
    assert _named_cell_first(pool)[0] is total
    total.score = 0.9  # weaker: the ranking stands
    assert _named_cell_first(pool)[0] is sibling
    other = _rows(["Region", "Stores"], [("Northern", "48")])[0]
    other.score, other.column = 1.0, 1
    assert _named_cell_first([sibling, other])[0] is sibling  # another table's cell: not this table's reading
