"""Build the printouts bench set: three PDFs of the kind statistics papers and data set manuals are made
of, written with PyMuPDF, for bench/data/printouts-questions.jsonl.

    .venv/bin/python bench/printouts_build.py ~/.cache/pagelens-printouts/pdfs
    .venv/bin/python bench/realdocs.py --no-naive --answers --misses --pdfs ~/.cache/pagelens-printouts/pdfs \
        --questions bench/data/printouts-questions.jsonl

* ``r-datasets.pdf``: a data set manual, one data set a page: a description, a list of its variables in
  R's documentation form ("[, 6]  wt  Weight (1000 lbs)") and a printout of its rows with the short
  column names ("mpg cyl disp hp ..."), of group means ("supp dose len" with R's row numbers), of a
  summary (one line of values under "Min. 1st Qu. Median ...");
* ``ordinal-wine.pdf``: a model printout: coefficients named by a variable joined to its level
  ("tempwarm", "contactyes"), thresholds named "1|2", "2|3";
* ``reader-paper.pdf``: a paper's ruled results table whose columns repeat one measure under two
  benchmarks ("SQuAD 1.1 F1", "SQuAD 2.0 F1") and a table of hyperparameters by model size.

Written while this round's table reading was developed (the questions are development questions, not a
check): the printouts are typed in Courier as R prints them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pymupdf

sys.path.insert(0, str(Path(__file__).resolve().parent))
from forms_build import build as build_documents  # noqa: E402  (a sibling script: one way to write a set)

MONO = 8.5


def _mono(page: pymupdf.Page, y: float, lines: list[str], x: float = 54) -> float:
    for line in lines:
        page.insert_text((x, y), line, fontname="cour", fontsize=MONO)
        y += 11
    return y


def _text(page: pymupdf.Page, y: float, text: str, height: float = 60, size: float = 10) -> float:
    page.insert_textbox(pymupdf.Rect(54, y, 560, y + height), text, fontsize=size)
    return y + height


def r_datasets(doc: pymupdf.Document) -> None:
    doc.set_metadata({"title": "The R Datasets Package"})
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "mtcars    Motor Trend Car Road Tests", fontsize=14)
    y = _text(page, 72, "Description: The data was extracted from the 1974 Motor Trend US magazine, and comprises "
              "fuel consumption and 10 aspects of automobile design and performance for 32 automobiles (1973-74 "
              "models).", 44)
    y = _text(page, y, "Format: A data frame with 32 observations on 11 (numeric) variables.", 20)
    y = _mono(page, y + 6, ["[, 1]  mpg   Miles/(US) gallon", "[, 2]  cyl   Number of cylinders",
                            "[, 3]  disp  Displacement (cu.in.)", "[, 4]  hp    Gross horsepower",
                            "[, 5]  drat  Rear axle ratio", "[, 6]  wt    Weight (1000 lbs)",
                            "[, 7]  qsec  1/4 mile time", "[, 8]  vs    Engine (0 = V-shaped, 1 = straight)",
                            "[, 9]  am    Transmission (0 = automatic, 1 = manual)",
                            "[,10]  gear  Number of forward gears", "[,11]  carb  Number of carburetors"])
    y = _text(page, y + 8, "Source: Henderson and Velleman (1981), Building multiple regression models "
              "interactively. Biometrics, 37, 391-411.", 30)
    _mono(page, y + 6, ["> head(mtcars)",
                        "                   mpg cyl disp  hp drat    wt  qsec vs am gear carb",
                        "Mazda RX4         21.0   6  160 110 3.90 2.620 16.46  0  1    4    4",
                        "Mazda RX4 Wag     21.0   6  160 110 3.90 2.875 17.02  0  1    4    4",
                        "Datsun 710        22.8   4  108  93 3.85 2.320 18.61  1  1    4    1",
                        "Hornet 4 Drive    21.4   6  258 110 3.08 3.215 19.44  1  0    3    1",
                        "Hornet Sportabout 18.7   8  360 175 3.15 3.440 17.02  0  0    3    2",
                        "Valiant           18.1   6  225 105 2.76 3.460 20.22  1  0    3    1"])
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "ToothGrowth    The Effect of Vitamin C on Tooth Growth in Guinea Pigs", fontsize=14)
    y = _text(page, 72, "Description: The response is the length of odontoblasts (cells responsible for tooth "
              "growth) in 60 guinea pigs. Each animal received one of three dose levels of vitamin C (0.5, 1, and "
              "2 mg/day) by one of two delivery methods, orange juice or ascorbic acid (a form of vitamin C and "
              "coded as VC).", 58)
    y = _text(page, y, "Format: A data frame with 60 observations on 3 variables.", 20)
    y = _mono(page, y + 6, ["[,1]  len   numeric  Tooth length", "[,2]  supp  factor   Supplement type (VC or OJ).",
                            "[,3]  dose  numeric  Dose in milligrams/day"])
    _mono(page, y + 12, ["> aggregate(len ~ supp + dose, data = ToothGrowth, mean)", "  supp dose   len",
                         "1   OJ  0.5 13.23", "2   VC  0.5  7.98", "3   OJ  1.0 22.70", "4   VC  1.0 16.77",
                         "5   OJ  2.0 26.06", "6   VC  2.0 26.14"])
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "iris    Edgar Anderson's Iris Data", fontsize=14)
    y = _text(page, 72, "Description: This famous (Fisher's or Anderson's) iris data set gives the measurements "
              "in centimeters of the variables sepal length and width and petal length and width, respectively, "
              "for 50 flowers from each of 3 species of iris.", 44)
    _mono(page, y + 6, ["> summary(iris$Sepal.Length)", "   Min. 1st Qu.  Median    Mean 3rd Qu.    Max. ",
                        "  4.300   5.100   5.800   5.843   6.400   7.900 "])


def ordinal_wine(doc: pymupdf.Document) -> None:
    page = doc.new_page(width=612, height=792)
    page.insert_text((54, 60), "4.1 Fitting a cumulative link model to the wine data", fontsize=13)
    y = _text(page, 72, "We fit a cumulative link model with a logit link to the bitterness ratings of the wine "
              "data, with temperature and contact as explanatory variables. The fitted model is summarized as "
              "follows.", 50)
    y = _mono(page, y + 6, ["R> fm1 <- clm(rating ~ temp + contact, data = wine)", "R> summary(fm1)",
                            "formula: rating ~ temp + contact", "data:    wine", "",
                            " link  threshold nobs logLik AIC    niter max.grad cond.H",
                            " logit flexible  72   -86.49 184.98 6(0)  4.01e-12 2.7e+01", "", "Coefficients:",
                            "           Estimate Std. Error z value Pr(>|z|)",
                            "tempwarm     2.5031     0.5287   4.735 2.19e-06 ***",
                            "contactyes   1.5278     0.4766   3.205  0.00135 **", "", "Threshold coefficients:",
                            "    Estimate Std. Error z value", "1|2  -1.3444     0.5171  -2.600",
                            "2|3   1.2508     0.4379   2.857", "3|4   3.4669     0.5978   5.800",
                            "4|5   5.0064     0.7309   6.850"])
    _text(page, y + 10, "Both effects point in the bitter direction; the thresholds increase, as they must.", 40)


def _ruled(page: pymupdf.Page, xs: list[float], y0: float, h: float, rows: list[tuple[str, ...]]) -> None:
    for i, row in enumerate(rows):
        y = y0 + i * h
        for j, cell in enumerate(row):
            page.insert_text((xs[j] + 4, y + h - 6), cell, fontsize=9)
    for i in range(len(rows) + 1):
        page.draw_line((xs[0], y0 + i * h), (xs[-1], y0 + i * h), width=0.6)
    for x in xs:
        page.draw_line((x, y0), (x, y0 + len(rows) * h), width=0.6)


def reader_paper(doc: pymupdf.Document) -> None:
    page = doc.new_page(width=612, height=792)
    page.insert_text((72, 60), "5 Experiments", fontsize=14)
    page.insert_textbox(pymupdf.Rect(72, 70, 540, 130), "Table 2 compares our reader with earlier systems on two "
                        "reading comprehension benchmarks. We report exact match (EM) and F1 on the development "
                        "sets.", fontsize=10)
    _ruled(page, [72, 190, 280, 370, 460, 550], 140, 20, [
        ("System", "SQuAD 1.1 EM", "SQuAD 1.1 F1", "SQuAD 2.0 EM", "SQuAD 2.0 F1"),
        ("BiDAF", "67.7", "77.3", "59.2", "62.1"), ("DrQA", "69.5", "78.8", "61.0", "64.3"),
        ("R-Net", "71.1", "79.5", "62.5", "65.8"), ("Ours (base)", "80.4", "87.9", "72.3", "75.6"),
        ("Ours (large)", "84.1", "90.9", "78.7", "81.9")])
    page.insert_textbox(pymupdf.Rect(72, 270, 540, 300), "Table 2: Results on the SQuAD development sets.", fontsize=9)
    page.insert_textbox(pymupdf.Rect(72, 310, 540, 400), "Training took 3 days on 8 GPUs for the large model and 20 "
                        "hours for the base model. The large model has 340M parameters.", fontsize=10)
    _ruled(page, [72, 220, 320, 420], 420, 20, [
        ("Hyperparameter", "Base", "Large"), ("Layers", "12", "24"), ("Hidden size", "768", "1024"),
        ("Attention heads", "12", "16"), ("Learning rate", "5e-5", "3e-5"), ("Batch size", "32", "48")])
    page.insert_textbox(pymupdf.Rect(72, 545, 540, 570), "Table 3: Hyperparameters of the two models.", fontsize=9)


BUILDERS = {"r-datasets.pdf": r_datasets, "ordinal-wine.pdf": ordinal_wine, "reader-paper.pdf": reader_paper}


def build(out: Path) -> list[Path]:
    return build_documents(out, BUILDERS)


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else Path.home() / ".cache" / "pagelens-printouts" / "pdfs")
    for p in build(target):
        print(p)
