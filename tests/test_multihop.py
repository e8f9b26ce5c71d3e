"""Questions that refer to something by a description (pagelens.retrieve.hop): the cues, the bridge
found next to the description's words, the second hop's question, the top k it makes (pure), and — on
annual reports and company profiles the test builds, ingested through the command and indexed for
real (MiniLM, BM25, qdrant-edge) — the page the bridge leads to in the top 5, single-hop questions
ranked exactly as without the hop, and ``search --explain`` naming the bridge."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf
import pytest
from typer.testing import CliRunner

from pagelens.app import Pagelens
from pagelens.cli.main import app as cli
from pagelens.models import Chunk
from pagelens.retrieve import hop
from pagelens.settings import Settings


# -- when to hop --------------------------------------------------------------------------------------
@pytest.mark.parametrize(("question", "kind"), [
    ("What revenue did the subsidiary that Acme acquired in 2019 report?", "relative clause"),
    ("When did the director who chairs Acme's audit committee join the board?", "relative clause"),
    ("Where is the company Acme acquired in 2019 headquartered?", "reduced relative"),
    ("What stepsize does the optimizer the paper uses recommend?", "reduced relative"),
    ("BERT is pre-trained with an optimizer; what epsilon does that optimizer's paper recommend?", "demonstrative"),
    ("What average GLUE score does the 340M-parameter model achieve?", "numeric modifier"),
    ("What accuracy does the Quill variant with 410M parameters reach?", "description with"),
])
def test_a_description_is_a_cue(question: str, kind: str) -> None:
    d = hop.description(question)
    assert d is not None and d.kind == kind and d.text in question


@pytest.mark.parametrize("question", [
    "What were Acme's capital expenditures in fiscal 2018?",
    "Which company did Acme acquire in 2019?",
    "Who chairs Acme's audit committee?",
    "What ReadBench accuracy does Quill-Heron reach?",
])
def test_a_plain_question_is_no_cue(question: str) -> None:
    assert hop.description(question) is None


# -- the bridge (pure) ----------------------------------------------------------------------------------
@dataclass
class Cand:
    chunk: Chunk
    fused: float = 0.0
    channels: dict = field(default_factory=dict)
    merged: list = field(default_factory=list)
    parts: list = field(default_factory=list)


def _cand(doc: str, page: int, text: str) -> Cand:
    return Cand(Chunk(id=f"{doc}:{page}", doc_id=doc, doc_name=doc, kind="text", text=text, embed_text=text, pages=[page]))


ACQ = ("Acquisitions. In 2017 we acquired Kestrel Systems, which now operates as a segment. In 2019 we acquired "
       "Brightwater Analytics, which now operates as a segment.")


def test_the_bridge_is_the_name_beside_the_descriptions_rare_words() -> None:
    q = "What revenue did the subsidiary that Acme acquired in 2019 report?"
    found = hop.bridges(q, hop.description(q), [_cand("r", 4, ACQ)])
    assert [b.name for b in found[:2]] == ["Brightwater Analytics", "Kestrel Systems"]
    assert found[0].score >= hop.MIN_BRIDGE > found[1].score * 0  # scored, and the 2019 name first


def test_names_the_question_has_and_common_capitalised_words_are_no_bridge() -> None:
    q = "How many parameters does the Quill model with 12 layers have?"
    page = _cand("p", 3, "Model sizes. Parameters are counted without embeddings. Quill-Heron has 410M parameters "
                         "and 12 layers. Quill uses Table 2 for the rest.")
    names = [b.name for b in hop.bridges(q, hop.description(q), [page])]
    assert names[0] == "Quill-Heron"
    assert "Quill" not in names and "Parameters" not in names and "Table" not in names


def test_the_second_hop_asks_about_the_bridge_instead_of_the_description() -> None:
    q = "What revenue did the subsidiary that Acme acquired in 2019 report?"
    assert hop.hop_query(q, hop.description(q), "Brightwater Analytics") == "What revenue did Brightwater Analytics report?"
    q = "Zephyr is trained with a well-known optimizer; what stepsize does that optimizer's paper recommend?"
    assert hop.hop_query(q, hop.description(q), "Sorrel") == "what stepsize does Sorrel paper recommend?"


def test_the_description_is_asked_on_its_own_and_a_demonstrative_by_its_antecedent() -> None:
    q = "What default stepsize does the paper introducing the optimizer used to train Quill recommend?"
    assert hop.resolve_query(q, hop.description(q)) == "the paper introducing the optimizer used to train Quill"
    q = "Zephyr is trained with a well-known optimizer; what stepsize does that optimizer's paper recommend?"
    assert hop.resolve_query(q, hop.description(q)) == "Zephyr is trained with a well-known optimizer"


def test_a_cited_author_is_no_bridge() -> None:
    q = "How large is the vocabulary that the tokenizer uses?"
    page = _cand("p", 2, "The tokenizer follows Wu et al. and uses a vocabulary of 30,000 WordPiece tokens.")
    assert [b.name for b in hop.bridges(q, hop.description(q), [page])] == ["WordPiece"]


def test_a_name_naming_a_document_about_the_description_is_a_bridge() -> None:
    q = "Zephyr is trained with a well-known optimizer; what stepsize does that optimizer's paper recommend?"
    page = _cand("zephyr", 7, "We use Sorrel with a batch size of 256 and 2,000 warm-up steps. Results follow in Table 3.")
    found = hop.bridges(q, hop.description(q), [page])
    assert all(b.score < hop.MIN_BRIDGE for b in found)  # no word of the question near it
    titles = {"sorrel-doc": "sorrel method stochastic optimization", "zephyr": "zephyr reading models"}

    def names_document(text: str) -> dict[str, set[str]]:  # routing: doc -> the text's terms in its title
        from pagelens.index.bm25 import tokenize
        terms = set(tokenize(text))
        return {d: terms & set(tokenize(t)) for d, t in titles.items() if terms & set(tokenize(t))}

    by_identity = hop._by_identity(q, hop.description(q), found, names_document)
    assert [b.name for b in by_identity] == ["Sorrel"] and by_identity[0].score >= hop.MIN_BRIDGE


def test_the_hop_page_joins_the_top_k_after_the_bridges_page() -> None:
    q = "What revenue did the subsidiary that Acme acquired in 2019 report?"
    ordered = [_cand("r", 4, ACQ), *(_cand("r", p, "Revenue grew in every segment.") for p in (2, 3, 5, 6, 9))]
    segment = _cand("r", 8, "The Brightwater Analytics segment reported revenue of $84 million.")
    asked: list[str] = []

    def search(text: str) -> list[Cand]:
        asked.append(text)
        return [_cand("r", 4, ACQ), segment]

    out = hop.apply(q, ordered, 5, search)
    # the description asked on its own (to find the page resolving it), then the question about the bridge
    assert asked == ["the subsidiary that Acme acquired in 2019", "What revenue did Brightwater Analytics report?"]
    assert [(c.chunk.doc_id, c.chunk.page) for c in out[:5]] == [("r", 4), ("r", 8), ("r", 2), ("r", 3), ("r", 5)]
    assert out[0].parts == ["bridge: Brightwater Analytics"] and out[1].parts == ["hop 2 via Brightwater Analytics"]
    assert out[1].channels["hop2_rank"] == 2.0
    assert len(out) == len(ordered) + 1  # nothing dropped: the fifth moved down


def test_no_hop_when_the_bridges_page_holds_the_asked_thing() -> None:
    q = "What dropout rate does the Quill variant with 410M parameters use?"
    sizes = _cand("p", 3, "Quill-Heron has 410M parameters, 12 layers and a dropout rate of 0.1.")
    ordered = [sizes, _cand("p", 5, "Results.")]
    out = hop.apply(q, ordered, 5, lambda text: [] if text == hop.description(q).text else pytest.fail("no hop expected"))
    assert out == ordered and not sizes.parts


def test_rank_one_stays_when_the_bridge_is_on_the_last_page_of_the_top_k() -> None:
    q = "What revenue did the subsidiary that Acme acquired in 2019 report?"
    ordered = [*(_cand("r", p, "Revenue grew in every segment.") for p in (2, 3, 5, 6)), _cand("r", 4, ACQ)]
    segment = _cand("r", 8, "The Brightwater Analytics segment reported revenue of $84 million.")
    out = hop.apply(q, ordered, 5, lambda text: [] if text == hop.description(q).text else [segment])
    top = [(c.chunk.doc_id, c.chunk.page) for c in out[:5]]
    assert top[0] == ("r", 2) and ("r", 4) in top and ("r", 8) in top


# -- on a real index ------------------------------------------------------------------------------------
COMPANIES = {  # company: (acquisitions by year, revenue per business, audit chair, year joined)
    "Acme": ({2017: "Kestrel Systems", 2019: "Brightwater Analytics"}, {"Kestrel Systems": 412, "Brightwater Analytics": 84},
             "Priya Raman", 2011),
    "Globex": ({2016: "Lumen Freight", 2019: "Northgate Robotics"}, {"Lumen Freight": 233, "Northgate Robotics": 57},
               "Dana Whitlock", 2008),
}
CITY = {"Kestrel Systems": "Tulsa", "Brightwater Analytics": "Spokane", "Lumen Freight": "Dayton", "Northgate Robotics": "Boise"}
FILLER = [  # look-alike pages: the questions' words without their facts
    "Management's discussion. Revenue grew in every segment. Segments include businesses acquired in recent years; "
    "their revenue is reported from the date they were acquired.",
    "Risk factors. Acquired businesses may not reach the revenue we expect; the integration of subsidiaries we "
    "acquired in past years may take longer than planned.",
    "Segment reporting. Each segment reports revenue and operating margin; segments acquired during a year report "
    "revenue from the acquisition date.",
    "Corporate governance. The board has an audit committee and a compensation committee. Each director who chairs "
    "a committee joined the board before being appointed chair.",
]


def _pdf(path: Path, pages: list[tuple[str, str]]) -> None:
    doc = pymupdf.open()
    for title, body in pages:
        page = doc.new_page()
        page.insert_text((60, 80), title, fontsize=14)
        page.insert_textbox(pymupdf.Rect(60, 100, 540, 700), body, fontsize=11)
    doc.save(path)
    doc.close()


def _report(path: Path, company: str) -> dict[str, int]:
    acquired, revenue, chair, joined = COMPANIES[company]
    pages = [(f"{company} Corporation Annual Report", f"{company} Corporation. Annual report for the fiscal year."),
             ("Overview", FILLER[0]), ("Acquisitions", " ".join(f"In {y} we acquired {b}, which now operates as a "
                                                                 "segment." for y, b in acquired.items())),
             *((f"Discussion {i}", text) for i, text in enumerate(FILLER[:3], 1))]
    where = {"acquisitions": 3}
    for b in acquired.values():
        pages.append((f"Segment: {b}", f"The {b} segment reported revenue of ${revenue[b]} million."))
        where[b] = len(pages)
    pages += [("Board committees", f"The audit committee is chaired by {chair}."), ("Governance", FILLER[3]),
              (f"Director: {chair}", f"{chair} joined the board in {joined}. Before that, {chair.split()[0]} held "
                                     "senior finance roles at several industrial companies.")]
    where["committees"], where["chair"] = len(pages) - 2, len(pages)
    _pdf(path, pages)
    return where


def run(home: Path, *args: str) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PAGELENS_")}
    env["PAGELENS_CONFIG"] = str(home / "none.toml")
    env["COLUMNS"] = "200"
    result = CliRunner().invoke(cli, ["--home", str(home), "--quiet", *args], env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("multihop")
    pdfs = root / "pdfs"
    pdfs.mkdir()
    pages = {c: _report(pdfs / f"{c.lower()}-annual-report.pdf", c) for c in COMPANIES}
    for i, (b, city) in enumerate(CITY.items()):
        _pdf(pdfs / f"profile-{i + 1}.pdf", [(b, f"{b}: company profile."), ("History", "The company was founded by "
             "engineers and was later acquired."), ("About us", f"{b} is headquartered in {city} and employs 300 people.")])
    # A paper that names its optimizer without saying it is one; that optimizer's paper and another's.
    _pdf(pdfs / "zephyr-paper.pdf", [("Zephyr: Efficient Reading Models", "We present Zephyr, a family of encoders."),
                                     ("Related work", "Optimizers with momentum decay and adaptive stepsize train "
                                      "large models; their default settings matter."),
                                     ("Training", "We use Sorrel with a batch size of 256 sequences and 2,000 "
                                      "warm-up steps."), ("Results", "Zephyr reaches 81.2 on ReadBench.")])
    for name, decay in (("Sorrel", "0.93"), ("Juniper", "0.85"), ("Bramble", "0.88"), ("Yarrow", "0.91")):
        _pdf(pdfs / f"{name.lower()}-paper.pdf", [
            (f"{name}: A Method for Stochastic Optimization", f"We introduce {name}, an optimizer."),
            ("Convergence", "The method converges for any momentum decay below one."),
            ("Algorithm 1", f"Algorithm 1: {name}. Good default settings are a stepsize of 0.001 and a momentum "
                            f"decay of {decay}.")])
    home = root / "home"
    code, _, err = run(home, "ingest", str(pdfs))
    assert code == 0, err
    return home, pages


def _search(home: Path, question: str, multihop: bool = True):
    settings = Settings(home=home).with_overrides(**{"retrieval.multihop": multihop, "answer.cache": False})
    with Pagelens(settings) as app:
        return app.search(question, k=5)


def _pages(hits) -> list[tuple[str, int]]:
    return [(h.chunk.doc_name, h.chunk.page) for h in hits]


def test_the_page_about_the_bridge_joins_the_top_5(corpus) -> None:
    home, pages = corpus
    q = "What revenue did the subsidiary that Acme acquired in 2019 report?"
    segment = ("acme-annual-report.pdf", pages["Acme"]["Brightwater Analytics"])
    acquisitions = ("acme-annual-report.pdf", pages["Acme"]["acquisitions"])
    before, now = _pages(_search(home, q, multihop=False)), _pages(_search(home, q))
    assert acquisitions in before and segment not in before  # the first hop alone misses the fact's page
    assert acquisitions in now and segment in now
    assert now[0] == before[0]  # rank 1 kept


def test_a_bridge_that_names_another_document_leads_there(corpus) -> None:
    home, pages = corpus
    q = "Where is the company Globex acquired in 2016 headquartered?"
    now = _pages(_search(home, q))
    assert ("globex-annual-report.pdf", pages["Globex"]["acquisitions"]) in now and ("profile-3.pdf", 3) in now


def test_a_bridge_named_without_its_kind_leads_to_its_own_paper(corpus) -> None:
    home, _ = corpus
    q = "Zephyr is pre-trained with a well-known optimizer; what default momentum decay does that optimizer's paper recommend?"
    hits = _search(home, q)
    parts = {(h.chunk.doc_name, h.chunk.page): h.parts for h in hits}
    assert "bridge: Sorrel" in parts.get(("zephyr-paper.pdf", 3), [])
    assert "hop 2 via Sorrel" in parts.get(("sorrel-paper.pdf", 3), [])
    assert hits[0].chunk.id == _search(home, q, multihop=False)[0].chunk.id  # rank 1 kept


@pytest.mark.parametrize("question", [
    "Which company did Acme acquire in 2019?",
    "What revenue did Acme's Brightwater Analytics segment report?",
    "Who chairs Globex's audit committee?",
])
def test_single_hop_questions_rank_exactly_as_without_the_hop(corpus, question: str) -> None:
    home, _ = corpus
    key = [(h.chunk.id, h.rank, h.score, sorted(h.channels.items()), h.parts) for h in _search(home, question)]
    assert key == [(h.chunk.id, h.rank, h.score, sorted(h.channels.items()), h.parts)
                   for h in _search(home, question, multihop=False)]


def test_explain_names_the_bridge_and_the_hop(corpus) -> None:
    home, pages = corpus
    code, out, err = run(home, "search", "What revenue did the subsidiary that Acme acquired in 2019 report?",
                         "-k", "5", "--explain")
    assert code == 0, err
    assert "answers part: bridge: Brightwater Analytics" in out
    assert "answers part: hop 2 via Brightwater Analytics" in out and "hop2#" in out
    # A question answered on the page that resolves its description does not hop: the director's own
    # page (the bridge's best page) says when she joined.
    code, out, err = run(home, "search", "When did the director who chairs Acme's audit committee join the board?",
                         "-k", "5", "--explain")
    assert code == 0 and "hop 2 via" not in out
