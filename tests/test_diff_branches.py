"""Issue 32: lv diff (lv/diff.py) where one game has ended while the other goes on (with no earlier difference,
and with the record ending before the other game does), and where the setups differ after the deal."""

from __future__ import annotations

from pathlib import Path

import yaml

from lv.diff import diff_records
from lv.record import parse_record

ROOT = Path(__file__).resolve().parent.parent

# red 18 points, blue 20; red reorganizes, then blue's draw scores nothing new: under a target of 20 points blue
# has won at once (000/003 "Instant win"), under the revised rules' 90 the game goes on to the end card at turn 5
ENDS = """format: lv-game/1
profile: revised
players: [red, blue]
position:
  current: red
  phase: actions
  players: {red: {money: 40, score: 18}, blue: {money: 40, score: 20}}
  tiles: {A2: gold red 3, A3: gold blue 4, D1: silver red 6, D2: silver blue 5, D3: silver blue 1, C1: aqua}
  deck: [D4, A4, B1, END]
turns:
- player: red
  cards: []
  decisions:
  - {do: reorg A2, dice: {reorg: {A2: 6, A3: 1}}}
- player: blue
  cards: [D4]
"""
REST = """- player: red
  cards: [A4]
  decisions:
  - build A4 gold
- player: blue
  cards: [B1]
- player: red
  cards: [END]
"""
TARGET = "revised,end.instant_win_points=20"


def test_the_first_difference_is_one_game_ending_and_the_other_plays_on():
    d = diff_records(parse_record(ENDS + REST, "ends.yaml"), None, TARGET)
    lines = d.lines()
    assert lines[2:5] == ["First divergence: turn 2, draw: the draw step differs",
                          "  revised:                           (nothing)",
                          "  revised,end.instant_win_points=20: the game ends (an instant win): blue wins"]
    assert "Under revised,end.instant_win_points=20 the game ended before the record did: 3 recorded turns not " \
           "played." in lines
    assert [x for x in lines if "played only under" in x] == [
        f"  turn {t} ({p}): played only under revised (the other game is over)"
        for t, p in ((3, "red"), (4, "blue"), (5, "red"))]
    assert lines[-1] == "The winner changes: red under revised, blue under revised,end.instant_win_points=20."
    data = d.to_dict()
    assert [(t["turn"], t["ended"]) for t in data["turns"]] == [(3, "b"), (4, "b"), (5, "b")]
    assert (data["a"]["over"], data["b"]["over"], data["a"]["last_turn"], data["b"]["last_turn"]) == \
        (True, True, 5, 2)
    assert (data["a"]["unplayed_turns"], data["b"]["unplayed_turns"]) == (0, 3)
    assert data["same_winner"] is False
    # the other way round: the sides swap, the game under the target still the one that ended
    back = diff_records(parse_record(ENDS + REST, "ends.yaml"), TARGET, "revised").to_dict()
    assert [(t["turn"], t["ended"]) for t in back["turns"]] == [(3, "a"), (4, "a"), (5, "a")]
    assert back["first_divergence"]["a"].startswith("the game ends") and back["first_divergence"]["b"] == "(nothing)"


def test_only_one_game_is_over_when_the_record_ends():
    d = diff_records(parse_record(ENDS, "short.yaml"), None, TARGET)
    lines = d.lines()
    result = lines[lines.index("Result"):]
    assert result[2] == "  end      not over after turn 2  an instant win, turn 2"
    assert result[5] == "  leading  blue                   blue"
    assert result[6] == ("Only the game under revised,end.instant_win_points=20 is over (blue wins); the record ends "
                         "before the other does.")
    assert not any(x.startswith("The winner") for x in result)
    data = d.to_dict()
    assert (data["a"]["over"], data["b"]["over"], data["same_winner"]) == (False, True, False)
    assert data["a"]["result"] is None and data["b"]["result"]["winner"] == "blue"
    assert data["turns"] == []  # the same money, points and bosses at the end of turns 1 and 2


def test_an_end_card_that_also_reaches_the_target_is_told_apart():
    """At turn 5 the end card's payout takes red to 23: under a target of 21 that is an instant win too (the reason
    stays the end card). The diff said 'the draw step differs' over two identical lines; now the lines differ."""
    d = diff_records(parse_record(ENDS + REST, "ends.yaml"), None, "revised,end.instant_win_points=21")
    f = d.first
    assert (f.turn, f.step, f.what) == (5, "draw", "the draw step differs")
    assert f.a == "the game ends (the end card): red wins"
    assert f.b == "the game ends (the end card, the instant-win target reached too): red wins"


def test_setups_that_differ_after_the_deal():
    """A record that does not say how deep the end card lies: the deal is the same under both, the end card is
    placed a quarter down (10 cards under it) under the revised rules and at the bottom under the variant."""
    data = yaml.safe_load((ROOT / "examples" / "revised-2p.yaml").read_text())
    del data["under_end_card"]
    d = diff_records(parse_record(yaml.safe_dump(data), "g.yaml"), None, "revised,deck.end_card_depth=bottom")
    assert (d.first.turn, d.first.step, d.first.what) == (None, "setup", "the setup differs")
    assert (d.first.a, d.first.b) == ("the end card goes in with 10 cards under it",
                                      "the end card goes in with 0 cards under it")
    assert d.lines()[2:5] == ["First divergence: setup: the setup differs",
                              "  revised:                            the end card goes in with 10 cards under it",
                              "  revised,deck.end_card_depth=bottom: the end card goes in with 0 cards under it"]
    dealt = [[e for e in rep.game.setup_events if e.kind == "dealt"] for rep in (d.a, d.b)]
    assert dealt[0] == dealt[1] and len(dealt[0]) == 2
    # with the depth in the record, the same setup: no divergence there
    again = diff_records(parse_record((ROOT / "examples" / "revised-2p.yaml").read_text(), "g.yaml"), None,
                         "revised,deck.end_card_depth=bottom")
    assert again.first is None


def test_the_first_difference_is_a_replay_that_stopped_while_the_other_goes_on():
    """``compare`` of the record replayed to turn 3 and replayed whole: nothing differs until turn 4, which only
    the whole replay plays (its draw told on its side, '(not played)' on the other), either way round."""
    from lv.diff import compare
    from lv.replay import replay

    rec = parse_record(ENDS + REST, "ends.yaml")
    short, whole = replay(rec, until=3), replay(rec)
    assert short.stopped and not short.game.over and whole.game.over
    f = compare(short, whole, "first three", "whole").first
    assert (f.turn, f.step, f.what, f.a) == (4, "draw", "the replay under first three stopped", "(not played)")
    assert f.b.startswith("blue puts a marker on B1; lots pay: blue $2")
    g = compare(whole, short, "whole", "first three").first
    assert (g.turn, g.step, g.what, g.a, g.b) == (4, "draw", "the replay under first three stopped", f.b, f.a)


def test_compare_names_the_sides_by_their_profiles_unless_told_and_digests_part_where_the_games_do():
    from lv.diff import compare, first_difference, turn_digests
    from lv.replay import replay

    rec = parse_record(ENDS + REST, "ends.yaml")
    a, b = replay(rec), replay(rec, TARGET)
    d = compare(a, b)
    assert (d.a_spec, d.b_spec) == ("revised", TARGET)
    assert (compare(a, b, "A", "B").a_spec, compare(a, b, "A", "B").b_spec) == ("A", "B")
    # the games part at turn 2's draw (blue's instant win): the setup and turn 1 have the same digests
    da, db = turn_digests(a.game), turn_digests(b.game)
    assert (len(da), len(db)) == (6, 3) and da[:2] == db[:2]
    assert first_difference(da, db) == 2 and first_difference(da, da) is None
    # at turn 5 only the draw's end differs (the target reached too): the digests see a draw's events
    c = replay(rec, "revised,end.instant_win_points=21")
    assert first_difference(da, turn_digests(c.game)) == 5
