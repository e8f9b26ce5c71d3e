"""Financial statements by name: a question that names "the cash flow statement", "the statement of
income" or "the balance sheet" prefers the pages that print that statement, as a label prior in the
fusion (``pagelens.retrieve.labels``: the same sparse vector, the same weight, never a filter).

Filings and annual reports discuss cash flows, assets and net income on many pages (the MD&A, the
notes, the highlights), and questions about them often name the statement they want read ("based on
the information in the statement of financial position"). Neither the dense nor the BM25 channel knows
that "income statement", "statement of operations" and "statement of earnings" are one thing, or that
"balance sheet" is the "statement of financial position"; and every page of the discussion shares the
question's other words. Accounting standards fix the few names these statements go by, so the names
are a lexicon here (one key per statement), not a pattern learned from questions.

A chunk carries a statement's key when one of its lines is the statement's *title*: a short line, not
a sentence, not a table-of-contents entry, in which the name is not cited ("the notes to these
consolidated statements of cash flows" cites; "ACME CORPORATION CONSOLIDATED STATEMENTS OF CASH FLOWS
(In millions)" titles). A table chunk's title is its caption, which its row-group chunks repeat. A
chunk that titles three statements or more is an index of them and carries none.
"""

from __future__ import annotations

import re

from collections.abc import Iterable

from pagelens.index.bm25 import tokenize
from pagelens.models import Chunk

_OF = r"statements?\s+of\s+(?:consolidated\s+)?"
_OWNERS = r"(?:(?:stock|share)holders['’]?|share\s?owners['’]?|owners['’]?|members['’]?|partners['’]?)\s+"
# Statement kind → its names (as a question or a title writes them; case-insensitive).
_NAMES: dict[str, str] = {
    "income": rf"income\s+statements?|{_OF}(?:income|operations|earnings|profit\s+or\s+loss)\b"
              r"|profit\s+(?:and|&)\s+loss(?:\s+(?:statement|account))?|\bp\s?&\s?l\b",
    "comprehensive": rf"{_OF}comprehensive\s+(?:income|loss|earnings)|comprehensive\s+income\s+statements?",
    "balance": rf"balance\s+sheets?|{_OF}financial\s+(?:position|condition)|{_OF}condition\b",
    "cashflow": rf"cash[\s-]flows?\s+statements?|{_OF}cash[\s-]flows?",
    "equity": rf"{_OF}(?:changes\s+in\s+)?(?:{_OWNERS})?(?:equity|net\s+assets)|(?:{_OWNERS})?equity\s+statements?",
}
_PATTERNS = {kind: re.compile(rf"(?i)(?<![\w-])(?:{names})") for kind, names in _NAMES.items()}
MAX_TITLE_WORDS = 18
"""A longer line is prose, whatever it names."""
# A name after one of these words is cited, not titled: "these consolidated statements of cash flows",
# "see the balance sheets", "notes to the statements of operations".
_CITING = frozenset({"the", "these", "this", "our", "its", "their", "see", "in", "to", "of", "and", "from", "on",
                     "with", "within", "per"})
# A contents entry ends with its page: "Consolidated Balance Sheets .... 52", "… F-3" (not "December 31").
_TOC_END = re.compile(r"(?:\.{3,}|…|\s)\s*(?:[ivxlc]+|[A-Z]?-?\d{1,3})\s*$", re.IGNORECASE)
_MONTHS = frozenset("january february march april may june july august september october november december".split())
INDEX_KINDS = 3
"""A chunk that titles this many statements or more lists them (an index, a table of contents)."""


def _contents_entry(words: list[str], line: str) -> bool:
    return bool(_TOC_END.search(line)) and not (len(words) > 1 and words[-2].lower().strip(",") in _MONTHS)


def statement_kinds(text: str) -> list[str]:
    """The statements ``text`` names, in order of first mention ("… the income statement and the balance
    sheet" → ``["income", "balance"]``)."""
    found = [(m.start(), kind) for kind, rx in _PATTERNS.items() for m in rx.finditer(text)]
    return list(dict.fromkeys(kind for _, kind in sorted(found)))


def naming_words(query: str) -> set[str]:
    """The index terms of the statement names ``query`` uses ("the balance sheet" → balance, sheet): they
    say which statement, as "Table 3" says which table, and every page of that statement earns them by its
    title alone, not by holding what is asked."""
    return {t for rx in _PATTERNS.values() for m in rx.finditer(query) for t in tokenize(m.group(0))}


def question_statements(query: str) -> list[str]:
    """The label keys of the statements a question names: ``statement:income``, ``statement:cashflow``…"""
    return [f"statement:{kind}" for kind in statement_kinds(query)]


def title_statements(line: str) -> list[str]:
    """The statements ``line`` is the title of: short, not a sentence, not a contents entry, the name not
    cited after "the", "these", "see", "notes to"…"""
    line = line.strip()
    words = line.split()
    if not words or len(words) > MAX_TITLE_WORDS or line.endswith((".", ";", ",")) or _contents_entry(words, line):
        return []
    if words[0][0].islower():
        return []
    kinds = []
    for kind, rx in _PATTERNS.items():
        for m in rx.finditer(line):
            before = line[: m.start()].split()
            # "Consolidated" and "condensed" belong to the title; the word before them decides.
            while before and before[-1].lower().strip("(") in {"consolidated", "condensed", "combined"}:
                before.pop()
            if not before or before[-1].lower().strip(",") not in _CITING:
                kinds.append((m.start(), kind))
                break
    return [kind for _, kind in sorted(kinds)]


# A header cell that titles its table the formal way: "CONDENSED CONSOLIDATED STATEMENTS OF OPERATIONS
# (Unaudited) - USD ($)", as EDGAR's financial-report pages print a statement (not "Statements of
# operations data", a selected-data table's row label).
_FORMAL = re.compile(r"^(?:condensed\s+)?(?:consolidated|combined)\s", re.IGNORECASE)


def chunk_statements(chunk: Chunk) -> list[str]:
    """The label keys of the statements the chunk titles (a table's caption lines or the formal title in
    its first header cell, a text chunk's short lines); none when it titles ``INDEX_KINDS`` or more."""
    lines = chunk.text.splitlines()
    if chunk.kind in ("table", "table_rows"):
        header = next((ln for ln in lines if ln.lstrip().startswith("|")), "")
        first = header.strip().strip("|").split("|")[0].strip() if header else ""
        lines = [ln for ln in lines if not ln.lstrip().startswith("|")][:3]
        if _FORMAL.match(first):
            lines.append(first)
    kinds: list[str] = []
    for line in lines:
        kinds += title_statements(line)
    kinds = list(dict.fromkeys(kinds))
    if len(kinds) >= INDEX_KINDS:
        return []
    return [f"statement:{kind}" for kind in kinds]


def page_statements(chunks: Iterable[Chunk]) -> dict[int, list[str]]:
    """Page → the statement keys its one-page chunks title (a page that titles ``INDEX_KINDS`` or more
    statements lists them and gets none)."""
    pages: dict[int, list[str]] = {}
    for chunk in chunks:
        if len(chunk.pages) == 1:
            keys = chunk_statements(chunk)
            if keys:
                pages[chunk.page] = list(dict.fromkeys(pages.get(chunk.page, []) + keys))
    return {page: keys for page, keys in pages.items() if len(keys) < INDEX_KINDS}


def continued_statements(pages: dict[int, list[str]], links: Iterable[tuple[int, int]]) -> dict[int, list[str]]:
    """``pages`` (page → statement keys, :func:`page_statements`) with each key carried onto the page a
    statement's table continues on: ``links`` are (page of the table, page it continues on). A balance
    sheet's liabilities often sit on the next page under no title of their own; a page that titles a
    statement itself keeps its own keys."""
    out = dict(pages)
    for start, cont in sorted(links, key=lambda link: link[1]):  # a chain (3 → 4 → 5) in page order
        if start in out and cont not in out:
            out[cont] = list(out[start])
    return out
