"""What a report's cover says about itself: issuer, form type and reporting period.

Questions name their document by these facts ("3M's FY2018 capital expenditure", "Kroger's second
quarter", "in the 2009 annual report", "the Globex 10-K"), usually in other words than the cover
prints them ("For the fiscal year ended December 31, 2018"). The functions here read the facts from
cover text and write them out in the spellings questions use (``FY2018``, ``fiscal 2018``, ``Q2 2023``,
``2Q23``, ``second quarter 2023``, ``10-K``, ``annual report``), for the document-routing profile
(``pagelens.index.profile``). Pure functions over text: nothing here is specific to one document.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_MONTHS = ("january february march april may june july august september october november december").split()
_MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
_ORDINALS = ("first", "second", "third", "fourth")

# SEC form types and their usual names.
_FORMS = {
    "10-K": "annual report", "10-K405": "annual report", "10-KSB": "annual report", "10-Q": "quarterly report",
    "10-QSB": "quarterly report", "8-K": "current report", "20-F": "annual report", "40-F": "annual report",
    "6-K": "report of foreign issuer", "S-1": "registration statement", "DEF 14A": "proxy statement",
}
_FORM = re.compile(r"\bform\s+(10-K405|10-KSB|10-QSB|10-K|10-Q|8-K|20-F|40-F|6-K|S-1|DEF\s*14A)\b", re.I)
_BARE_FORM = re.compile(r"(?<![\w-])(10-K|10-Q|8-K|20-F)(?![\w-])")
_KIND = re.compile(
    r"\b(annual report|quarterly report|interim report|earnings release|proxy statement|sustainability report|"
    r"integrated report|financial statements|shareholder letter|annual review)\b",
    re.I,
)
_PERIOD_ENDED = re.compile(
    rf"\b(?:for\s+the\s+)?(fiscal\s+year|year|quarterly\s+period|quarter|period|(?:three|six|nine|twelve)\s+months)"
    rf"\s+ended\s+({_MONTH})\s+\d{{1,2}},?\s+((?:19|20)\d\d)\b",
    re.I,
)
_QUARTER_WORDS = re.compile(rf"\b({'|'.join(_ORDINALS)})\s+(?:fiscal\s+)?quarter(?:\s+(?:of\s+)?(?:fiscal\s+)?((?:19|20)\d\d))?", re.I)
_QN = re.compile(r"\b(?:Q([1-4])\s*(?:FY)?\s*'?((?:19|20)?\d\d)|([1-4])Q\s*'?((?:19|20)?\d\d))\b", re.I)
_FISCAL = re.compile(r"\b(?:fiscal(?:\s+year)?|FY)\s*'?((?:19|20)\d\d|\d\d)\b", re.I)
_REPORT_YEAR = re.compile(
    r"\b((?:19|20)\d\d)\s+(?:annual|integrated|sustainability)\s+report\b|\b(?:annual|integrated|sustainability)\s+report\s+((?:19|20)\d\d)\b",
    re.I,
)
_REGISTRANT = re.compile(r"\(?\s*exact\s+name\s+of\s+registrant", re.I)
_COMPANY = re.compile(
    r"\b((?:(?!\d+\b)[A-Z0-9][\w&.'’-]*\s+){0,4}?(?:(?!\d+\b)[A-Z0-9][\w&'’-]*),?\s+"
    r"(?:Inc\.?|Incorporated|Corp\.?|Corporation|Company|Co\.|plc|PLC|Ltd\.?|Limited|LLC|L\.P\.|N\.V\.|S\.A\.|AG|SE|Group|Holdings))(?![\w])"
)
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?!\d)")
# An 8-K's cover: "Date of Report (Date of earliest event reported): July 1, 2022".
_REPORT_DATE = re.compile(rf"\bdate\s+of\s+report\b[^:]{{0,60}}:?\s*({_MONTH})\s+(\d{{1,2}}),?\s+((?:19|20)\d\d)\b", re.I)
# File-name parts: "10K", "10-Q", "8K"; "2023Q4", "Q4-2023", "2Q23"; "FY18", "FY2018"; a bare year.
_NAME_FORM = re.compile(r"^(10-?K405|10-?KSB|10-?QSB|10-?K|10-?Q|8-?K|20-?F|40-?F|6-?K)$", re.I)
_NAME_QUARTER = re.compile(r"^(?:((?:19|20)\d\d)Q([1-4])|Q([1-4])((?:19|20)?\d\d)|([1-4])Q((?:19|20)?\d\d))$", re.I)
_NAME_QUARTER_ALONE = re.compile(r"^(?:Q([1-4])|([1-4])Q)$", re.I)
_NAME_FY = re.compile(r"^FY((?:19|20)?\d\d)$", re.I)
_NAME_YEAR = re.compile(r"^((?:19|20)\d\d)$")
_NAME_DATE = re.compile(r"^((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])$")  # 20220701; split: 2022 07 01


@dataclass
class CoverFacts:
    """Facts read from a cover. ``terms`` spells them the ways questions do."""

    issuer: str | None = None
    forms: list[str] = field(default_factory=list)  # "10-K", "annual report", ...
    periods: list[str] = field(default_factory=list)  # "FY2018", "Q2 2023", ...
    years: list[str] = field(default_factory=list)

    def terms(self) -> str:
        """Issuer, forms and periods (the years merely printed on the cover are left out)."""
        parts = ([self.issuer] if self.issuer else []) + self.forms + self.periods
        return " ".join(dict.fromkeys(p for p in parts if p))


def _year(raw: str) -> str:
    return raw if len(raw) == 4 else f"20{raw}"


def _quarter_terms(q: int, year: str | None) -> list[str]:
    word = _ORDINALS[q - 1]
    if not year:
        return [f"Q{q}", f"{word} quarter"]
    return [f"Q{q} {year}", f"{q}Q{year[2:]}", f"Q{q}-{year}", f"{word} quarter {year}", f"{word} quarter"]


def _month_number(name: str) -> int:
    """1 for "January", "Jan." or "jan"."""
    return next(i for i, full in enumerate(_MONTHS, 1) if full.startswith(name.lower()[:3]))


def _date_terms(year: str, month: int, day: int) -> list[str]:
    """A day as questions write it: "July 1, 2022", "1 July 2022", "1st July 2022", "July 2022"."""
    name = _MONTHS[month - 1].capitalize()
    nth = f"{day}{'th' if 10 <= day % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(day % 10, 'th')}"
    return [f"{name} {day}, {year}", f"{day} {name} {year}", f"{nth} {name} {year}", f"{name} {year}"]


def _year_terms(year: str) -> list[str]:
    return [f"FY{year}", f"fiscal {year}", f"FY{year[2:]}", year]


def cover_facts(text: str, max_chars: int = 6000) -> CoverFacts:
    """Issuer, form type and period from the text of a report's first page(s)."""
    text = " ".join(text[:max_chars].split())
    facts = CoverFacts(issuer=issuer(text))
    forms: list[str] = []
    for m in _FORM.finditer(text):
        form = re.sub(r"\s+", " ", m.group(1).upper())
        forms += [form, _FORMS.get(form, "")]
    for m in _BARE_FORM.finditer(text):
        forms += [m.group(1).upper(), _FORMS.get(m.group(1).upper(), "")]
    forms += [m.group(1).lower() for m in _KIND.finditer(text)]
    facts.forms = list(dict.fromkeys(f for f in forms if f))
    periods: list[str] = []
    for m in _PERIOD_ENDED.finditer(text):
        span, month, year = m.group(1).lower(), m.group(2).lower()[:3], m.group(3)
        month_no = _month_number(month)
        if "quarter" in span or "three" in span:
            periods += _quarter_terms((month_no - 1) // 3 + 1, year)
        elif "year" in span or "twelve" in span:
            periods += _year_terms(year)
            if month_no <= 2:  # a year ended in January or February is often called by the year before
                periods += _year_terms(str(int(year) - 1))  # (Target's "fiscal 2022" ended January 28, 2023)
        periods.append(year)
    for m in _QUARTER_WORDS.finditer(text):
        periods += _quarter_terms(_ORDINALS.index(m.group(1).lower()) + 1, m.group(2))
    for m in _QN.finditer(text):
        q = int(m.group(1) or m.group(3))
        periods += _quarter_terms(q, _year(m.group(2) or m.group(4)))
    for m in _FISCAL.finditer(text):
        periods += _year_terms(_year(m.group(1)))
    for m in _REPORT_YEAR.finditer(text):
        year = m.group(1) or m.group(2)
        periods += [f"{year} annual report", *_year_terms(year)]
    for m in _REPORT_DATE.finditer(text):
        if 1 <= int(m.group(2)) <= 31:
            periods += _date_terms(m.group(3), _month_number(m.group(1)), int(m.group(2)))
    facts.periods = list(dict.fromkeys(periods))
    facts.years = list(dict.fromkeys(_YEAR.findall(text)))[:6]
    return facts


def name_facts(name: str) -> CoverFacts:
    """Form type and period from a file name's parts (``3M_2018_10K``, ``AMCOR_2023Q4_10Q``,
    ``acme-fy19-annual-report``, the day of ``ACME_2022_8K_dated-2022-07-01``), spelled as questions
    spell them. A bare year of an annual form
    (10-K, 20-F, "annual report") is that fiscal year; of any other file just the year."""
    parts = [p for p in re.split(r"[-_.\s]+", name) if p]
    joined = [f"{a}-{b}" for a, b in zip(parts, parts[1:])]  # "10-K" split by the separator
    forms: list[str] = []
    for p in (*parts, *joined):
        m = _NAME_FORM.match(p)
        if m:
            form = re.sub(r"^(\d+)-?", r"\1-", m.group(1).upper())
            forms += [form, _FORMS.get(form, "")]
    text = " ".join(parts)
    forms += [m.group(1).lower() for m in _KIND.finditer(text)]
    if any(p.lower() == "annual" for p in parts):
        forms.append("annual report")
    annual = any(f in ("annual report", "10-K", "20-F", "40-F") for f in forms)
    periods: list[str] = []
    years: list[str] = []
    first_year = next((p for p in parts if _NAME_YEAR.match(p)), None)
    for date in (*parts, *("".join(parts[i:i + 3]) for i in range(len(parts) - 2))):  # "dated-2022-07-01"
        if m := _NAME_DATE.match(date):
            periods += _date_terms(m.group(1), int(m.group(2)), int(m.group(3)))
    for p in parts:
        if m := _NAME_QUARTER_ALONE.match(p):
            periods += _quarter_terms(int(m.group(1) or m.group(2)), first_year)
        elif m := _NAME_QUARTER.match(p):
            q = int(m.group(2) or m.group(3) or m.group(5))
            periods += _quarter_terms(q, _year(m.group(1) or m.group(4) or m.group(6)))
        elif m := _NAME_FY.match(p):
            periods += _year_terms(_year(m.group(1)))
        elif m := _NAME_YEAR.match(p):
            years.append(m.group(1))
            periods += _year_terms(m.group(1)) if annual else [m.group(1)]
    return CoverFacts(forms=list(dict.fromkeys(f for f in forms if f)), periods=list(dict.fromkeys(periods)), years=years)


def issuer(text: str) -> str | None:
    """The company a cover names: the line before "(Exact name of registrant ...)" on an SEC cover,
    else the first "X Inc." / "X Corporation" style name."""
    m = _REGISTRANT.search(text)
    if m:
        before = text[max(0, m.start() - 160) : m.start()]
        names = list(_COMPANY.finditer(before))
        if names:
            return names[-1].group(1).strip(" ,")
        words = re.findall(r"[A-Z0-9][\w&.'’-]*", before)
        if words:
            return " ".join(words[-4:])
    m = _COMPANY.search(text)
    return m.group(1).strip(" ,") if m else None
