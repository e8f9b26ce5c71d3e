"""What statistical printouts title their columns, for the words a question asks with: R's "Estimate",
"Std. Error", "Pr(>|t|)", statsmodels' "coef", "std err", "P>|z|", "SE", "Std.Dev." name the same
quantities as "coefficient", "standard error", "p value"."""

from __future__ import annotations

# What a program's printout of a fitted model titles its columns, for the words a question asks with
# (stemmed): the same quantity across packages (R's "Estimate", "Std. Error", "Pr(>|t|)"; statsmodels'
# "coef", "std err", "P>|z|"; "SE", "Std.Dev."). A question term, or a pair of them, adds these.
_STAT_SYNONYMS: dict[tuple[str, ...], frozenset[str]] = {
    ("coeffici",): frozenset({"estim", "coef"}),
    ("coef",): frozenset({"estim", "coeffici"}),
    ("standard", "error"): frozenset({"std", "se", "err"}),
    ("standard", "deviat"): frozenset({"std", "dev", "sd"}),
    ("pvalu",): frozenset({"pr", "p"}),
    ("p",): frozenset({"pr"}),
}


def stat_synonyms(q_terms: list[str] | set[str]) -> set[str]:
    """The question's terms with the column titles of statistical printouts that name the same
    quantity ("coefficient" → Estimate, "standard error" → Std. Error / SE, "p value" → Pr(>|t|))."""
    qs = set(q_terms)
    out = set(qs)
    for need, extra in _STAT_SYNONYMS.items():
        if all(t in qs for t in need):
            out |= extra
    return out


def with_stat_synonyms(asked: list[str]) -> list[str]:
    """``asked`` with each printout title a term (or pair) stands for put right after that term, so the
    title is as near the wh-word as the words that name it."""
    out = list(asked)
    qs = set(asked)
    for need, extra in _STAT_SYNONYMS.items():
        if all(t in qs for t in need):
            at = max(out.index(t) for t in need) + 1
            out[at:at] = sorted(extra - set(out))
    return out
