"""The YAML loader's two paths (lv/yamlsource.py): the fast one (``_load_plain``, one pass over libyaml's events for
plain files) must give exactly what the general one (``_load_general``) gives, the same data, the same lines in the
same order, or give the text up (None) so that the general path reads it; and it must take the files lv writes."""

from __future__ import annotations

import datetime
import os
import re
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import bots, yamlsource
from lv.errors import LvError
from lv.record import dumps, record_of
from lv.yamlsource import MAX_DEPTH, _load_events, _load_general, _load_layout, _load_plain, line_of, load_located

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted([*ROOT.glob("examples/*.yaml"), *ROOT.glob("variants/*.yaml"), *ROOT.glob("lv/**/*.yaml")])
EXAMPLES = int(os.environ.get("LV_HOSTILE_EXAMPLES", "200"))


def general(text: str) -> tuple[Any, list[tuple[Any, int]]] | str:
    """What the general path gives: (data, lines in order), or its one-line message."""
    try:
        data, lines = _load_general(text, "f.yaml")
    except LvError as err:
        return str(err)
    return data, list(lines.items())


def same_as_general(text: str) -> bool:
    """The fast path gave the text up, or gave what the general path gives (and the general path accepts it)."""
    fast = _load_plain(text)
    if fast is None:
        return False
    assert (fast[0], list(fast[1].items())) == general(text)
    # the same types too: 1 is not True, 1.0 is not 1, a date is not its text
    assert repr(fast[0]) == repr(general(text)[0])
    return True


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_shipped_files_take_the_fast_path_and_read_the_same(path):
    assert same_as_general(path.read_text())


@pytest.mark.slow
def test_records_lv_writes_take_the_fast_path_and_read_the_same():
    for spec, players in (("revised", 4), ("original", 3), ("revised", 6)):
        profile = lv.load_profile(spec)
        for seed in range(3):
            game = lv.new_game(profile, players, seed)
            bots.play(game, [bots.uniform_bot] * players, seed)
            data = record_of(game, spec)
            for fmt in ("yaml", "json"):
                assert same_as_general(dumps(data, fmt)), (spec, seed, fmt)


@pytest.mark.parametrize("text, why", [
    ("a: &x 1\nb: *x\n", "an anchor and an alias"),
    ("base: &m {x: 1}\nthing:\n  <<: *m\n", "a merge key"),
    ("a: !!int 3\n", "a tag"),
    ("a: ! 3\n", "the non-specific tag"),
    ("a: 1\na: 2\n", "a duplicate key"),
    ("? [1, 2]\n: x\n", "a list as a key"),
    ("a: 1\n---\nb: 2\n", "a second document"),
    ("a: [1, 2\n", "malformed YAML"),
    ("a: " + "9" * 101 + "\n", "a number of more than MAX_DIGITS digits"),
    ("a: " + "9" * 5000 + "\n", "a number int() refuses"),
    ("a: 2024-13-40\n", "a date that is none"),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nesting deeper than MAX_DEPTH"),
    ("a: =\n", "the value key"),
])
def test_the_fast_path_gives_up_what_only_the_general_path_reads_or_refuses(text, why):
    assert _load_plain(text) is None, why
    # and the answer is the general path's, message and all
    try:
        got: Any = load_located(text, "f.yaml")
        got = (got[0], list(got[1].items()))
    except LvError as err:
        got = str(err)
    assert got == general(text)


def test_nesting_up_to_the_limit_takes_the_fast_path():
    assert same_as_general("[" * MAX_DEPTH + "]" * MAX_DEPTH)


def test_empty_and_scalar_documents():
    for text in ("", "---\n", "# nothing\n", "3\n", "'x'\n", "~\n", "- \n"):
        assert same_as_general(text), text


WORDS = st.sampled_from(["a", "b", "gold", "A2", "yes", "no", "on", "off", "true", "False", "null", "~", "", " x",
                         "1", "-1", "+1", "0x1F", "0o17", "017", "1_000", "1:30", "1.5", "1e3", ".inf", "-.Inf",
                         ".nan", "2001-01-01", "2001-12-14t21:59:43.10-05:00", "<<", "=", "a: b", "a #b", "- x",
                         "x\ny", "'q'", '"q"', "é", "\t", "[", "{", "*a", "&a", "!t", "%", "@", "`", "?"])
KEYS = st.one_of(WORDS, st.integers(-3, 3), st.booleans(), st.none())
SCALARS = st.one_of(WORDS, st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
                    st.dates(min_value=datetime.date(1, 1, 1)), st.text(max_size=8))
DATA = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(KEYS, inner, max_size=4)), max_leaves=20)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DATA, st.sampled_from([None, True, False]), st.sampled_from([None, 1, 5, 20]))
def test_the_fast_path_reads_any_dumped_data_as_the_general_path_does(data, flow, width):
    text = yaml.safe_dump(data, default_flow_style=flow, width=width or 80, allow_unicode=width == 5)
    same_as_general(text)


PIECES = st.sampled_from(
    list("[]{}:,-?&*!|>'\"#%@`\n\t ") + ["a", "1", "&a ", "*a", "<<: ", "=", "!!int ", "!!str ", "0x", "1:2:3",
                                         "2001-01-01", ".inf", "---\n", "...\n", "%YAML 1.1\n", "\x00", "\ufeff",
                                         "\x85", "  ", "key: ", "- ", "9" * 120, "yes", "~"])


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(PIECES, max_size=30).map("".join))
def test_the_fast_path_reads_any_text_as_the_general_path_does_or_gives_it_up(text):
    same_as_general(text)


def test_without_libyaml_the_fast_path_reads_the_same(monkeypatch):
    """PyYAML built without libyaml: the pure-Python parser gives the events, the same data and lines."""
    text = (ROOT / "examples" / "revised-4p.yaml").read_text()
    with_libyaml = _load_events(text)
    monkeypatch.setattr("lv.yamlsource._EventParser", yaml.SafeLoader)
    without = _load_events(text)
    assert with_libyaml is not None and without is not None
    assert (without[0], list(without[1].items())) == (with_libyaml[0], list(with_libyaml[1].items()))
    assert _load_plain("a: [1, 2\n") is None


# ---------------------------------------------------------------------------------------------- the layout reader
# ``_load_layout`` reads the block layout lv's dumper writes without libyaml's events; _load_plain tries it first,
# so every test above runs it too. These check that it is taken where it should be, and agrees when it is.

RECORDS = sorted(p for p in ROOT.glob("examples/*.yaml") if "question" not in p.name)


def same_by_layout(text: str) -> bool:
    """The layout reader gave the text up, or gave what the general path gives, types and line order included."""
    got = _load_layout(text)
    if got is None:
        return False
    expected = general(text)
    assert not isinstance(expected, str), expected
    assert (got[0], list(got[1].items())) == expected
    assert repr(got[0]) == repr(expected[0])
    return True


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_the_example_records_take_the_layout_reader(path):
    assert same_by_layout(path.read_text())


def test_records_lv_writes_take_the_layout_reader():
    game = lv.new_game(lv.load_profile("revised"), 4, 3)
    bots.play(game, [bots.uniform_bot] * 4, 3)
    assert same_by_layout(dumps(record_of(game, "revised"), "yaml"))


@pytest.mark.parametrize("text", [
    "a: 1\n  b: 2\n",  # a line more indented than its mapping
    "a: x\n  y\n",  # a plain scalar over two lines
    "a: [1,\n2]\n",  # a flow list's next line not indented
    "a: [1, , 2]\n", "a: [1, 2, ]\n", "a: {x: 1, x: 2}\n", "a: {x}\n", "a: [x: 1]\n", "a: [- 1]\n",
    "a: ['x, y']\n", "a: 1 # note\n", "a: {b: c: d}\n", "- - 1\n", "-\n", "a:\n-\n", "a: b\nb",
    "a: [1:30]\n", "a: {b: [1], b: 2}\n",
    # collections inside collections anywhere (``_nest``, sparse; the pattern split's reader otherwise)
    "a: {b: [1], c}\n", "a: {b: [1] c: 2}\n", "a: [[1], , [2]]\n", "a: [[1], [2], ]\n", "a: {b: [1], b: [2]}\n",
    "a: {[1]: 2, c: [3]}\n", "a: [x [1], [2]]\n", "a: {b: [1]], c: [2]}\n", "a: {b: [1], c: [2}\n",
    "a: [[1], [2]] x\n", "a: {b: {c: [1], c: 2}, d: [3]}\n", "a: [[1], x: 2]\n", "a: {b: [1], : 2}\n",
])
@pytest.mark.parametrize("compiled", [True, False])
def test_the_layout_reader_gives_up_the_rest(text, compiled, monkeypatch):
    monkeypatch.setattr(yamlsource, "_COMPILED", compiled)  # sparse: ``_nest`` (compiled) or the pattern split's reader
    assert _load_layout(text) is None and _load_layout(text, sparse=True) is None
    same_as_general(text)  # and the event loop or the general path reads it as before


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DATA, st.sampled_from([None, True, False]), st.sampled_from([None, 1, 5, 20]))
def test_the_layout_reader_reads_any_dumped_data_as_the_general_path_does(data, flow, width):
    same_by_layout(yaml.safe_dump({"k": data, "m": [data]}, default_flow_style=flow, width=width or 80))


def test_the_layout_reader_refuses_the_characters_it_refused_as_a_pattern():
    """``_load_layout`` refuses a text with any character but a line break and some printable ASCII (deleted by
    ``_LAYOUT_CHARS``): the very characters of the pattern it used before, for every character up to U+3000."""
    from lv.yamlsource import _LAYOUT_CHARS

    refused = re.compile(r"[^\n $'()+,\-./0-9:;<=A-Z\[\]^_a-z{}~]")
    for code in range(0x3000):
        c = chr(code)
        assert (not c.isascii() or bool(c.encode("ascii").translate(None, _LAYOUT_CHARS))) == bool(refused.search(c)), \
            repr(c)


def test_the_layout_reader_leaves_a_text_with_a_refused_character_to_the_general_path():
    """``_load_layout`` itself gives None (the general path reads it) for a text with a character it refuses
    anywhere in it, ASCII (a comment's "#", a quote, a tab, a tag's "!") or not, and reads the same text without it."""
    from lv.yamlsource import _load_layout

    refused = re.compile(r"[^\n $'()+,\-./0-9:;<=A-Z\[\]^_a-z{}~]")
    assert _load_layout("k: ab\nm: [1, 2]\n") is not None
    for c in [chr(code) for code in range(0x80) if refused.search(chr(code))] + ["\u00e9", "\u3000"]:
        assert _load_layout(f"k: a{c}b\nm: [1, 2]\n") is None, repr(c)
        assert _load_layout(f"k: ab\nm: [1, 2]\n# {c}\n") is None, repr(c)


# ---------------------------------------------------------------------------------------------- sparse lines
# ``load_located(..., sparse=True)`` (a record's reader): the layout reader leaves out the lines of what a flow
# collection on one row holds; ``line_of`` must give every key path (and any path below one) the line it gives
# with all the lines, and the lines it keeps must be the general path's.

def same_line_of_sparse(text: str) -> bool:
    """The sparse lines of ``text`` answer ``line_of`` as the whole lines do, for every key path and a key below it;
    True if the sparse reading left some out."""
    data, full = load_located(text, "f.yaml")
    sparse_data, sparse = load_located(text, "f.yaml", sparse=True)
    assert sparse_data == data and repr(sparse_data) == repr(data)
    assert sparse.items() <= full.items()
    for path in full:
        assert line_of(sparse, path) == line_of(full, path), path
        assert line_of(sparse, (*path, "no such key")) == line_of(full, (*path, "no such key")), path
    return len(sparse) < len(full)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_sparse_lines_answer_line_of_as_all_the_lines_do(path):
    left_out = same_line_of_sparse(path.read_text())
    assert left_out or path not in RECORDS  # the records the layout reader takes: their decisions' keys left out


@pytest.mark.parametrize("text", [
    "a: [1, 2,\n  3]\n",  # a flow list over two rows: its third entry on the second
    "a: {b: 1,\n  c: [2, 3]}\n", "a:\n- {b: {c: [1, 2]}}\n- [1, [2, {d: e}]]\n- {f: g, h: {i: j}}\n",
    "x:\n- player: red\n  cards: [A1]\n  decisions:\n  - {action: gamble, lot: A1, bet: 2, dice: {gamble: [1, 2]}}\n"
    "  - {action: build, lot: A2, color: gold}\n", "k: []\nm: {}\nn: [{}]\n",
])
def test_sparse_lines_of_flow_collections(text):
    same_line_of_sparse(text)


@pytest.mark.parametrize("text", [
    "- {black: [4, 2], blue: [3, 3]}\n- {green: [2, 5], purple: [6, 5]}\n",
    "r: {reason: end_card, scores: {a: 26, b: 3}, money: {a: 15, b: 106}, n: [1, [2, [3, {}]], []]}\n",
    "d: {reorg: {F8: 6, F6: 2}, ties: {F7: [2], F8: [6]}}\n", "e: [[], {}, [[]], {a: {}}, {b: []} ]\n",
    "f: {1: [a], 2.5: {x: y}, t: [ 1 ,2 ], null: {}}\n", "g: [ [1] , {a: b} , 3 ]\n",
])
@pytest.mark.parametrize("compiled", [True, False])
def test_sparse_lines_of_collections_anywhere_inside_one_on_one_row(text, compiled, monkeypatch):
    """A record's starting rolls, result, reorganized and tie dice (``_nest`` compiled, the pattern split's reader
    interpreted; the pure build runs both here): the general path's data, ``line_of`` as with all the lines, and only
    each row's collection's own line kept (with the root's)."""
    monkeypatch.setattr(yamlsource, "_COMPILED", compiled)
    assert same_line_of_sparse(text)
    data, lines = load_located(text, "f.yaml", sparse=True)
    assert len(lines) == 1 + len(data)


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DATA, st.sampled_from([None, True, False]), st.sampled_from([None, 1, 5, 20]))
def test_sparse_lines_of_any_dumped_data(data, flow, width):
    same_line_of_sparse(yaml.safe_dump({"k": data, "m": [data]}, default_flow_style=flow, width=width or 80))


@pytest.mark.parametrize("text", ["a: 1 \n", "a: [x, y]  \nb: {c: d} \n", "- x \n- 2  \n", "a:  \n  b: 1\n",
                                  "a: x y \n", "k:\n- {a: [1, 2]} \n- [3]   \n"])
def test_the_layout_reader_reads_spaces_at_the_end_of_a_line_as_the_general_path_does(text):
    assert same_by_layout(text)
