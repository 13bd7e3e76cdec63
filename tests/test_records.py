"""Game records (lv-game/1): load, write, replay under the recorded profile and others, narrative, diff, schema.

Rules numbers are checked by hand against the rulebooks: 000 = shared/seeds/000_*.txt (original), 003 =
shared/seeds/003_*.txt (revised), and the worked examples of shared/reference/worked-examples.md.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import lv
from lv import bots, narrative, position as position_mod
from lv.board import load_board
from lv.diff import compare, diff_records
from lv.errors import RecordError
from lv.events import event
from lv.record import (DECISION_KEYS, HEADER_KEYS, RESULT_KEYS, STEP_KEYS, TURN_KEYS, dumps, load_record,
                       parse_record, record_of)
from lv.replay import Illegal, check_file, replay, same_rules

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
SCHEMA = ROOT / "docs" / "lv-game-1.schema.json"


def selfplay(spec: str, players: int, seed: int):
    game = lv.new_game(spec, players, seed)
    bots.play(game, [bots.random_kind_bot] * players, seed)
    return game


@pytest.fixture(scope="module")
def game4():
    return selfplay("revised", 4, 7)


@pytest.fixture(scope="module")
def record4(game4):
    return parse_record(dumps(record_of(game4, "revised")), "g.yaml")


def money(game):
    return {p.name: p.money for p in game.state.players}


def scores(game):
    return {p.name: p.score for p in game.state.players}


def example(name: str):
    return load_record(ROOT / "examples" / name)


# ---------------------------------------------------------------------------------------------- round trip


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_a_written_record_replays_to_the_same_game_and_rewrites_identically(game4, fmt):
    """The record of a replayed game is the record it was replayed from: decisions, dice, cards and result."""
    data = record_of(game4, "revised")
    rep = replay(parse_record(dumps(data, fmt), f"g.{fmt}"))
    assert rep.strict and rep.verified is True and rep.game.over
    assert money(rep.game) == money(game4) and scores(rep.game) == scores(game4)
    assert record_of(rep.game, "revised") == data


def test_replay_json_is_the_same_bytes_every_time(record4):
    first = json.dumps(replay(record4).to_dict(), indent=1)
    again = json.dumps(replay(parse_record(dumps(record_of(replay(record4).game, "revised")), "g.yaml")).to_dict(),
                       indent=1)
    assert first == again
    data = json.loads(first)
    assert data["verified"] is True and data["header"]["players"] == ["black", "blue", "green", "purple"]
    assert len(data["turns"]) == len(record4.turns)
    assert all("events" in d or "illegal" in d for t in data["turns"] for d in t["decisions"])


def test_notation_and_structured_decisions_load_the_same():
    names = ["red", "blue"]
    base = "format: lv-game/1\nprofile: revised\nplayers: [red, blue]\nposition: {current: red}\nturns:\n- player: red\n"
    texts = ["  decisions: ['trade money 7 from red to blue; lot A2 from blue to red', 'gamble B3 4 layoff']",
             "  decisions:\n  - {action: trade, steps: [{money: 7, from: red, to: blue}, {lot: A2, from: blue, to: red}]}"
             "\n  - {action: gamble, lot: B3, bet: 4, lay_off: true}",
             "  decisions:\n  - {do: 'trade money 7 from red to blue; lot A2 from blue to red'}\n  - {do: gamble B3 4 layoff}"]
    loaded = [[d.action for d in parse_record(base + t, "x.yaml").turns[0].decisions] for t in texts]
    assert loaded[0] == loaded[1] == loaded[2]
    assert lv.format_action(loaded[0][0], names) == "trade money 7 from red to blue; lot A2 from blue to red"


# ---------------------------------------------------------------------------------------------- examples


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_checks(path):
    result = check_file(str(path))
    assert result.ok, result.message
    rep = replay(load_record(path))
    if rep.record.position is None:
        assert rep.game.over and rep.verified is True  # complete games carry a result that verifies


def test_examples_cover_each_profile():
    profiles = {(r.profile, len(r.players)) for r in map(load_record, EXAMPLES) if r.position is None}
    assert {("original", 4), ("revised", 4), ("revised", 2)} <= profiles


def test_question_raise():
    """003 "Action - Raise" L657-739 (worked example S28): $15 per space per riser, height up to the number of
    players; C1+C2 raised twice costs 2 x $30, then a gold card pays $5+$3 and scores 2 spaces x 3 high = 6.
    000 L118 has no Raise: both raises are illegal (raise.enabled), the flat casino scores 2."""
    rec = example("question-raise.yaml")
    rev = replay(rec)
    assert rev.strict and not rev.illegal
    assert money(rev.game) == {"purple": 8, "red": 31, "yellow": 30}  # red: $1 for the D8 lot he claims
    assert scores(rev.game)["purple"] == 6
    orig = replay(rec, "original", on_illegal="skip")
    assert [(i.turn, i.index, i.rule, i.handled) for i in orig.illegal] == [(1, 1, "raise.enabled", "skipped"),
                                                                           (1, 2, "raise.enabled", "skipped")]
    assert money(orig.game)["purple"] == 68 and scores(orig.game)["purple"] == 2
    stopped = replay(rec, "original", on_illegal="stop")
    assert stopped.stopped and len(stopped.turns) == 1 and stopped.illegal[0].handled == "stopped"
    assert money(stopped.game)["purple"] == 60


def test_question_gamble_boss_short():
    """000 L190-192: the bet is capped at $5 per tile ($20 for 4 tiles) and your money; a 10 wins, but the boss
    pays only the $15 he has. 003 L786-794: the bet may not exceed the boss's money, so $20 is illegal."""
    rec = example("question-gamble-boss-short.yaml")
    orig = replay(rec)
    assert money(orig.game) == {"red": 55, "blue": 0}
    rev = replay(rec, "revised", on_illegal="skip")
    assert [(i.rule, i.reason) for i in rev.illegal] == [
        ("gamble.cap_at_boss_money", "the bet at D1 must be $1 to $15: the boss, blue, has only $15")]
    assert money(rev.game) == {"red": 40, "blue": 15}


def test_question_lay_off():
    """000 L194 (worked example S25, original analogue): a laid-off double win of $8 on a $4 bet: the boss pays
    half ($4), the bank the rest. 003 L770-803 has no lay-off (gamble.lay_off)."""
    rec = example("question-lay-off.yaml")
    orig = replay(rec)
    assert money(orig.game) == {"yellow": 38, "green": 3}
    rev = replay(rec, "revised", on_illegal="skip")
    assert [i.rule for i in rev.illegal] == ["gamble.lay_off"] and money(rev.game) == {"yellow": 30, "green": 7}


def test_question_tie_reroll():
    """003 L426-442: a tie made by a take-over is rerolled at once, before paying and scoring: with the recorded
    rerolls E1 2, E2 6 purple pays red $2 and yellow $6 and yellow (boss) scores 2. 000 L203 read literally
    (ties.check=after_each_action): the casino pays $5 each with no boss, nobody scores, and the tie is rerolled
    after yellow's build with generated dice. The original profile's default reading is the revised one."""
    rec = example("question-tie-reroll.yaml")
    rev = replay(rec)
    assert money(rev.game) == {"yellow": 20 + 1 + 6 - 6, "red": 10 + 2} and scores(rev.game) == {"yellow": 2, "red": 0}
    assert diff_records(rec, None, "original").first is None
    literal = replay(rec, "original,ties.check=after_each_action")
    assert money(literal.game) == {"yellow": 20 + 1 + 5 - 6, "red": 10 + 5}
    assert scores(literal.game) == {"yellow": 0, "red": 0}
    assert [(g.turn, g.index, g.dice) for g in literal.generated] == [(1, 1, ("ties",))]


# ---------------------------------------------------------------------------------------------- replay details


def test_the_recorded_profile_is_recognised_by_its_parameters():
    rec = example("revised-4p.yaml")
    assert same_rules(rec, lv.load_profile("revised"))
    assert same_rules(rec, lv.load_profile("revised+f-block"))  # the revised turns the F-block rule on itself
    assert not same_rules(rec, lv.load_profile("revised,gamble.lay_off=boss_option"))
    assert not replay(rec, "revised,gamble.lay_off=boss_option").strict


def test_until_stops_after_that_turn(record4):
    rep = replay(record4, until=3)
    assert [p.turn.number for p in rep.turns] == [1, 2, 3] and rep.stopped and rep.verified is None
    assert len(rep.snapshots) == 3


def test_another_profile_reports_cards_that_differ():
    """003 L901-902: in a 2-player revised game F cards are set aside, so under the original (no F-block rule) the
    same deck deals and draws differently: the replay says so instead of failing."""
    rec = example("revised-2p.yaml")
    assert rec.deck[1].startswith("F")  # blue's first card: set aside under revised, dealt under original
    rep = replay(rec, "original", on_illegal="skip")
    assert not rep.strict and rep.card_mismatches and rep.card_mismatches[0].turn == 1
    first = diff_records(rec, None, "original").first
    assert first.turn is None and first.step == "setup"
    assert first.a == f"blue's card {rec.deck[1]} is set aside (it is on the closed F block) and another dealt"


def test_a_result_that_does_not_match_is_reported_with_its_line():
    text = (ROOT / "examples" / "revised-4p.yaml").read_text()
    winner = load_record(ROOT / "examples" / "revised-4p.yaml").result["winner"]
    other = next(n for n in ["black", "blue", "green", "purple"] if n != winner)
    bad = text.replace(f"winner: {winner}", f"winner: {other}")
    rep = replay(parse_record(bad, "bad.yaml"))
    line = bad.splitlines().index(next(x for x in bad.splitlines() if f"winner: {other}" in x)) + 1
    assert rep.verified is False
    assert rep.result_mismatch == [f"bad.yaml:{line}: result winner: the record says {other}, the replay gives {winner}"]


def test_diff_of_a_record_with_the_same_rules_finds_nothing(record4):
    d = diff_records(record4, None, "revised+f-block")
    assert d.first is None and d.turns == [] and d.illegal == []
    assert d.to_dict()["same_winner"] is True


def test_diff_of_the_raise_question():
    d = diff_records(example("question-raise.yaml"), None, "original")
    assert (d.first.turn, d.first.step) == (1, "decision 1 'raise C1'")
    assert "illegal under original" in d.first.what and "[raise.enabled]" in d.first.what
    assert [(t.turn, t.money, t.points) for t in d.turns] == [
        (1, {"purple": (0, 60)}, {}), (2, {"purple": (8, 68)}, {"purple": (6, 2)})]
    assert d.illegal[0].side == "b" and d.illegal[0].source.startswith("Original rules, \"Step 2: Play\"")
    assert d.illegal[0].instead == "raise C1: -$30, C1+C2 now 2 high"
    text = "\n".join(d.lines())
    assert "First divergence: turn 1, decision 1 'raise C1'" in text and "purple $0 | $60" in text
    assert json.dumps(d.to_dict()) == json.dumps(diff_records(example("question-raise.yaml"), None,
                                                              "original").to_dict())


def test_diff_with_two_other_profiles_replays_neither_strictly():
    rec = example("question-lay-off.yaml")
    d = compare(replay(rec, "revised", on_illegal="skip"), replay(rec, "original,gamble.lay_off=none",
                                                                   on_illegal="skip"))
    assert not d.a.strict and not d.b.strict and d.first is None  # both refuse the lay-off the same way
    assert {i.side for i in d.illegal} == {"a", "b"}


# ---------------------------------------------------------------------------------------------- narrative


def test_narrative_lines_for_events():
    """Score track breaks (000 L103-108 / 003 L389-403): from 8, +3 reaches 10 and 1 point is lost."""
    names = ["red", "blue"]
    assert narrative.describe(event("scored", player=0, lots=["A2", "A5"], award=3, before=8, after=10), names) == \
        "red scores 3 for A2+A5 (8 -> 10, 1 lost at a break)"
    gamble = event("gambled", player=0, lot="B3", boss=1, bet=4, dice=[1, 2], total=3, outcome="win",
                   lay_off=False, gambler_gets=4, boss_gets=-4)
    step = type("D", (), {"action": lv.Gamble("B3", 4), "events": [gamble], "generated": []})()
    assert narrative.decision_lines(step, names) == ["gamble B3 4 at blue's casino: rolled 1+2=3, wins $4"]
    bad = Illegal(3, 1, "raise A2", "this profile has no Raise action", "raise.enabled", "skipped")
    assert narrative.decision_lines(bad, names) == [
        "raise A2: ILLEGAL: this profile has no Raise action [raise.enabled]; skipped"]


def test_replay_narrative_of_a_question():
    text = "\n".join(narrative.replay_lines(replay(example("question-lay-off.yaml"))))
    assert "gamble B2 4 layoff at green's casino: rolled 6+6=12, wins double: $8 (laid off: green pays $4, " \
           "the bank $4)" in text
    assert "yellow 0 pts $38 | green 0 pts $3" in text


def test_replay_narrative_of_a_game_has_every_turn_and_the_check(record4):
    lines = narrative.replay_lines(replay(record4))
    assert sum(line.startswith("Turn ") for line in lines) == len(record4.turns)
    assert "Final standings" in lines and lines[-1] == "Result verified: it matches the record."


# ---------------------------------------------------------------------------------------------- bad input


BASE = """format: lv-game/1
profile: revised
players: [red, blue]
seed: 1
first_player: red
deck: [A2, E6, C4, D8, B2, A5, C1, E3, D2, B6, F1, C10, A1, A3, A4, A6, B1, B3, B4, B5, C2, C3, C5, C6,
       C7, C8, C9, C11, C12, D1, D3, D4, D5, D6, D7, D9, E1, E2, E4, E5, F2, F3, F4, F5, F6, F7, F8, F9]
turns:
- player: red
  cards: [B2]
  decisions:
  - build A2 gold
"""


def error_of(text: str, profile: str | None = None) -> str:
    with pytest.raises(lv.LvError) as err:
        replay(parse_record(text, "bad.yaml"), profile)
    message = str(err.value)
    assert "\n" not in message
    return message


def test_the_base_record_is_good():
    rep = replay(parse_record(BASE, "ok.yaml"))
    assert money(rep.game)["red"] == 20 - 2 - 2 + 3 - 6  # 003 L186-190: $20 minus A2's 2 and C4's 2; 3 lots; A2


@pytest.mark.parametrize("change,expected", [
    (("players: [red, blue]", "players: [red, blue"), "bad.yaml:4: malformed YAML"),
    (("format: lv-game/1", "format: lv-game/2"), "bad.yaml:1: unknown format 'lv-game/2': this lv reads 'lv-game/1'"),
    (("deck: [A2,", "deck: [Q2,"), "bad.yaml:6: deck: unknown lot card 'Q2'"),
    (("E6, C4", "E6, A2"), "bad.yaml:6: deck: A2 appears twice (cards 1 and 3)"),
    (("build A2 gold", "build A2 pink"), "bad.yaml:12: turn 1: 'build A2 pink': unknown colour 'pink'"),
    (("build A2 gold", "build A9 gold"), "bad.yaml:12: turn 1: 'build A9 gold': unknown lot 'A9'"),
    (("cards: [B2]", "cards: [A5]"), "bad.yaml:10: turn 1: the record says A5 was drawn, the deck gives B2"),
    (("build A2 gold", "raise A2"), "bad.yaml:12: turn 1: 'raise A2' is illegal under 'revised': A2 has no casino "
                                    "[raise: a casino]"),
    (("build A2 gold", "build E6 gold"), "bad.yaml:12: turn 1: 'build E6 gold' is illegal under 'revised': you have "
                                         "no marker on E6 [build: a lot you own]"),
    (("profile: revised", "profile: revized"), "bad.yaml:2: unknown profile 'revized'"),
    (("seed: 1", "sede: 1"), "bad.yaml:4: unknown key 'sede'"),
    (("first_player: red", "first_player: green"), "bad.yaml:5: first_player 'green' is not one of the players"),
    (("- player: red", "- player: green"), "bad.yaml:9: turn 1: unknown player 'green'"),
])
def test_bad_records_give_one_line_naming_file_line_turn_and_rule(change, expected):
    old, new = change
    assert old in BASE
    assert error_of(BASE.replace(old, new, 1)).startswith(expected)


def test_an_illegal_decision_under_the_recorded_profile_names_the_rule():
    """003 "Action - Gamble" L770-803: no lay-off in the revised rules."""
    text = BASE + "- player: blue\n  cards: [A5]\n  decisions: [gamble A2 1 layoff]\n"
    assert error_of(text) == ("bad.yaml:15: turn 2: 'gamble A2 1 layoff' is illegal under 'revised': this profile "
                              "has no lay-off [gamble.lay_off]")


def test_position_errors_name_their_line():
    text = ("format: lv-game/1\nprofile: original\nplayers: [red, blue]\nposition:\n  current: red\n"
            "  tiles:\n    C1: gold red 5\n    C2: pink red 3\n")
    assert error_of(text).startswith("bad.yaml:8: position: tile C2: unknown colour 'pink'")
    high = text.replace("pink red 3", "gold h2 red 3")
    assert error_of(high).startswith("bad.yaml:8: position: tile C2 is 2 high; profile 'original' allows 1")


def test_a_missing_file_is_an_error_not_a_traceback(tmp_path):
    with pytest.raises(RecordError, match="no such file"):
        load_record(tmp_path / "nope.yaml")


# ---------------------------------------------------------------------------------------------- schema


def test_schema_lists_what_the_loader_accepts():
    schema = json.loads(SCHEMA.read_text())
    defs = schema["$defs"]
    assert schema["properties"]["format"] == {"const": "lv-game/1"}
    assert set(schema["properties"]) == set(HEADER_KEYS)
    assert set(defs["turn"]["properties"]) == set(TURN_KEYS)
    assert set(defs["decision"]["oneOf"][1]["properties"]) == DECISION_KEYS
    assert set(defs["step"]["oneOf"][1]["properties"]) == STEP_KEYS
    assert set(defs["result"]["properties"]) == set(RESULT_KEYS)
    assert set(defs["position"]["properties"]) == position_mod.KEYS
    assert tuple(defs["color"]["enum"]) == load_board().colors


@pytest.mark.slow
def test_examples_and_the_docs_example_validate_against_the_schema():
    jsonschema = pytest.importorskip("jsonschema")  # not a dependency: checked only where it is installed
    import yaml

    schema = json.loads(SCHEMA.read_text())
    for path in EXAMPLES:
        jsonschema.validate(yaml.safe_load(path.read_text()), schema)


def test_the_docs_example_replays_to_the_numbers_the_page_gives():
    page = (ROOT / "docs" / "record-format.md").read_text()
    block = page.split("```yaml\n", 1)[1].split("```", 1)[0]
    rep = replay(parse_record(block, "docs example"))
    assert money(rep.game) == {"red": 18, "blue": 13} and scores(rep.game) == {"red": 0, "blue": 1}


def test_the_docs_position_example_replays():
    """000 L190-192: the 4-tile casino caps the bet at $20; 4+6 = 10 wins, the boss pays the $15 he has."""
    page = (ROOT / "docs" / "record-format.md").read_text()
    block = next(b.split("```", 1)[0] for b in page.split("```yaml\n")[1:] if "\nposition:" in b)
    rep = replay(parse_record(block, "docs position"))
    assert money(rep.game) == {"red": 55, "blue": 0}
