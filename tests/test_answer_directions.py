"""Directions about the answer ("Answer in USD millions.", "Round your answer to two decimal places.",
"Assume that you are a public equities analyst.", "(in USD millions)") are set aside by the extractive
answerer, which quotes a span and would otherwise look for "USD" and "decimal places" in its sources.
Real parser, MiniLM and qdrant-edge on the 10-K-like filing of ``statement_pdfs``."""

from __future__ import annotations

import pytest

from pagelens.answer.directions import asked

from statement_pdfs import ingested_filing


def test_directions_are_set_aside_and_the_question_kept():
    assert asked("What were total assets at the end of 2018? Answer in USD millions.") == \
        "What were total assets at the end of 2018?"
    assert asked("What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the "
                 "question by relying on the details shown in the cash flow statement.") == \
        "What is the FY2018 capital expenditure amount for 3M?"
    assert asked("Assume that you are a public equities analyst. Answer the following question by primarily using "
                 "information that is shown in the balance sheet: what is the year end FY2018 net PPNE for 3M? "
                 "Answer in USD billions.") == "what is the year end FY2018 net PPNE for 3M?"
    assert asked("What was Acme's revenue in 2018? (Answer briefly.)") == "What was Acme's revenue in 2018?"
    assert asked("What drove operating margin change as of FY2022? If operating margin is not a useful metric, "
                 "then please state that and explain why.") == "What drove operating margin change as of FY2022?"


def test_what_is_asked_stays_whole():
    # A condition that is part of the question, context before it, an imperative question alone.
    q = "If we exclude the impact of M&A, which segment has dragged down 3M's overall growth in 2022?"
    assert asked(q) == q
    assert asked("The table shows results. What is the F1 of BERT?") == "The table shows results. What is the F1 of BERT?"
    assert asked("Calculate the gross margin for FY2018. Round to two decimals.") == "Calculate the gross margin for FY2018."
    assert asked("Please list the authors.") == "Please list the authors."
    # A parenthesis that is no unit stays.
    assert asked("What was revenue (excluding fuel) in 2022?") == "What was revenue (excluding fuel) in 2022?"


@pytest.fixture(scope="module")
def filing(tmp_path_factory: pytest.TempPathFactory):
    with ingested_filing(tmp_path_factory.mktemp("directions"), answer_cache=False) as (app, _):
        yield app


@pytest.mark.parametrize("question", [
    "What were Acme's total assets at the end of 2018? Answer in USD millions.",
    "What were Acme's total assets (in USD millions) at the end of 2018?",
    "Assume that you are a public equities analyst. Answer the following question by primarily using the "
    "information in the filing: what were Acme's total assets at the end of 2018?",
])
def test_a_question_with_directions_is_answered_as_without(filing, question):
    plain = filing.ask("What were Acme's total assets at the end of 2018?")
    assert not plain.abstained and "18,932" in plain.answer.split("[")[0]
    ans = filing.ask(question)
    assert not ans.abstained, ans.answer
    assert ans.answer == plain.answer
