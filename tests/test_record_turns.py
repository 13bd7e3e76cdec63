"""A record's turns as lv/recordturns.py reads them: the same decisions, texts and messages as the notation gives,
records that compare and print as the attrs classes they replaced did, and the layout reader's key test
(yamlsource._key_colon) agreeing with the pattern it replaced."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lv.board import load_board
from lv.errors import NotationError, RecordError
from lv.notation import format_action, parse_action
from lv.record import DecisionRecord, TurnRecord, load_record, parse_record
from lv.recordturns import _parsed, _text, record_families
from lv.yamlsource import _key_colon

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ["red", "blue", "green"]
HEAD = """format: lv-game/1
profile: revised
players: [red, blue, green]
first_player: red
deck: [A1, A2, A3, A4, A5, A6, B1, B2, B3, B4, B5, B6, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11, C12, D1, D2, D3,
  D4, D5, D6, D7, D8, D9, E1, E2, E3, E4, E5, E6, F1, F2, F3, F4, F5, F6, F7, F8, F9]
turns:
- player: red
  decisions:
"""


@pytest.mark.parametrize("name", ["revised-4p.yaml", "revised-2p.yaml"])
def test_every_structured_decision_parses_as_its_notation_does(name: str) -> None:
    """Each decision of a shipped record: the family's text parsed straight away gives what parse_action gives,
    and its text is format_action's."""
    rec = load_record(ROOT / "examples" / name)
    board = load_board()
    seen = 0
    for turn in rec.turns:
        for d in turn.decisions:
            assert d.text == format_action(d.action, rec.players)
            assert _parsed(d.text, rec.players, board) == parse_action(d.text, rec.players, board)
            assert _text(d.action, rec.players) == d.text
            seen += 1
    assert seen > 10


@pytest.mark.parametrize("text", ["build  A2 gold", " build A2 gold", "build A2 gold ", "build\tA2 gold",
                                  "build a2 GOLD", "raise A2"])
def test_a_text_to_normalise_reads_as_parse_action_reads_it(text: str) -> None:
    board = load_board()
    assert _parsed(text, PLAYERS, board) == parse_action(text, PLAYERS, board)


@pytest.mark.parametrize("text", ["build A2", "build Z9 gold", "build A2 plaid", "fly A2", "", "build A2 gold $6"])
def test_a_text_refused_says_what_parse_action_says(text: str) -> None:
    board = load_board()
    with pytest.raises(NotationError) as slow:
        parse_action(text, PLAYERS, board)
    with pytest.raises(NotationError) as fast:
        _parsed(text, PLAYERS, board)
    assert str(fast.value) == str(slow.value)


@pytest.mark.parametrize("decision, message", [
    ("{action: build, lot: Z9, color: gold}", "unknown lot 'Z9'"),
    ("{action: build, lot: A1, color: plaid}", "unknown colour 'plaid'"),
    ("{action: build, lot: 'A1 A2', color: gold}", "lot: a lot, not text 'A1 A2'"),
    ("{action: fly, lot: A1}", "unknown action 'fly' (actions: "),
    ("{action: gamble, lot: A1, bet: -1}", "bet: a whole number, not a number"),
    ("{action: build, lot: A1, colour: gold}", "unknown decision field(s) colour"),
    # each kind of field's check (recordturns._check_fields): a flag, a word given a number, any other field's text
    ("{action: gamble, lot: A1, bet: 2, lay_off: 5}", "lay_off: true or false, not a number"),
    ("{action: build, lot: 1, color: gold}", "lot: a lot, not a number"),
    ("{action: build, lot: A1, color: gold, cards: 'A1 A2'}", "cards: , not text 'A1 A2'"),
    ("{lot: A1, color: gold}", "unknown action None (actions: "),
])
def test_a_structured_decision_refused_names_its_line_and_what_is_wrong(decision: str, message: str) -> None:
    with pytest.raises(RecordError) as err:
        parse_record(HEAD + f"  - {decision}\n", "g.yaml")
    assert message in str(err.value) and err.value.line == 10 and "turn 1: " in str(err.value)


def test_records_compare_and_print_as_attrs_made_them() -> None:
    rec = parse_record(HEAD + "  - {action: build, lot: A1, color: gold}\n  - end\n", "g.yaml")
    turn = rec.turns[0]
    assert repr(turn.decisions[0]) == ("DecisionRecord(action=Build(lot='A1', color='gold'), dice={}, choices={}, "
                                       "line=10, text='build A1 gold')")
    assert repr(turn).startswith("TurnRecord(player='red', cards=None, dice={}, choices={}, decisions=[Decision"
                                 "Record(") and repr(turn).endswith("line=11, text='end'))")
    again = parse_record(HEAD + "  - {action: build, lot: A1, color: gold}\n  - end\n", "g.yaml").turns[0]
    assert again == turn and again.decisions[0] == turn.decisions[0]
    again.decisions[0].line = 12
    assert again != turn and again.decisions[0] != turn.decisions[0]
    assert turn.decisions[0] != "build A1 gold" and DecisionRecord(None) == DecisionRecord(None)
    assert TurnRecord("red") == TurnRecord("red", None, {}, {}, [], None, None) != TurnRecord("blue")


def test_the_families_table_follows_the_families() -> None:
    """record_families is made again when lv.actions.FAMILIES is another tuple (a house rule's families)."""
    import lv.actions as A

    before = record_families()
    assert before["build"].name == "build" and "trade" not in before
    saved = A.FAMILIES
    try:
        A.FAMILIES = tuple(f for f in saved if f.name != "build")
        assert "build" not in record_families()
    finally:
        A.FAMILIES = saved
    assert record_families()["build"].name == "build"


_KEY = re.compile(r"([A-Za-z0-9_][A-Za-z0-9_.\-]*): ?")  # the pattern _key_colon replaced


def _by_pattern(content: str) -> int:
    found = _KEY.match(content)
    return -1 if found is None else len(found.group(1))


@pytest.mark.parametrize("content", ["a: b", "a:", "a:b", "gamble.lay_off: x", "-a: b", ".a: b", "_a: 1", ": x",
                                     "a b: c", "'a': b", "{a: b}", "a", "", "A2: [1]", "a-b.c_d: e", "a:: b"])
def test_the_key_of_a_row_is_the_patterns(content: str) -> None:
    assert _key_colon(content) == _by_pattern(content)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="aZ09_.-: '{[,xé²", max_size=12))
def test_the_key_of_any_row_is_the_patterns(content: str) -> None:
    assert _key_colon(content) == _by_pattern(content)


CHAINS = [
    "{action: gamble, lot: B3, bet: 4, dice: {gamble: [3, 5]}}", "{player: red, cards: [A2]}", "[[1]]", "[a, [b]]",
    "{a: {b: {c: [1, 2]}}}", "{a: {}}", "[[], []]", "{a: [1], b: [2]}", "[a, [b], c]", "{a: 1, b {c: 2}}",
    "[a [b]]", "{a: 1, {b: 2}}", "{a:: {b: 1}}", "{a: 1, a: {b: 1}}", "{a: x {b: 1}}", "[a, , [b]]", "{ {a: 1}}",
    "{a: [1]], b: [2]}", "{a: [1}", "[[1], 2]", "{a: {b: 1}, c: 2}", "{: {b: 1}}", "[{a: 1}]", "[1, {a: [2, 3]}]",
]


@pytest.mark.parametrize("flow", CHAINS)
def test_a_flow_collection_with_one_inside_it_reads_as_the_general_path_reads_it(flow: str) -> None:
    """The layout reader's chains (yamlsource._chain) give the general path's data and lines, in order, or give the
    text up; the record's decisions and turns are chains."""
    from lv.yamlsource import _is_chain, _load_general, _load_layout

    text = f"x:\n- {flow}\n- {{last: [{flow}]}}\n"
    fast = _load_layout(text)
    try:
        data, lines = _load_general(text, "f.yaml")
    except Exception:
        assert fast is None
        return
    assert fast is None or (fast[0], list(fast[1].items())) == (data, list(lines.items()))
    if flow in CHAINS[:4]:
        assert _is_chain(flow) and fast is not None


@pytest.mark.skipif(__import__("os").environ.get("LV_EXPECT_COMPILED") != "1", reason="only in CI's compiled stage")
def test_the_record_is_read_and_replayed_by_compiled_modules_and_returns_attrs_values() -> None:
    """pyproject.toml's list compiles the reader, the header, the turns and the replay's loop; what a replay returns
    stays the attrs classes of lv/replaydata.py, which lv.replay re-exports."""
    import importlib

    import attrs

    import lv.replay
    import lv.replaydata

    for name in ("lv.yamlsource", "lv.recordhead", "lv.recordturns", "lv.replay"):
        assert importlib.import_module(name).__file__.endswith((".so", ".pyd")), name
    assert lv.replaydata.__file__.endswith(".py")
    for cls in ("Replay", "TurnPlay", "TurnSnapshot", "Illegal", "Generated", "CardMismatch", "Check"):
        assert getattr(lv.replay, cls) is getattr(lv.replaydata, cls) and attrs.has(getattr(lv.replay, cls)), cls


def test_a_replay_returns_the_attrs_values_it_did() -> None:
    """In both builds: a replay of a shipped record, its values attrs classes (asdict, evolve, frozen), re-exported."""
    import attrs

    from lv import replay as R

    rep = R.replay(load_record(ROOT / "examples" / "revised-4p.yaml"))
    assert type(rep) is R.Replay and rep.verified and len(rep.turns) == len(rep.snapshots) == 31
    snap = rep.snapshots[-1]
    assert type(snap) is R.TurnSnapshot and attrs.evolve(snap) == snap
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        snap.turn = 0  # type: ignore[misc]
    assert attrs.asdict(rep.turns[0])["line"] == rep.turns[0].line
