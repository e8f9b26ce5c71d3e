"""The names and numbers that pick the asked fact are found however the page writes them: a question's
"1200" is a page's "1,200", its "10%" a page's "10 per cent", its "Muller" and "Malaga" a page's "Müller"
and "Málaga"; a slide or page number says where to look, and a count in the asked phrase ("which *two*
regions") how many things answer, neither is a fact the page must state (``pagelens.answer.distinct``)."""

from __future__ import annotations

import pytest

from pagelens.answer import distinct as ds
from pagelens.answer.letters import fold
from pagelens.answer.focus import focus_of
from index_support import ingested_app
from pdf_support import headed_pages

NOTE = ("Dunmore Solar Cooperative - Annual Note\n"
        "The supply contract covers 1,200 households in Dunmore. Under it the monthly fee is EUR 14 per household. "
        "A second contract, for 300 farms, sets a monthly fee of EUR 31.\n"
        "Field tests were run by Dr. Müller at Málaga, where the panels reached an efficiency of 28.3 per cent. "
        "At Porto the same panels reached 24.9 per cent.")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("spellings")
    with ingested_app(root, [headed_pages(root / "dunmore-note.pdf", [NOTE])], answer_cache=False) as app:
        yield app


def test_a_number_the_page_groups_in_thousands_is_stated(app):
    ans = app.ask("What monthly fee does the contract covering 1200 households set?")
    assert not ans.abstained and "14" in ans.answer, ans.answer


def test_a_name_the_question_writes_without_accents_is_stated(app):
    ans = app.ask("What efficiency did the panels reach in the tests Dr. Muller ran at Malaga?")
    assert not ans.abstained and "28.3" in ans.answer, ans.answer


def _stated(question: str, text: str) -> list[tuple[str, bool]]:
    src = ds.Sources.of([text])
    return [(u.label, u.found(src)) for u in ds.units(question, ["x.pdf"], focus_of(question), {}) if not u.focus]


def test_numbers_and_names_as_pages_write_them():
    assert _stated("Which plan covers 2500 members?", "The plan covers 2,500 members.") == [("2500", True)]
    assert _stated("Which plan covers 2500 members?", "The plan covers 2 500 members.") == [("2500", True)]
    assert _stated("Which plan covers 2500 members?", "The plan covers 25,000 members.") == [("2500", False)]
    assert _stated("Which fund returned 10% in the year?", "The fund returned 10 per cent.") == [("10%", True)]
    assert _stated("What did the survey in Sao Paulo find?", "A survey in São Paulo found ...") == [("sao paulo", True)]
    assert fold("Özçelik, Kınacı, Cliﬀord") == "Ozcelik, Kinaci, Clifford"


def test_locators_and_the_answers_own_count_are_no_units():
    assert _stated("On slide 7 of the deck, which feature ships first?", "Roadmap: offline mode ships first") == []
    assert _stated("Which two regions missed their target?", "Mountain and Coastal missed the target") == []
    assert _stated("What was revenue for the nine months ended June 30?", "Nine months ended June 30") == [
        ("june", True), ("nine", True), ("30", True)]
