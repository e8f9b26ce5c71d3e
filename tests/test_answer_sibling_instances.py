"""A thing the question names by a lower-case modifier ("*brass* ball valves", "a *nuclear* plant") is not the
one a span names with other modifiers of the same kind ("stainless steel *butterfly* valves", "Steam plant"):
the span is about a sibling instance and its value is no answer (the scanned quotation letter of
bench/scans_build.py, where such a question was answered with the butterfly valves' price)."""

from __future__ import annotations

import pytest

from pagelens.answer import kinds
from index_support import ingested_app
from pdf_support import headed_pages

LETTER = ("Fenwick Pump Works\n"
          "Dear Ms. Arkwright, thank you for your enquiry of 2nd May. We are pleased to quote for sixty DN50 cast "
          "iron gate valves to your drawing FW-31 at a price of £21.40 each, ex works. Delivery would be four weeks "
          "from receipt of your order. The valves are tested to 16 bar before despatch.")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("siblings")
    with ingested_app(root, [headed_pages(root / "fenwick-quotation.pdf", [LETTER])], answer_cache=False) as app:
        yield app


def test_the_asked_instance_gets_its_price(app):
    ans = app.ask("What price did Fenwick Pump Works quote for the cast iron gate valves?")
    assert not ans.abstained and "21.40" in ans.answer, ans.answer


def test_a_sibling_instance_gives_no_price(app):
    ans = app.ask("What price did Fenwick Pump Works quote for plastic check valves?")
    assert ans.abstained, ans.answer


def test_modifier_conflict():
    q = "What Carnot efficiency does the lecture list for a nuclear plant?"
    assert kinds.modifier_conflict(q, "Row: Steam plant; T_H (K): 800; eta: 0.63")
    assert not kinds.modifier_conflict(q, "Row: Nuclear plant; T_H (K): 580; eta: 0.48")
    assert not kinds.modifier_conflict(q, "The efficiency of any plant is at most 1 - T_C / T_H")  # no other kind named
    # a spelling of the asked modifier is the same one ("metre"/"meter", "winter"/"overwinter")
    assert not kinds.modifier_conflict("How many times was the 20-metre sprint repeated?",
                                       "The 20-meter sprint was repeated for 10 times.")
    assert not kinds.modifier_conflict("What was the brown trout fry winter survival?",
                                       "the overwinter survival of brown trout fry was 31%")
    # a hyphenated modifier names a sibling too, and its parts are no prefixes of the asked one ("anti" of "antigen")
    q = "What unit cost is given for an HCV core antigen test?"
    assert kinds.modifier_conflict(q, "Anti-HCV test Unit cost (£)")
    assert not kinds.modifier_conflict("What unit cost is given for the anti-HCV test?", "Anti-HCV test Unit cost (£)")
    assert not kinds.modifier_conflict("What unit cost is given for the anti HCV test?", "Anti-HCV test Unit cost (£)")
    # a verb after the asked words ends no noun phrase: "the theme *inspired*"
    assert not kinds.modifier_conflict("Which earlier theme inspired the Metropolis theme?",
                                       "with minimal visual noise inspired by the hsrm theme")
