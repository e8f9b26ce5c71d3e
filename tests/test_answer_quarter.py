""""In which quarter ..." asks for a quarter or a half of a year ("Q1", "2Q22", "the third quarter", "H2"): a
span that names the asked thing without one ("Admins want SSO login") is no answer to it."""

from __future__ import annotations


import pytest

from pagelens.answer import support as sp
from index_support import ingested_app
from pdf_support import headed_pages


ROADMAP = ["What we heard in 2024\nAdmins want SSO login for the Larkspur app\nOffline mode is the top request",
           "H1 2025 commitments\nQ1: SSO login (Okta, Entra ID)\nQ2: Rebuilt export to SharePoint"]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("quarter")
    with ingested_app(root, [headed_pages(root / "larkspur-roadmap-2025.pdf", ROADMAP, 960, 540, 60, 28)], answer_cache=False) as app:
        yield app


def test_which_quarter_is_answered_by_the_quarter(app):
    ans = app.ask("In which quarter of 2025 will Larkspur ship SSO login?")
    assert not ans.abstained and "Q1" in ans.answer, ans.answer


def test_quarter_type():
    q = "In which quarter of 2025 will Larkspur ship SSO login?"
    assert sp.answer_type(q) == "quarter"
    for text in ("Q1: SSO login", "results of 2Q22", "in the third quarter", "H2 2025 plans"):
        assert sp.has_type("quarter", text, q), text
    for text in ("Admins want SSO login", "survey item Q10", "HQ2 building"):
        assert not sp.has_type("quarter", text, q), text
    assert not sp.has_type("quarter", "the Q1 plan", "Which quarter after Q1 ...?")  # the question's own quarter
