"""The table of action families as the families themselves read it: a trade holds other families' decisions and
parses, writes and carries them out through their families. ``lv/actions/__init__.py`` fills it (``enter``) once
it has discovered the families, so a family finds the others without importing the package above it (which
imports the family). The package's ``FAMILY_OF``, ``FAMILY_OF_VERB``, ``parse_words``, ``format_decision`` and
``structured_decision`` are these."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._family import Decision, Family, Words

FAMILY_OF: dict[type, Family] = {}
"""A decision's family, by its exact type."""

FAMILY_OF_VERB: dict[str, Family] = {}
"""The family that parses a verb of the notation (or another spelling of it)."""

_VERBS: list[str] = []  # the verbs of the notation, for the message naming them


def enter(families: Sequence[Family]) -> None:
    """Fill the table with ``families`` (the discovered ones, in order); done once, by ``lv/actions/__init__.py``.
    The dicts are filled in place: whoever imported them holds the table."""
    FAMILY_OF.update({cls: f for f in families for cls in f.decisions})
    FAMILY_OF_VERB.update({verb: f for f in families for verb in (*f.verbs, *f.aliases)})
    _VERBS.extend(verb for f in families for verb in f.verbs)


def parse_words(w: Words) -> Decision:
    """A decision from its words: the family of its verb parses it."""
    family = FAMILY_OF_VERB.get(w.words[0].lower())
    if family is None:
        raise w.fail(f"unknown decision '{w.words[0]}' (decisions: {', '.join(_VERBS)})")
    return family.parse(w)


def format_decision(decision: Decision, names: Sequence[str]) -> str:
    """A decision (or a step of a trade) in the notation."""
    family = FAMILY_OF.get(type(decision))
    if family is None:
        raise TypeError(f"not a decision: {decision!r}")
    return family.format(decision, names)


def structured_decision(decision: Decision, names: Sequence[str]) -> dict[str, Any]:
    """The structured record form of a decision (or a step of a trade)."""
    family = FAMILY_OF.get(type(decision))
    if family is None:
        raise TypeError(f"not a decision: {decision!r}")
    return family.structured(decision, names)
