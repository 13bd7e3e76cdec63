"""Citations follow the value (issue 13, point 2).

A value a variant file changes is cited as the variant's (its own source, or the file and line that set it), never
with the parent's rulebook passage. The shipped citations name the rulebook and a section title that the rulebook
prints, then quote it: no line numbers of a text file that is not shipped, and docs/rules.md stands on its own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli
import lv

ROOT = Path(__file__).resolve().parent.parent
SEEDS = Path("/work/shared/seeds")  # the rulebook texts, where this checkout has them (not shipped)
RULEBOOKS = {"Original": "000_*.txt", "Revised": "003_*.txt"}
LINE_NUMBERS = re.compile(r"\bL\d+\b|\b00[03] ")

VARIANT = """\
extends: revised
name: house
raise:
  cost_per_space: 10
  max_height: players
sprawl:
  riser_cost: {value: 10, source: 'our club, 2026'}
"""


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def test_a_value_the_variant_changes_is_cited_as_the_variants(tmp_path):
    path = tmp_path / "house.yaml"
    path.write_text(VARIANT)
    profile = lv.load_profile(str(path))
    revised = lv.load_profile("revised")
    assert profile.sources["raise.cost_per_space"] == f"set by house, {path}:4"  # not "Pay $15 million ..."
    assert profile.sources["sprawl.riser_cost"] == "our club, 2026"
    # restated unchanged: the rulebook still gives it, so its citation stays
    assert profile.sources["raise.max_height"] == revised.sources["raise.max_height"]
    assert profile.sources["gamble.bet_per_tile"] == revised.sources["gamble.bet_per_tile"]
    shown = json.loads(run("variants", "show", str(path), "--json").stdout)["parameters"]
    assert {"key": "raise.cost_per_space", "value": 10, "source": f"set by house, {path}:4"} in shown
    diff = json.loads(run("variants", "diff", "revised", str(path), "--json").stdout)["differences"]
    assert [(d["key"], d["b_source"]) for d in diff] == [("sprawl.riser_cost", "our club, 2026"),
                                                         ("raise.cost_per_space", f"set by house, {path}:4")]
    assert diff[1]["a_source"] == 'Revised rules, "Action - Raise": "Pay $15 million for each riser"'


def test_a_variant_of_a_variant_cites_the_file_that_changed_it(tmp_path):
    (tmp_path / "house.yaml").write_text(VARIANT)
    (tmp_path / "cheaper.yaml").write_text("extends: house.yaml\nname: cheaper\nraise:\n  cost_per_space: 5\n")
    profile = lv.load_profile(str(tmp_path / "cheaper.yaml"))
    assert profile.sources["raise.cost_per_space"] == f"set by cheaper, {tmp_path / 'cheaper.yaml'}:4"
    assert profile.sources["sprawl.riser_cost"] == "our club, 2026"
    spec = f"{tmp_path / 'cheaper.yaml'},raise.cost_per_space=7"
    assert lv.load_profile(spec).sources["raise.cost_per_space"] == f"override in '{spec}'"


def shipped_sources() -> list[tuple[str, str, str]]:
    out = []
    for spec in ("original", "revised", "original+f-block"):
        out += [(spec, k, s) for k, s in lv.load_profile(spec).sources.items()]
    return out


def test_shipped_citations_name_an_edition_and_no_line_numbers():
    for spec, key, source in shipped_sources():
        assert re.match(r"(Original|Revised) rules[,:]", source), (spec, key, source)
        assert not LINE_NUMBERS.search(source), (spec, key, source)
    for path in (ROOT / "variants").glob("*.yaml"):
        assert not LINE_NUMBERS.search(path.read_text()), path


def cited_titles() -> set[tuple[str, str]]:
    """(edition, section title) of every citation: the quoted titles right after 'Original rules, '."""
    found = set()
    for _, _, source in shipped_sources():
        for edition, first, second in re.findall(r'(Original|Revised) rules, "([^"]+)"(?: and "([^"]+)")?', source):
            found |= {(edition, t) for t in (first, second) if t}
    return found


def normal(text: str) -> str:
    text = re.sub(r"<\|[^|]*\|>", " ", text).replace("\u2013", "-").replace("\u2019", "'")
    return " ".join(text.split()).lower()


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebook texts are not on this machine")
def test_every_cited_section_title_is_printed_in_its_rulebook():
    texts = {edition: normal(next(SEEDS.glob(pattern)).read_text(encoding="utf-8"))
             for edition, pattern in RULEBOOKS.items()}
    titles = cited_titles()
    assert len(titles) >= 30
    missing = sorted((e, t) for e, t in titles if normal(t) not in texts[e])
    assert missing == []


def test_rules_md_stands_on_its_own():
    text = (ROOT / "docs" / "rules.md").read_text()
    for planning in ("reference/", "rules-diff", "worked-examples.md", "seeds/"):
        assert planning not in text
    assert not LINE_NUMBERS.search(text)
    assert "## How citations are written" in text and "carry no page numbers" in text
    rows = [line for line in text.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == 47 and all(" / R: " in row.split(" | ")[2] for row in rows)


def refusal_rules() -> dict[str, str]:
    """The rule names ``lv move`` and ``lv check`` print in refusals of the turn order and of trades (the rule-id
    table, lv/ruleids.py, holds them all)."""
    from lv.actions import rule_ids

    return {k: v for k, v in rule_ids().items() if "(" in v}


def test_refusals_cite_section_titles_not_line_numbers():
    """'lv move club.yaml draw' once answered '[the draw: the card on top (000 Step 1: Draw L63-65; 003 Step 1
    L295-300)]': line numbers of a text file that is not shipped."""
    found = refusal_rules()
    assert {"TURN_ORDER", "DRAW_FIRST", "DRAW_NAMED", "TIE_REROLL", "TRADE_FORBIDDEN", "TRADE_PARTIES"} <= set(found)
    for name, rule in found.items():
        assert not LINE_NUMBERS.search(rule), (name, rule)
        assert re.search(r'\(rulebooks: "', rule), (name, rule)


@pytest.mark.skipif(not SEEDS.is_dir(), reason="the rulebook texts are not on this machine")
def test_refusals_cite_titles_the_rulebooks_print():
    texts = {edition: normal(next(SEEDS.glob(pattern)).read_text(encoding="utf-8"))
             for edition, pattern in RULEBOOKS.items()}
    for name, rule in refusal_rules().items():  # the 2010 rulebook's titles, then the revised one's
        parts = rule[rule.index("(rulebooks: "):].split("; ")
        editions = [["Original", "Revised"]] if len(parts) == 1 else [["Original"], ["Revised"]]
        for part, where in zip(parts, editions):
            for title in re.findall(r'"([^"]+)"', part):
                assert all(normal(title) in texts[e] for e in where), (name, title, where)
