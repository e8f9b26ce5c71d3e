"""Line items and ratios by the statement that prints them: a question that asks for "the cost of goods
sold", "operating cash flow" or "the inventory turnover ratio" without naming a statement prefers the
pages of the statements those figures come from, as a weaker label prior than a named statement's
(channel ``implied``, weight ``IMPLIED_WEIGHT``; ``pagelens.retrieve.labels``, never a filter).

A filing discusses its figures on many pages (the MD&A, key-figure highlights, the notes) in the words a
question uses, while the statement prints them under their own names ("Cost of sales", "Net cash
provided by operating activities", "Purchases of property, plant and equipment") and prints a ratio's
parts, never the ratio. Neither channel then finds the page that holds the number. Which statement
carries which figure is fixed by accounting practice (US GAAP and IFRS present the same primary
statements), so it is a lexicon here, one entry per figure, written from that practice rather than from
questions:

* a line item → the statement that presents it (revenue, cost of sales, operating income, net income,
  EPS → income; assets, liabilities, inventories, receivables, debt, equity, working capital → balance;
  operating/investing/financing cash flows, capital expenditures, dividends paid, buybacks → cash flow);
* a ratio → the statements of its numerator and denominator (inventory turnover = cost of sales /
  inventory → income and balance; return on assets → income and balance; the quick ratio → balance).

A question that names a statement itself ("based on the balance sheet") is read by its own words only
(:mod:`pagelens.retrieve.statements`); this lexicon fills in where it names none.

The extractive answerer uses two more tables of the same practice: the names one line item is printed
by (:func:`other_names`: "Net sales" for "net revenue"), to read a statement's row, and a ratio's formula
and parts (:func:`ratio_parts`), to answer a ratio no page states by the cells of its parts.
"""

from __future__ import annotations

import re

from pagelens.retrieve.statements import statement_kinds

IMPLIED_WEIGHT = 1.0
"""Fusion weight of an implied statement's prior (``retrieval.weights["implied"]`` overrides it), half a
named statement's (``labels.LABEL_WEIGHT``): the lexicon infers what the question did not say, and a
discussion page that the question's words match well should still be able to stay first."""

_I, _B, _C = "income", "balance", "cashflow"
_OPT_NET = r"(?:net\s+|total\s+|consolidated\s+)?"
# A ratio: its pattern (case-insensitive, whole words, "ratio" after it optional), the statements of its
# parts in the order they are read, and its formula and parts where one formula is standard (for answering
# a ratio no page states by the cells of its parts, ``ratio_parts``). Ratios are read before line items:
# "inventory turnover" must not be read as the balance sheet's "inventory" alone.
_RATIOS: list[tuple[str, tuple[str, ...], str | None, tuple[str, ...]]] = [
    (r"(?:inventory|inventories|stock)\s+turnover", (_I, _B), "cost of sales / inventory", ("cost of sales", "inventory")),
    (r"days?\s+(?:of\s+)?inventory(?:\s+outstanding)?|inventory\s+days|\bDIO\b", (_I, _B),
     "inventory / cost of sales × 365", ("inventory", "cost of sales")),
    (r"(?:receivables?|debtors?)\s+turnover", (_I, _B), "revenue / accounts receivable", ("revenue", "accounts receivable")),
    (r"days?\s+sales\s+outstanding|\bDSO\b", (_I, _B), "accounts receivable / revenue × 365",
     ("accounts receivable", "revenue")),
    (r"(?:payables?|creditors?)\s+turnover", (_I, _B), "cost of sales / accounts payable",
     ("cost of sales", "accounts payable")),
    (r"days?\s+payables?\s+outstanding|\bDPO\b", (_I, _B), "accounts payable / cost of sales × 365",
     ("accounts payable", "cost of sales")),
    (r"fixed[\s-]+assets?\s+turnover", (_I, _B), "revenue / property, plant and equipment",
     ("revenue", "property, plant and equipment")),
    (r"(?:total[\s-]+)?assets?\s+turnover", (_I, _B), "revenue / total assets", ("revenue", "total assets")),
    (r"return\s+on\s+(?:average\s+)?(?:total\s+)?assets|\bROA\b", (_I, _B), "net income / total assets",
     ("net income", "total assets")),
    (r"return\s+on\s+(?:average\s+)?(?:total\s+)?(?:(?:stock|share)holders['’]?\s+)?equity|\bROE\b", (_I, _B),
     "net income / stockholders' equity", ("net income", "stockholders' equity")),
    (r"return\s+on\s+(?:average\s+)?(?:total\s+)?(?:invested\s+capital|capital\s+employed)|\bRO(?:IC|CE)\b",
     (_I, _B), None, ()),
    (r"interest\s+coverage|times\s+interest\s+earned", (_I,), "operating income / interest expense",
     ("operating income", "interest expense")),
    (r"operating\s+cash\s+flow\s+ratio", (_C, _B), "operating cash flow / current liabilities",
     ("operating cash flow", "current liabilities")),
    (r"cash\s+flow\s+(?:to\s+debt|coverage)", (_C, _B), None, ()),
    (r"(?:dividend\s+)?payout\s+ratio", (_C, _I), "dividends paid / net income", ("dividends paid", "net income")),
    (r"capex\s+(?:to|as\s+a?\s*%?\s*(?:percent(?:age)?\s+)?of)\s+(?:revenue|sales)|capital\s+intensity", (_C, _I),
     None, ()),
    (r"cash\s+conversion", (_C,), "operating cash flow / net income", ("operating cash flow", "net income")),
    (r"free\s+cash\s+flow", (_C,), "operating cash flow − capital expenditures",
     ("operating cash flow", "capital expenditures")),
    (r"current\s+ratio", (_B,), "current assets / current liabilities", ("current assets", "current liabilities")),
    (r"quick\s+ratio|acid[\s-]+test\s+ratio", (_B,), "(current assets − inventory) / current liabilities",
     ("current assets", "inventory", "current liabilities")),
    (r"debt[\s-]+to[\s-]+equity", (_B,), "debt / stockholders' equity", ("debt", "stockholders' equity")),
    (r"debt[\s-]+to[\s-]+assets", (_B,), "debt / total assets", ("debt", "total assets")),
    (r"cash\s+ratio|debt[\s-]+to[\s-]+capital|(?:leverage|gearing|solvency)\s+ratio|book\s+value\s+per\s+share",
     (_B,), None, ()),
    (r"gross\s+(?:profit\s+)?margins?", (_I,), "(revenue − cost of sales) / revenue", ("revenue", "cost of sales")),
    (r"gross\s+profit", (_I,), "revenue − cost of sales", ("revenue", "cost of sales")),
    (r"operating\s+(?:profit\s+)?margins?", (_I,), "operating income / revenue", ("operating income", "revenue")),
    (r"(?:net|profit)\s+(?:profit\s+)?margins?", (_I,), "net income / revenue", ("net income", "revenue")),
    (r"(?:ebitda|ebit|pre[\s-]?tax)\s+(?:profit\s+)?margins?|effective\s+tax\s+rate", (_I,), None, ()),
]
_ITEMS: list[tuple[str, tuple[str, ...]]] = [
    (r"cash\s+(?:flows?\s+)?(?:from|provided\s+by|used\s+(?:in|by))\s+(?:operati\w+|investing|financing)"
     r"|(?:operating|investing|financing)\s+(?:activities|cash\s+flows?)|cash\s+from\s+operations"
     r"|capital\s+expenditures?|\bcapex\b|purchases?\s+of\s+(?:property|fixed\s+assets|pp&e)"
     r"|dividends?\s+paid|cash\s+dividends|(?:share|stock)\s+(?:repurchases?|buybacks?)"
     r"|repurchases?\s+of\s+(?:common\s+)?(?:stock|shares)|depreciation\s+and\s+amortization|\bD&A\b", (_C,)),
    (rf"{_OPT_NET}(?:revenues?|net\s+sales|total\s+sales|turnover)\b|cost\s+of\s+(?:goods\s+sold|sales|revenues?"
     r"|products\s+sold)|\bCOGS\b|operating\s+(?:income|profit|loss|expenses?)"
     r"|income\s+from\s+operations|\bEBIT(?:DA)?\b|selling,?\s+general\s+(?:and|&)\s+administrative|\bSG&A\b"
     r"|research\s+and\s+development\s+(?:expenses?|costs?)|\bR&D\s+(?:expenses?|costs?)"
     r"|(?:income\s+)?tax\s+expense|provision\s+for\s+income\s+taxes|interest\s+expense"
     r"|net\s+(?:income|earnings|loss|profit)|earnings\s+per\s+share|\bEPS\b", (_I,)),
    (r"total\s+(?:assets|liabilities)|current\s+(?:assets|liabilities)|inventor(?:y|ies)"
     r"|(?:accounts|trade)\s+(?:receivable|payable)|receivables|payables"
     r"|property,?\s+plant,?\s+and\s+equipment|\bPP&?N?E\b|fixed\s+assets|goodwill|intangible\s+assets"
     r"|(?:long[\s-]+term|short[\s-]+term|total|net)\s+(?:debt|borrowings)|working\s+capital|retained\s+earnings"
     r"|(?:total\s+)?(?:stockholders|shareholders)['’]?\s+equity|book\s+value"
     r"|cash\s+and\s+(?:cash\s+)?equivalents", (_B,)),
]
_RATIO_RX = [(re.compile(rf"(?i)(?<![\w-])(?:{rx})(?:\s+ratio)?(?![\w-])"), kinds, formula, parts)
             for rx, kinds, formula, parts in _RATIOS]
_COMPILED = [(rx, kinds) for rx, kinds, _, _ in _RATIO_RX] + [
    (re.compile(rf"(?i)(?<![\w-])(?:{rx})(?![\w-])"), kinds) for rx, kinds in _ITEMS]


def implied_kinds(query: str) -> list[str]:
    """The statements the line items and ratios ``query`` asks for come from, in order of first mention;
    none when the question names a statement itself ("per the balance sheet") or asks for no figure of
    one. A ratio's span is read once: "inventory turnover" → income, balance (not "inventory" again)."""
    if statement_kinds(query):
        return []
    taken: list[tuple[int, int]] = []
    found: list[tuple[int, str]] = []
    for rx, kinds in _COMPILED:
        for m in rx.finditer(query):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            taken.append((m.start(), m.end()))
            found += [(m.start() + i, kind) for i, kind in enumerate(kinds)]
    return list(dict.fromkeys(kind for _, kind in sorted(found)))


def implied_statements(query: str) -> list[str]:
    """Label keys of the statements a question implies (``statement:income``, …), as
    :func:`pagelens.retrieve.statements.question_statements` gives those it names."""
    return [f"statement:{kind}" for kind in implied_kinds(query)]


# The names one line item goes by, as questions and statements print them: "net revenue" is printed "Net
# sales", "cost of goods sold" "Cost of sales", "operating cash flow" "Net cash provided by operating
# activities", "capital expenditures" "Purchases of property, plant and equipment".
_NAMES: list[tuple[str, ...]] = [
    ("revenue", "revenues", "net revenue", "net revenues", "total revenue", "total revenues", "net sales",
     "total net sales", "sales", "turnover"),
    ("cost of goods sold", "cost of sales", "cost of revenue", "cost of revenues", "cost of products sold", "COGS"),
    ("operating income", "income from operations", "operating profit", "operating earnings"),
    ("net income", "net earnings", "net profit", "profit for the year"),
    ("operating cash flow", "operating cash flows", "cash from operations", "cash flow from operations",
     "cash flows from operations", "net cash provided by operating activities",
     "net cash from operating activities", "cash flows from operating activities", "cash generated from operations"),
    ("capital expenditure", "capital expenditures", "capex", "purchases of property, plant and equipment",
     "purchases of property and equipment", "additions to property, plant and equipment",
     "payments for acquisition of property, plant and equipment"),
    ("property, plant and equipment", "property and equipment", "PP&E", "fixed assets"),
    ("dividends paid", "cash dividends paid", "payments of dividends"),
    ("share repurchases", "stock repurchases", "share buybacks", "stock buybacks", "repurchases of common stock",
     "purchases of treasury stock"),
    ("selling, general and administrative", "SG&A"),
    ("accounts receivable", "trade receivables", "receivables"),
    ("stockholders' equity", "shareholders' equity", "total equity"),
    ("long-term debt", "long-term borrowings"),
]


def _name_rx(name: str) -> re.Pattern[str]:
    words = r"\s+".join(re.escape(w) for w in name.split())
    return re.compile(rf"(?i)(?<![\w-]){words}(?![\w-])")


_NAME_RX = [[_name_rx(n) for n in group] for group in _NAMES]


def other_names(query: str) -> list[str]:
    """The names the line items ``query`` asks for are printed by besides its own ("net revenue" →
    "net sales", "total revenue", …), for reading a statement's rows; none for a question that names none."""
    out: list[str] = []
    for group, rxs in zip(_NAMES, _NAME_RX):
        said = [n for n, rx in zip(group, rxs) if rx.search(query)]
        if said:
            out += [n for n in group if n not in said and not any(n in s for s in said)]
    return list(dict.fromkeys(out))


_DEFINED = re.compile(r",?\s*(?:which\s+is\s+|is\s+)?(?:defined|calculated|computed)\s+as\b.*$", re.IGNORECASE)


def ratio_parts(question: str) -> tuple[str, str, list[tuple[str, str]]] | None:
    """The first ratio ``question`` asks for, as (its words, its formula, [(part, the question asked of
    that part)]): "What is Acme's FY2018 inventory turnover ratio?" → ("inventory turnover ratio",
    "cost of sales / inventory", [("cost of sales", "What is Acme's FY2018 cost of sales?"), ...]); None
    when it names none. A definition the question gives ("..., defined as ...") is left out of the parts."""
    first = min(((m, f, p) for rx, _, f, p in _RATIO_RX if f and (m := rx.search(question))),
                key=lambda t: (t[0].start(), -len(t[0].group(0))), default=None)
    if first is None:
        return None
    m, formula, parts = first
    head, tail = question[: m.start()], _DEFINED.sub("", question[m.end():].split("?")[0])
    return m.group(0), formula, [(part, " ".join(f"{head}{part}{tail}".split()).rstrip(" ,.") + "?") for part in parts]
