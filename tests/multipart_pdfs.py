"""Report-like and paper-like PDFs for the multi-part retrieval tests, built with PyMuPDF.

Filings: an SEC cover naming company, form and fiscal year, then one metric per page, then look-alike
pages that use every metric's words without a number (a long filing's discussion), so the pages
that mention *all* of a question's words are never the ones holding its facts.
Papers: two papers that each report their own training setup on several pages.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

METRICS = [  # (heading, sentence with the value)
    ("Item 7. Liquidity and Capital Resources", "Capital expenditures were ${capex} million, mostly for new plants."),
    ("Item 7A. Market Risk", "Interest expense was ${interest} million for the year."),
    ("Item 8. Results of Operations", "Net revenue was ${revenue} million, as demand recovered in every region."),
    ("Item 5. Market for Common Equity", "The board declared dividends of ${dividend} per share during the year."),
]
METRIC_PAGE = {"capex": 2, "interest": 3, "revenue": 4, "dividend": 5}  # 1-based pages
LOOKALIKE = ("Management's discussion, part {i}", "This part discusses {topic} for the fiscal year. Capital "
             "expenditures, interest expense, net revenue and dividends per share are discussed in the sections "
             "that follow; this part compares {topic} with prior years and with the plans of management.")
TOPICS = ["segment results", "pricing", "freight", "currency effects", "tax matters", "pension plans", "leases", "goodwill"]


def filing(path: Path, company: str, year: int, values: dict[str, str], lookalike: int = 8) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    lines = ["UNITED STATES SECURITIES AND EXCHANGE COMMISSION", "FORM 10-K",
             "ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934",
             f"For the fiscal year ended December 31, {year}", company,
             "(Exact name of registrant as specified in its charter)"]
    for i, line in enumerate(lines):
        page.insert_text((60, 90 + 26 * i), line, fontsize=18 if line == company else 10)
    for heading, body in METRICS:
        page = doc.new_page()
        page.insert_text((60, 80), heading, fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), body.format(**values), fontsize=11)
    for i in range(lookalike):
        page = doc.new_page()
        page.insert_text((60, 80), LOOKALIKE[0].format(i=i + 1), fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 400), LOOKALIKE[1].format(topic=TOPICS[i % len(TOPICS)]), fontsize=11)
    doc.save(path)
    doc.close()
    return path


def paper(path: Path, title: str, pages: list[tuple[str, str]]) -> Path:
    """A paper: a title page, then one (heading, text) per page."""
    doc = pymupdf.open()
    doc.set_metadata({"title": title})
    page = doc.new_page()
    page.insert_text((60, 90), title, fontsize=16)
    page.insert_textbox(pymupdf.Rect(60, 120, 540, 400), "Abstract. " + pages[0][1], fontsize=11)
    for heading, text in pages[1:]:
        page = doc.new_page()
        page.insert_text((60, 80), heading, fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 500), text, fontsize=11)
    doc.save(path)
    doc.close()
    return path


ZEPHYR = ("Zephyr: Small Language Models for Legal Text", [
    ("", "We present Zephyr, a family of small language models trained on court rulings."),
    ("2 Pre-training", "Zephyr is pre-trained for 200,000 steps with a learning rate of 3e-4 and a batch size of 512 "
     "sequences; the learning rate is warmed up over the first 2,000 steps."),
    ("3 Fine-tuning", "For fine-tuning we lower the learning rate to 2e-5 and train for three epochs."),
    ("4 Learning rate ablation", "Raising the learning rate above 1e-3 makes the loss diverge; the learning rate "
     "schedule matters more than the batch size."),
    ("5 Results", "Zephyr matches larger models on the legal benchmarks when the learning rate is tuned."),
    ("6 Discussion", "The learning rate and warm-up were the settings most worth tuning in our experiments."),
    ("7 Limitations", "We did not study learning rate schedules beyond linear decay."),
])
HERON = ("Heron: Training Image Classifiers on a Budget", [
    ("", "We describe Heron, a recipe for training image classifiers on one GPU."),
    ("2 Setup", "Heron trains with stochastic gradient descent at a learning rate of 0.1, divided by ten at epochs "
     "30 and 60, with a batch size of 256 images."),
    ("3 Data", "We use the standard crops and flips for augmentation."),
])
