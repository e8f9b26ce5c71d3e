"""Questions whose evidence sits on two pages linked by a bridge entity, on synthetic PDFs.

    .venv/bin/python bench/multihop.py                      # build, ingest, score hop off / on
    .venv/bin/python bench/multihop.py --root /tmp/mhbench  # keep (and reuse) PDFs and home
    .venv/bin/python bench/multihop.py --seed 3 --misses
    .venv/bin/python bench/multihop.py --dev /tmp/evalhome  # dev questions: hop off vs on, changed rankings

Builds with PyMuPDF, from a seed, a pile of look-alike documents: model papers (a family of model
variants, their sizes on one page, their results in a table on another, the optimizer used on a
third), optimizer papers (each one's default settings on one page), annual reports (acquisitions by
year on one page, each acquired business's revenue on a page of its own, committee chairs on one
page, each director's biography on a page of their own) and company profiles of the acquired
businesses. Every document has filler pages that use the questions' words without their facts, and
every document repeats the same structure with other names and numbers (distractors that share the
words).

Question kinds (written before any mechanism; the wording varies by seed):

* ``hop-doc``: a description ("the 410M-parameter Quill model", "the business Acme acquired in 2019",
  "the director who chairs Acme's audit committee") that one page resolves to an entity (a variant,
  a business, a person); another page of the same document holds the fact asked about that entity.
* ``hop-cross``: the same, the second page in another document ("the optimizer Quill is trained
  with" → that optimizer's paper; "the company Acme acquired in 2018" → its own profile). In half of
  the papers (by seed) the training page names the optimizer without the word "optimizer" ("We use
  Sorrel with …"; added after the first version of the mechanism, which it defeated).
* ``single-named``: the fact asked of the entity by name (one page).
* ``single-resolve``: the entity asked for by its description (one page: the answer is the bridge).
* ``single-fact``: a plain fact of one page, words shared with the filler.
* ``single-described``: a description and the fact asked about it on the same page ("the dropout rate of
  the variant with 410M parameters", "the age of the executive who serves as CFO"): nothing to hop to.

Prints hit@1 / hit@5 (any evidence page) and all@5 (every evidence page in the top 5) per kind, for
``retrieval.multihop`` off and on, in one run, and with ``--misses`` the questions either missed.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import pymupdf  # noqa: E402

FAMILIES = ["Quill", "Marten", "Osprey", "Tansy", "Larkspur", "Cobalt"]
VARIANTS = ["Heron", "Finch", "Crane", "Plover", "Egret", "Swift", "Robin", "Tern", "Kite", "Ibis", "Wren", "Lark",
            "Stork", "Grebe", "Dunlin", "Avocet", "Curlew", "Gannet"]
OPTIMIZERS = ["Sorrel", "Juniper", "Bramble", "Yarrow", "Nettle", "Clover"]
COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay"]
BUSINESSES = ["Brightwater Analytics", "Kestrel Systems", "Lumen Freight", "Northgate Robotics", "Silverline Foods",
              "Redwood Sensors", "Tidewater Labs", "Ironbark Software", "Bluefin Logistics", "Copperleaf Media",
              "Granite Peak Energy", "Harbor Light Medical"]
PEOPLE = ["Priya Raman", "Dana Whitlock", "Tomasz Kowal", "Ines Carvalho", "Marcus Oyelaran", "Helga Lindqvist",
          "Kenji Morimoto", "Aisha Bello", "Rafael Quintero", "Sofia Marchetti", "Owen Gallagher", "Lena Petrova",
          "Yusuf Demir", "Claire Beaumont", "Anders Holm", "Mei Tanaka", "Jonah Reyes", "Beatrix Novak"]
CITIES = ["Tulsa", "Spokane", "Dayton", "Boise", "Fresno", "Madison", "Akron", "Reno", "Savannah", "Wichita",
          "Lansing", "Eugene"]
BENCHES = ["ReadBench", "LogicQA"]
COMMITTEES = ["audit", "compensation", "nominating"]

FILLER = {
    "paper": [
        "This section discusses related work. Earlier models with more parameters reach higher accuracy on reading "
        "benchmarks, and the choice of optimizer and its default settings matters for stability.",
        "We describe the data. The corpus is deduplicated and filtered; models of every size see the same tokens. "
        "Accuracy is reported on held-out splits; parameters are counted without embeddings.",
        "Ablations. Removing the auxiliary loss lowers accuracy by a few points for every variant. Larger models "
        "with more layers and parameters benefit more from longer training.",
        "Limitations. Benchmarks such as ReadBench and LogicQA cover only English. The optimizer's momentum decay "
        "and stepsize were not tuned per model; accuracy might improve with tuning.",
        "Discussion. Scaling the number of parameters improves accuracy on LogicQA more than on ReadBench. The "
        "variants differ in layers and width only.",
    ],
    "optimizer": [
        "Related work. Stochastic gradient methods with momentum decay and adaptive stepsize are widely used to "
        "train models with many parameters.",
        "Convergence analysis. Under standard assumptions the method converges for any momentum decay below one "
        "and a small enough stepsize.",
        "Experiments. We train logistic regression and deep networks; the default settings work well without "
        "tuning of the stepsize or the momentum decay.",
        "Extensions. A variant with a different norm of the update is discussed; its default settings differ "
        "from the ones recommended for the main method.",
    ],
    "report": [
        "Risk factors. Acquired businesses may not reach the revenue we expect; integration of companies we "
        "acquired in past years may take longer than planned.",
        "Management's discussion. Revenue grew in every segment. Segments include businesses acquired in recent "
        "years; their revenue is reported from the date they were acquired.",
        "Corporate governance. The board has an audit committee, a compensation committee and a nominating "
        "committee. Each director who chairs a committee joined the board before being appointed chair.",
        "Properties. We lease offices and warehouses; the headquarters of the businesses we acquired remain "
        "where they were.",
        "Legal proceedings. We are party to claims arising in the ordinary course of business; none is expected "
        "to affect revenue materially.",
    ],
    "profile": [
        "Our history. The company was founded by engineers and grew through its products; it was later acquired "
        "and continues to operate under its own name.",
        "Our customers. We serve manufacturers, retailers and public agencies in many regions.",
    ],
}


@dataclass
class Q:
    id: str
    kind: str
    question: str
    gold: list[tuple[str, int]]  # (pdf name, 1-based page); every one needed for all@5


class _Doc:
    """Pages of text, written as a PDF."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pages: list[tuple[str, str]] = []

    def add(self, title: str, body: str) -> int:
        self.pages.append((title, body))
        return len(self.pages)

    def filler(self, kind: str, rng: random.Random, n: int) -> None:
        for i in range(n):
            self.add(f"{i + 1}. {rng.choice(['Notes', 'Discussion', 'Overview', 'Details', 'Remarks'])}",
                     rng.choice(FILLER[kind]))

    def save(self, folder: Path) -> None:
        doc = pymupdf.open()
        for title, body in self.pages:
            page = doc.new_page()
            page.insert_text((60, 80), title, fontsize=14)
            page.insert_textbox(pymupdf.Rect(60, 100, 540, 780), body, fontsize=11)
        doc.save(folder / self.name)
        doc.close()


def build(folder: Path, seed: int, families: int = 4, companies: int = 4, filler: int = 6) -> list[Q]:
    """Write the PDFs into ``folder``; the questions about them."""
    rng = random.Random(seed)
    qs: list[Q] = []
    docs: list[_Doc] = []
    variants = list(VARIANTS)
    rng.shuffle(variants)
    opts = list(OPTIMIZERS)
    rng.shuffle(opts)
    opt_of: dict[str, str] = {}
    # -- optimizer papers ------------------------------------------------------------------------
    opt_docs: dict[str, tuple[str, int, dict[str, str]]] = {}
    for oi, opt in enumerate(opts[:families]):
        d = _Doc(f"opt-{oi + 1:02d}.pdf")
        d.add(f"{opt}: A Method for Stochastic Optimization", f"We introduce {opt}, an algorithm for first-order "
              "gradient-based optimization of stochastic objective functions.")
        d.filler("optimizer", rng, filler // 2)
        vals = {"stepsize": rng.choice(["0.001", "0.002", "0.0005", "0.003"]), "decay": f"0.{rng.randint(80, 99)}",
                "eps": rng.choice(["10^-8", "10^-6", "10^-7"])}
        p = d.add(f"Algorithm 1: {opt}", f"Algorithm 1: {opt}. Good default settings for the tested problems are a "
                  f"stepsize of {vals['stepsize']}, a momentum decay of {vals['decay']} and an epsilon of {vals['eps']}.")
        d.filler("optimizer", rng, filler // 2)
        opt_docs[opt] = (d.name, p, vals)
        docs.append(d)
        qs.append(Q(f"opt{oi}-fact", "single-fact", f"What default momentum decay does the {opt} paper recommend?",
                    [(d.name, p)]))
    # -- model papers ----------------------------------------------------------------------------
    for fi, fam in enumerate(FAMILIES[:families]):
        d = _Doc(f"paper-{fi + 1:02d}.pdf")
        vs = [variants.pop() for _ in range(3)]
        sizes = sorted(rng.sample(range(60, 990, 10), 3))
        layers = [6 + 6 * i for i in range(3)]
        scores = {v: [f"{rng.uniform(55, 92):.1f}" for _ in BENCHES] for v in vs}
        opt = opts[fi % len(opts[:families])]
        opt_of[fam] = opt
        warm = rng.choice([1000, 2000, 4000, 8000])
        d.add(f"{fam}: Efficient Reading Models", f"We present {fam}, a family of encoder models, and evaluate it on "
              f"{' and '.join(BENCHES)}.")
        d.filler("paper", rng, filler // 3)
        p_sizes = d.add("3 Model sizes", "We train three variants. " + " ".join(
            f"{fam}-{v} has {s}M parameters, {n} layers and a dropout rate of {dr}."
            for v, s, n, dr in zip(vs, sizes, layers, rng.sample(["0.05", "0.1", "0.15", "0.2", "0.25", "0.3"], 3))))
        d.filler("paper", rng, filler // 3)
        batch = rng.choice([256, 512, 1024])
        p_train = d.add("4 Training", rng.choice([
            f"We pre-train every variant with the {opt} optimizer, using a batch size of {batch} sequences and "
            f"{warm} warm-up steps.",
            # The optimizer named without the word: only its own paper says what it is.
            f"We use {opt} with a batch size of {batch} sequences, {warm} warm-up steps and a linear decay of the "
            "learning rate."]))
        d.filler("paper", rng, filler // 3)
        rows = "\n".join(f"{fam}-{v}    {scores[v][0]}    {scores[v][1]}" for v in vs)
        p_res = d.add("5 Results", f"Table 2: Accuracy of each variant.\nModel    {BENCHES[0]}    {BENCHES[1]}\n{rows}")
        d.filler("paper", rng, 1)
        docs.append(d)
        i = rng.randrange(3)
        v, s, n = vs[i], sizes[i], layers[i]
        bench = rng.choice(BENCHES)
        desc = rng.choice([f"the {s}M-parameter {fam} model", f"the {fam} variant with {s}M parameters",
                           f"the {fam} model that has {n} layers"])
        qs.append(Q(f"fam{fi}-hop", "hop-doc", f"What {bench} accuracy does {desc} reach?",
                    [(d.name, p_sizes), (d.name, p_res)]))
        qs.append(Q(f"fam{fi}-named", "single-named", f"What {bench} accuracy does {fam}-{v} reach?", [(d.name, p_res)]))
        qs.append(Q(f"fam{fi}-resolve", "single-resolve", f"Which {fam} variant has {s}M parameters?", [(d.name, p_sizes)]))
        qs.append(Q(f"fam{fi}-same", "single-described", rng.choice([
            f"What dropout rate does the {fam} variant with {s}M parameters use?",
            f"What dropout rate does the {fam} model that has {n} layers use?"]), [(d.name, p_sizes)]))
        qs.append(Q(f"fam{fi}-warm", "single-fact", f"How many warm-up steps does the {fam} training use?",
                    [(d.name, p_train)]))
        oname, opage, _ = opt_docs[opt]
        qs.append(Q(f"fam{fi}-opt", "hop-cross", rng.choice([
            f"{fam} is pre-trained with a well-known optimizer; what default momentum decay does that optimizer's "
            "original paper recommend?",
            f"What default stepsize does the paper introducing the optimizer used to train {fam} recommend?",
            f"Which epsilon is recommended by default for the optimizer that the {fam} authors pre-train with?"]),
            [(d.name, p_train), (oname, opage)]))
    # -- annual reports and the acquired businesses' profiles --------------------------------------
    businesses = list(BUSINESSES)
    rng.shuffle(businesses)
    people = list(PEOPLE)
    rng.shuffle(people)
    cities = list(CITIES)
    rng.shuffle(cities)
    for ci, co in enumerate(COMPANIES[:companies]):
        d = _Doc(f"report-{ci + 1:02d}.pdf")
        bs = [businesses.pop() for _ in range(2)]
        years = sorted(rng.sample(range(2015, 2023), 2))
        revenue = {b: rng.randint(40, 900) for b in bs}
        chairs = [people.pop() for _ in range(2)]
        joined = {p: rng.randint(2005, 2020) for p in chairs}
        coms = rng.sample(COMMITTEES, 2)
        d.add(f"{co} Corporation Annual Report", f"{co} Corporation. Annual report for the fiscal year.")
        d.filler("report", rng, filler // 3)
        p_acq = d.add("Acquisitions", " ".join(f"In {y} we acquired {b}, which now operates as a segment."
                                               for y, b in zip(years, bs)))
        d.filler("report", rng, filler // 3)
        p_seg = {}
        for b in bs:
            p_seg[b] = d.add(f"Segment: {b}", f"The {b} segment reported revenue of ${revenue[b]} million and an "
                             f"operating margin of {rng.randint(5, 30)} percent.")
        officer, age = people.pop(), rng.randint(38, 66)
        p_off = d.add("Executive officers", f"{officer}, who serves as chief financial officer, is {age} years old "
                      f"and joined {co} in {rng.randint(2000, 2020)}.")
        p_gov = d.add("Board committees", " ".join(f"The {c} committee is chaired by {p}." for c, p in zip(coms, chairs)))
        d.filler("report", rng, filler // 3)
        p_bio = {}
        for p in chairs:
            p_bio[p] = d.add(f"Director: {p}", f"{p} joined the board in {joined[p]}. Before that, {p.split()[0]} "
                             "held senior finance roles at several industrial companies.")
        docs.append(d)
        profiles = {}
        for b in bs:
            pd = _Doc(f"profile-{len(docs):02d}.pdf")
            pd.add(f"{b}", f"{b}: company profile.")
            pd.filler("profile", rng, 1)
            city = cities.pop()
            profiles[b] = (pd.name, pd.add("About us", f"{b} is headquartered in {city} and employs "
                                           f"{rng.randint(80, 2000)} people."), city)
            pd.filler("profile", rng, 1)
            docs.append(pd)
        j = rng.randrange(2)
        y, b = years[j], bs[j]
        qs.append(Q(f"co{ci}-rev", "hop-doc", rng.choice([
            f"How much revenue did the business {co} acquired in {y} report?",
            f"What revenue did the subsidiary that {co} acquired in {y} report?"]),
            [(d.name, p_acq), (d.name, p_seg[b])]))
        qs.append(Q(f"co{ci}-rev-named", "single-named", f"What revenue did {co}'s {b} segment report?", [(d.name, p_seg[b])]))
        qs.append(Q(f"co{ci}-acq", "single-resolve", f"Which company did {co} acquire in {y}?", [(d.name, p_acq)]))
        j = rng.randrange(2)
        c, p = coms[j], chairs[j]
        qs.append(Q(f"co{ci}-chair", "hop-doc", rng.choice([
            f"In which year did the director who chairs {co}'s {c} committee join the board?",
            f"When did the chair of {co}'s {c} committee join the board?"]),
            [(d.name, p_gov), (d.name, p_bio[p])]))
        qs.append(Q(f"co{ci}-officer", "single-described", f"How old is the executive who serves as {co}'s chief "
                    "financial officer?", [(d.name, p_off)]))
        qs.append(Q(f"co{ci}-chair-named", "single-named", f"When did {p} join {co}'s board?", [(d.name, p_bio[p])]))
        qs.append(Q(f"co{ci}-chair-resolve", "single-resolve", f"Who chairs {co}'s {c} committee?", [(d.name, p_gov)]))
        j = rng.randrange(2)
        y, b = years[j], bs[j]
        pname, ppage, _ = profiles[b]
        qs.append(Q(f"co{ci}-hq", "hop-cross", rng.choice([
            f"Where is the company {co} acquired in {y} headquartered?",
            f"In which city is the business that {co} bought in {y} based?"]),
            [(d.name, p_acq), (pname, ppage)]))
        qs.append(Q(f"co{ci}-hq-named", "single-named", f"Where is {b} headquartered?", [(pname, ppage)]))
    for d in docs:
        d.save(folder)
    return qs


def score(app, questions: list[Q], k: int = 5) -> dict[str, list]:
    """kind -> [hit@1, hit@5, all@5, n, misses]; also 'all' and 'single' (the three single kinds)."""
    rows: dict[str, list] = {}
    for q in questions:
        hits = app.search(q.question, k=k)
        gold = set(q.gold)
        found = [{(c.doc_name, p) for c in h.all_chunks() for p in c.pages} & gold for h in hits[:k]]
        h1 = bool(found and found[0])
        h5 = any(found)
        a5 = set().union(*found) == gold if found else False
        for key in {q.kind, "all", "single" if q.kind.startswith("single") else "hop"}:
            r = rows.setdefault(key, [0, 0, 0, 0, []])
            r[0] += h1
            r[1] += h5
            r[2] += a5
            r[3] += 1
            if not a5:
                r[4].append((q, [f"{h.chunk.doc_name}:{h.chunk.page}" for h in hits[:k]]))
    return rows


KIND_ORDER = ["hop-doc", "hop-cross", "hop", "single-named", "single-resolve", "single-fact", "single-described", "single",
              "all"]


def dev_check(home: Path, corpus: Path, k: int = 5) -> None:
    """The dev questions (all three files, one index) with the hop off and on: which questions hold a
    description, which rankings changed, and the rank at which all gold pages are in (``pagelens eval``)."""
    from pagelens.app import Pagelens
    from pagelens.evaluate import UNANSWERABLE, hit_rank, load_questions
    from pagelens.retrieve.hop import description
    from pagelens.retrieve.retriever import Retriever
    from pagelens.settings import Settings

    files = ("questions.jsonl", "questions-special.jsonl", "questions-reports.jsonl")
    questions = [q for q in load_questions([corpus / f for f in files]) if q.modality != UNANSWERABLE and q.gold]
    base = Settings(home=home).with_overrides(**{"answer.cache": False})
    pdfs = sorted(p for p in (corpus / "pdfs").iterdir() if p.suffix.lower() == ".pdf")
    rows, same, rank1 = [], 0, 0
    with Pagelens(base) as app:
        app.ingest(pdfs)
        r = app.retriever
        now = Retriever(base, r.store, r.embedder, r.sparse, known_docs=app.catalog.doc_ids)
        off = Retriever(base.with_overrides(**{"retrieval.multihop": False}), r.store, r.embedder, r.sparse,
                        known_docs=app.catalog.doc_ids)
        for q in questions:
            h_now, h_off = now.search(q.question, k=k), off.search(q.question, k=k)
            key_now = [(h.chunk.id, h.rank) for h in h_now]
            key_off = [(h.chunk.id, h.rank) for h in h_off]
            same += key_now == key_off
            rank1 += key_now[:1] == key_off[:1]
            d = description(q.question)
            if d is not None or q.modality in ("multi-hop", "cross-doc"):
                hops = sorted({p for h in h_now for p in h.parts if p.startswith(("bridge:", "hop 2"))})
                rows.append((q, d, hit_rank(q.gold, h_off, q.all_pages), hit_rank(q.gold, h_now, q.all_pages), hops))
    print(f"{len(questions)} scored dev questions: {same} ranked exactly as with the hop off (top {k}), "
          f"rank 1 the same for {rank1}\n")
    print(f"{'id':<14}{'modality':<12}{'cue':<18}{'rank off':>9}{'on':>5}  hop")
    for q, d, r_off, r_now, hops in rows:
        print(f"{q.id:<14}{q.modality:<12}{d.kind if d else '-':<18}{r_off or '-':>9}{r_now or '-':>5}  {'; '.join(hops)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, help="folder to build into and keep (PDFs and home are reused)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--families", type=int, default=4)
    ap.add_argument("--companies", type=int, default=4)
    ap.add_argument("--filler", type=int, default=6, help="filler pages per document (look-alike words)")
    ap.add_argument("--misses", action="store_true")
    ap.add_argument("--dev", type=Path, metavar="HOME", help="instead: the dev questions, hop off and on, in this home")
    ap.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent.parent.parent / "shared" / "corpus")
    args = ap.parse_args()
    if args.dev:
        dev_check(args.dev, args.corpus)
        return
    from pagelens.app import Pagelens
    from pagelens.settings import Settings

    root = args.root or Path(tempfile.mkdtemp(prefix="pagelens-multihop-"))
    pdfs = root / f"pdfs-{args.seed}"
    pdfs.mkdir(parents=True, exist_ok=True)
    questions = build(pdfs, args.seed, args.families, args.companies, args.filler)
    settings = Settings(home=root / f"home-{args.seed}").with_overrides(**{"ingest.ocr": "off", "answer.cache": False})
    t0 = time.perf_counter()
    with Pagelens(settings) as app:
        app.ingest([pdfs])
    n_docs = len(list(pdfs.glob("*.pdf")))
    n_pages = sum(len(pymupdf.open(p)) for p in pdfs.glob("*.pdf"))
    print(f"seed {args.seed}: {n_docs} documents, {n_pages} pages, {len(questions)} questions, "
          f"ingested in {time.perf_counter() - t0:.0f} s\n")
    print(f"{'setting':<14}{'kind':<16}{'n':>4}{'hit@1':>8}{'hit@5':>8}{'all@5':>8}")
    results = {}
    for label, overrides in (("multihop off", {"retrieval.multihop": False}), ("multihop on", {})):
        with Pagelens(settings.with_overrides(**overrides)) as app:
            rows = score(app, questions)
        results[label] = rows
        for kind in KIND_ORDER:
            if kind not in rows:
                continue
            h1, h5, a5, n, _ = rows[kind]
            print(f"{label:<14}{kind:<16}{n:>4}{h1 / n:>8.2f}{h5 / n:>8.2f}{a5 / n:>8.2f}")
            label = ""
    if args.misses:
        for label, rows in results.items():
            print(f"\n{label}: not all evidence in the top 5")
            for q, top in rows["all"][4]:
                print(f"  {q.id} [{q.kind}] {q.question}\n    gold {q.gold} top {' '.join(top)}")


if __name__ == "__main__":
    main()
