"""A table's short column names read through the document's list of variables (``answer.glossary``):
"the *weight* of the Mazda RX4 Wag" is the "wt" column that R's documentation spells out as "[, 6] wt
Weight (1000 lbs)"; a codebook's "PERSPENK - Per-pupil spending (in thousands)" likewise. Without it no
column is named and the whole row, or another column, is quoted."""

from __future__ import annotations


import pytest

from index_support import ingested_app
from pdf_support import printout_pdf
from pagelens.answer import glossary
from pagelens.answer import text as tx

VARIABLES = ["[, 1]  mpg   Miles/(US) gallon", "[, 2]  cyl   Number of cylinders", "[, 3]  disp  Displacement (cu.in.)",
             "[, 4]  hp    Gross horsepower", "[, 5]  drat  Rear axle ratio", "[, 6]  wt    Weight (1000 lbs)",
             "[, 7]  qsec  1/4 mile time", "[, 8]  gear  Number of forward gears"]
PRINTOUT = ["> head(cars)",
            "                   mpg cyl disp  hp drat    wt  qsec gear",
            "Mazda RX4         21.0   6  160 110 3.90 2.620 16.46    4",
            "Mazda RX4 Wag     21.0   6  160 110 3.90 2.875 17.02    4",
            "Datsun 710        22.8   4  108  93 3.85 2.320 18.61    4",
            "Hornet 4 Drive    21.4   6  258 110 3.08 3.215 19.44    3",
            "Valiant           18.1   6  225 105 2.76 3.460 20.22    3"]


CARS = dict(lines=VARIABLES + [""] + PRINTOUT, heading="cars    Road Tests of 1974 Cars",
            intro="Description: fuel consumption and aspects of design and performance of 1973-74 car models. "
                  "Format: a data frame with 8 numeric variables.")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("glossary")
    with ingested_app(root, [printout_pdf(root / "car-road-tests.pdf", CARS)], answer_cache=False) as a:
        yield a


@pytest.mark.parametrize(("question", "cell"), [
    ("What is the weight of the Mazda RX4 Wag?", "wt: 2.875"),
    ("What is the quarter mile time of the Hornet 4 Drive?", "qsec: 19.44"),
    ("What gross horsepower does the Datsun 710 have?", "hp: 93"),
])
def test_a_column_is_named_by_the_words_its_variable_list_spells_it_out_in(app, question, cell):
    ans = app.ask(question)
    assert not ans.abstained, ans.answer
    assert ans.answer.split(" [")[0].endswith(cell), ans.answer


def test_entries_of_a_variable_list_and_a_codebook_are_read():
    r_doc = "[, 1] mpg Miles/(US) gallon [, 6] wt Weight (1000 lbs) [, 7] qsec 1/4 mile time > head(cars)"
    codebook = ("LOWINC - Percentage of low income students PERSPENK - Per-pupil spending (in thousands) "
                "PTRATIO - Pupil-teacher ratio. PCTAF - Percentage of students taking prep courses")
    found = glossary.definitions([r_doc, codebook], ["mpg", "wt", "qsec", "PERSPENK", "PTRATIO", "LOGLIK"])
    assert found == {"mpg": "Miles/(US) gallon", "wt": "Weight (1000 lbs)", "qsec": "1/4 mile time",
                     "PERSPENK": "Per-pupil spending (in thousands)", "PTRATIO": "Pupil-teacher ratio"}


def test_a_name_used_inside_code_is_no_entry():
    assert glossary.definitions(["fit <- lm(wt ~ hp, data = cars); plot(wt, mpg)"], ["wt", "hp", "mpg"]) == {}


def test_the_best_stated_definition_names_its_column_only():
    defs = {"mpg": "Miles/(US) gallon", "qsec": "1/4 mile time", "wt": "Weight (1000 lbs)"}
    assert glossary.named_by(tx.content_terms("What is the quarter mile time of the Valiant?"), defs) == ["qsec"]
    assert glossary.named_by(tx.content_terms("How many miles per gallon does the Valiant get?"), defs) == ["mpg"]
    # A question that uses the name itself needs no gloss; one that states no definition gets none.
    assert glossary.named_by(tx.content_terms("What is the wt of the Valiant?"), defs) == []
    assert glossary.named_by(tx.content_terms("Which car is the oldest?"), defs) == []
