"""What the record reader and a strict replay check, each with the one line they give (issue 17.11: planted changes
in these checks went unnoticed): keys that exclude each other, ranges, partial results, the end card at the
bottom, a deck that runs out, and every recorded fact of a replay (each turn's player, the cards in order, money,
turns after the end)."""

from __future__ import annotations

import pytest

import lv
from lv import bots
from lv.errors import RecordError
from lv.record import dumps, parse_record, record_of
from lv.replay import check_file, replay

DECK = ("[A2, E6, C4, D8, B2, A5, C1, E3, D2, B6, F1, C10, A1, A3, A4, A6, B1, B3, B4, B5, C2, C3, C5, C6,\n"
        "       C7, C8, C9, C11, C12, D1, D3, D4, D5, D6, D7, D9, E1, E2, E4, E5, F2, F3, F4, F5, F6, F7, F8, F9]")
BASE = f"""format: lv-game/1
profile: revised
players: [red, blue]
seed: 1
first_player: red
deck: {DECK}
turns:
- player: red
  cards: [B2]
  decisions:
  - build A2 gold
"""


def error(text: str, profile: str | None = None) -> RecordError:
    with pytest.raises(RecordError) as err:
        replay(parse_record(text, "bad.yaml"), profile)
    assert "\n" not in str(err.value)
    return err.value


def changed(old: str, new: str) -> str:
    assert old in BASE
    return BASE.replace(old, new, 1)


# ---------------------------------------------------------------------------------------------- the header


@pytest.mark.parametrize("old,new,message", [
    ("first_player: red", "first_player: red\nstarting_rolls: [{red: [5, 3], blue: [2, 2]}]",
     "bad.yaml:6: give either first_player or starting_rolls, not both"),
    ("first_player: red", "position: {current: red}",
     "bad.yaml:5: give either 'deck' (a standard setup) or 'position', not both"),
    (f"deck: {DECK}\n", "", "bad.yaml:1: give either 'deck' (a standard setup), 'deal' (a table) or 'position'"),
    ("first_player: red", "starting_rolls: [{red: [5, 7], blue: [2, 2]}]",
     "bad.yaml:5: starting_rolls: red: two die faces, e.g. [3, 5]"),
    ("first_player: red", "starting_rolls: [{red: [0, 3], blue: [2, 2]}]",
     "bad.yaml:5: starting_rolls: red: two die faces, e.g. [3, 5]"),
    ("first_player: red", "starting_rolls: [{red: [true, 3], blue: [2, 2]}]",
     "bad.yaml:5: starting_rolls: red: two die faces, e.g. [3, 5]"),
    ("first_player: red", "starting_rolls: [{red: [1, 2, 3], blue: [2, 2]}]",
     "bad.yaml:5: starting_rolls: red: two die faces, e.g. [3, 5]"),
    ("first_player: red", "starting_rolls: [{red: [6, 6], green: [2, 2]}]",
     "bad.yaml:5: starting_rolls: unknown player 'green'"),
    ("first_player: red", "starting_rolls: {red: [6, 6]}",
     "bad.yaml:5: starting_rolls: a list of rounds, each {player: [die, die]}"),
    ("first_player: red", "first_player: red\nunder_end_card: -1",
     "bad.yaml:6: under_end_card -1: a whole number of cards, 0 or more"),
    ("first_player: red", "first_player: red\nunder_end_card: true",
     "bad.yaml:6: under_end_card True: a whole number of cards, 0 or more"),
    ("seed: 1", "seed: true", "bad.yaml:4: seed True: a whole number or a string"),
    ("seed: 1", "seed: 1.5", "bad.yaml:4: seed 1.5: a whole number or a string"),
    ("seed: 1", "seed: 1\ntable: 'yes'", "bad.yaml:5: table 'yes': true or false"),
    ("seed: 1", "seed: 1\ndraws: sometimes", "bad.yaml:5: draws 'sometimes': one of with_end, explicit"),
    ("seed: 1", "seed: 1\ncomment: 5", "bad.yaml:5: comment: text"),
    ("seed: 1", "seed: 1\nengine: [lv]", "bad.yaml:5: engine: text"),
    ("players: [red, blue]", "players: [red]", "bad.yaml:3: players: give at least two player names, in seat order"),
    ("players: [red, blue]", "players: [red, 5]",
     "bad.yaml:3: players: give at least two player names, in seat order"),
    ("profile: revised\n", "", "bad.yaml:1: missing 'profile'"),
    ("deck: [A2,", "deck: [A7,", "bad.yaml:6: deck: unknown lot card 'A7'"),
    ("F8, F9]", "F8]", "bad.yaml:6: deck: the 48 lot cards, each once; missing F9"),
    ("turns:\n- player: red\n  cards: [B2]\n  decisions:\n  - build A2 gold\n", "turns: 0\n",
     "bad.yaml:8: turns: a list of turns"),
    ("  decisions:\n  - build A2 gold\n", "  decisions: 0\n", "bad.yaml:11: turn 1: decisions: a list"),
    ("- player: red\n  cards: [B2]\n  decisions:\n  - build A2 gold\n", "- 5\n",
     "bad.yaml:9: turn 1: a mapping with player, cards and decisions"),
])
def test_the_header_and_turns_are_checked_at_their_line(old, new, message):
    assert str(error(changed(old, new))).startswith(message)


@pytest.mark.parametrize("result,message", [
    ("{winner: green}", "bad.yaml:13: result: winner 'green' is not one of the players"),
    ("{reason: 5}", "bad.yaml:13: result: reason: text, not a number"),
    ("{scores: {red: 1}}", "bad.yaml:13: result: scores: a whole number for each player (red, blue)"),
    ("{money: {red: 1, blue: x}}", "bad.yaml:13: result: money: a whole number for each player (red, blue)"),
    ("{money: {red: 1, blue: true}}", "bad.yaml:13: result: money: a whole number for each player (red, blue)"),
    ("{points: 3}", "bad.yaml:13: result: unknown key 'points' (known: reason, winner, scores, money)"),
    ("[blue]", "bad.yaml:13: result: a mapping with reason, winner, scores, money"),
])
def test_a_result_is_checked_when_read(result, message):
    assert str(error(BASE + f"result: {result}\n")).startswith(message)


# ---------------------------------------------------------------------------------------------- results


@pytest.fixture(scope="module")
def finished():
    game = lv.new_game("revised", 2, 0)
    bots.play(game, [bots.random_kind_bot] * 2, 0)
    return game, record_of(game, "revised")


def test_a_partial_result_checks_only_what_it_gives(finished):
    game, data = finished
    winner = game.player_names[game.result.winner]
    for part in ({"winner": winner}, {"reason": "end_card"}, {"money": data["result"]["money"]}, {}):
        rep = replay(parse_record(dumps({**data, "result": part}), "g.yaml"))
        assert rep.verified is True and rep.result_mismatch == []
    money = dict(data["result"]["money"])
    money[winner] += 1
    rep = replay(parse_record(dumps({**data, "result": {"money": money}}), "g.yaml"))
    assert rep.verified is False and len(rep.result_mismatch) == 1
    assert rep.result_mismatch[0].endswith(f"result money: the record says "
                                           + ", ".join(f"{k} {v}" for k, v in money.items())
                                           + ", the replay gives "
                                           + ", ".join(f"{k} {v}" for k, v in data["result"]["money"].items()))


def test_a_result_for_a_game_that_has_not_ended(finished):
    text = BASE + "result: {winner: red}\n"
    rep = replay(parse_record(text, "g.yaml"))
    assert rep.verified is False
    assert rep.result_mismatch == ["g.yaml:13: the record has a result but the game has not ended after turn 1"]


def test_no_result_under_another_profile_or_when_stopped(finished):
    _, data = finished
    rec = parse_record(dumps(data), "g.yaml")
    assert replay(rec, "revised,gamble.lay_off=boss_option").verified is None
    assert replay(rec, until=3).verified is None and replay(rec, until=3).stopped
    assert replay(rec).verified is True


def test_the_end_card_at_the_bottom_reads_back_and_ends_the_game():
    """``under_end_card: 0`` is a number of cards, not "unset": the end card is the last card."""
    game = lv.new_game("revised", 2, 5, under_end_card=0)
    assert game.under_end_card == 0
    bots.play(game, [bots.random_kind_bot] * 2, 5)
    assert game.result.reason == "end_card" and game.state.deck == []
    data = record_of(game, "revised")
    assert data["under_end_card"] == 0
    text = dumps(data)
    rep = replay(parse_record(text, "g.yaml"))
    assert rep.game.under_end_card == 0 and rep.verified is True
    assert dumps(record_of(rep.game, "revised")) == text
    default = lv.new_game("revised", 2, 5)
    assert default.under_end_card > 0


def test_a_deck_that_runs_out_ends_the_game():
    text = """format: lv-game/1
profile: revised
players: [red, blue]
position:
  current: red
  phase: draw
  players: {red: {money: 30}, blue: {money: 30}}
  tiles: {A2: gold red 3}
  deck: [D5]
turns:
- player: red
  cards: [D5]
- player: blue
  cards: []
result: {reason: deck_exhausted, winner: red}
"""
    rep = replay(parse_record(text, "g.yaml"))
    assert rep.game.over and rep.game.result.reason == "deck_exhausted" and rep.verified is True
    wrong = text.replace("reason: deck_exhausted", "reason: end_card")
    assert replay(parse_record(wrong, "g.yaml")).result_mismatch == [
        "g.yaml:15: result reason: the record says end_card, the replay gives deck_exhausted"]


# ---------------------------------------------------------------------------------------------- replay checks


def test_each_turns_player_is_checked():
    text = BASE + "- player: red\n  cards: [A5]\n"
    e = error(text)
    assert str(e) == "bad.yaml:13: turn 2: it is blue's turn, the record says red"
    rep = replay(parse_record(text, "g.yaml"), "original")
    assert not rep.strict  # another profile: the seats decide, the names are not checked


def test_the_cards_are_checked_in_order():
    game = lv.new_game("original+f-block", 2, 1)
    bots.play(game, [bots.random_kind_bot] * 2, 1)
    data = record_of(game, "original+f-block")
    ti, turn = next((i, t) for i, t in enumerate(data["turns"]) if len(t.get("cards", [])) > 1)
    turn["cards"] = list(reversed(turn["cards"]))
    with pytest.raises(RecordError, match=f"turn {ti + 1}: the record says {', '.join(turn['cards'])} were drawn, "
                                          f"the deck gives {', '.join(reversed(turn['cards']))}$"):
        replay(parse_record(dumps(data), "g.yaml"))


def test_turns_after_the_end_are_refused_or_counted(finished):
    _, data = finished
    more = {**data, "turns": data["turns"] + [{"player": data["turns"][-2]["player"]},
                                              {"player": data["turns"][-1]["player"]}]}
    rec = parse_record(dumps(more), "g.yaml")
    with pytest.raises(RecordError, match=r"turn 28: the game already ended \(end_card\) but the record goes on") \
            as err:
        replay(rec)
    assert err.value.rule == "end"
    rep = replay(rec, "revised,gamble.lay_off=boss_option")
    assert rep.unplayed_turns == 2 and len(rep.turns) == len(data["turns"])


def test_a_decision_after_the_end_is_refused_or_skipped(finished):
    _, data = finished
    turns = [dict(t) for t in data["turns"]]
    turns[-1]["decisions"] = ["build A2 gold"]
    rec = parse_record(dumps({**data, "turns": turns}), "g.yaml")
    with pytest.raises(RecordError, match=r"turn 27: 'build A2 gold' comes after the game ended \(end_card\)") as err:
        replay(rec)
    assert err.value.line == rec.turns[-1].decisions[0].line and err.value.rule == "end"
    rep = replay(rec, "revised,gamble.lay_off=boss_option")
    assert [(i.turn, i.index, i.decision, i.rule, i.handled) for i in rep.illegal] == [
        (27, 1, "build A2 gold", "end", "skipped")]


def test_recorded_draw_dice_the_draw_does_not_roll_are_refused():
    text = BASE.replace("  cards: [B2]\n", "  cards: [B2]\n  dice: {ties: {B2: [3]}}\n")
    assert str(error(text)) == "bad.yaml:11: turn 1: the draw does not roll the recorded dice ties B2"
    assert replay(parse_record(text, "g.yaml"), "original").illegal == []


def test_check_file_tells_broken_from_failed(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(BASE)
    c = check_file(str(good))
    assert (c.ok, c.broken, c.turns, c.verified, c.message) == (True, False, 1, None,
                                                                  "1 turn, game not over, no result to check")
    bad = tmp_path / "bad.yaml"
    bad.write_text(BASE + "result: {winner: blue}\n")
    c = check_file(str(bad))
    assert (c.ok, c.broken, c.verified) == (False, False, False)
    broken = tmp_path / "broken.yaml"
    broken.write_text(BASE.replace("build A2 gold", "raise A2"))
    c = check_file(str(broken))
    assert (c.ok, c.broken, c.verified, c.turns) == (False, True, None, 0) and "[raise: a casino]" in c.message


POSITION = """format: lv-game/1
profile: original
players: [red, blue]
position:
  current: red
  players: {red: {money: 40}, blue: {money: 15}}
  markers: {A3: blue}
  tiles: {D1: gold blue 6}
  reorganized: [D1]
  deck: [D8, END]
"""


@pytest.mark.parametrize("old,new,message", [
    ("  current: red\n", "  current: green\n", "bad.yaml:5: position: current: unknown player 'green'"),
    ("{red: {money: 40}, blue", "{green: {money: 40}, blue", "bad.yaml:6: position: players: unknown player 'green'"),
    ("markers: {A3: blue}", "markers: [A3]", "bad.yaml:7: position: markers: a mapping of lot to owner, not a list"),
    ("markers: {A3: blue}", "markers: {A33: blue}", "bad.yaml:7: position: markers: unknown lot 'A33'"),
    ("markers: {A3: blue}", "markers: {A3: green}",
     "bad.yaml:7: position: markers.A3: unknown player 'green' (players: red, blue)"),
    ("tiles: {D1: gold blue 6}", "tiles: [D1]", "bad.yaml:8: position: tiles: a mapping of lot to tile, not a list"),
    ("tiles: {D1: gold blue 6}", "tiles: {D1: 5}",
     "bad.yaml:8: position: tile D1: give 'COLOUR [hN] [OWNER VALUE]' or a mapping, not a number"),
    ("tiles: {D1: gold blue 6}", "tiles: {D1: pink blue 6}",
     "bad.yaml:8: position: tile D1: unknown colour 'pink' (colours: aqua, brown, gold, purple, silver)"),
    ("tiles: {D1: gold blue 6}", "tiles: {D1: {color: pink}}", "bad.yaml:8: position: tile D1: unknown colour 'pink'"),
    ("tiles: {D1: gold blue 6}", "tiles: {Q1: gold blue 6}", "bad.yaml:8: position: tiles: unknown lot 'Q1'"),
    ("reorganized: [D1]", "reorganized: [D1, Z9]", "bad.yaml:9: position: reorganized: unknown lot 'Z9'"),
    ("deck: [D8, END]", "deck: [D8, XX]", "bad.yaml:10: position: deck: unknown card 'XX'"),
])
def test_a_position_is_checked_at_its_line(old, new, message):
    assert old in POSITION
    assert str(error(POSITION.replace(old, new, 1))).startswith(message)


def test_the_base_position_is_good():
    rep = replay(parse_record(POSITION, "ok.yaml"))
    assert rep.game.state.reorganized == {"D1"} and rep.game.state.markers == {"A3": 1}


def test_a_position_that_is_not_a_mapping():
    assert str(error(POSITION.split("position:")[0] + "position: [red]\n")) == \
        "bad.yaml:4: position: a mapping (see docs/record-format.md)"


@pytest.mark.parametrize("cards,message", [
    ("[]", "the record says nothing was drawn, the deck gives B2"),
    ("[B2, A5]", "the record says B2, A5 were drawn, the deck gives B2"),
])
def test_the_cards_drawn_are_named_in_the_message(cards, message):
    assert str(error(changed("cards: [B2]", f"cards: {cards}"))).endswith(message)


def test_a_timestamp_tag_reads_as_its_iso_text():
    rec = parse_record(BASE.replace("seed: 1", "seed: 1\ndate: 2026-11-23 10:30:00\nround: 3"), "g.yaml")
    assert rec.tags == {"date": "2026-11-23T10:30:00", "round": "3"}


# ---------------------------------------------------------------------------------------------- structured decisions


@pytest.mark.parametrize("decision,message", [
    ("{action: build, lot: A2, colour: gold}", "bad.yaml:12: turn 1: unknown decision field(s) colour"),
    ("{action: trade, steps: [{money: 2, from: red, to: blue, why: x}]}",
     "bad.yaml:12: turn 1: unknown trade-step field(s) why"),
    ("{action: trade, steps: [{do: 5}]}",
     "bad.yaml:12: turn 1: do: a trade step in the notation ('money 5 from red to blue')"),
    ("{action: trade, steps: [{as: green, action: build, lot: A2, color: gold}]}",
     "bad.yaml:12: turn 1: as: unknown player 'green'"),
    ("{action: trade, steps: [5]}", "bad.yaml:12: turn 1: a trade step is text or a mapping"),
    ("{action: trade, steps: [{money: -2, from: red, to: blue}]}", "bad.yaml:12: turn 1: money: a whole number"),
    ("{action: trade, steps: [{money: 2, from: red, to: blue}], by: [red, green]}",
     "bad.yaml:12: turn 1: trade: by: the players to the trade, proposer first (players: red, blue)"),
    ("{action: trade, steps: []}", "bad.yaml:12: turn 1: trade: give its steps as a list"),
    ("{action: draw, cards: B2}", "bad.yaml:12: turn 1: draw: cards: a list of the cards turned over"),
    ("{action: build, lot: A2, color: gold, bet: true}", "bad.yaml:12: turn 1: bet: a whole number, not"),
    ("{action: build, lot: A2 A3, color: gold}", "bad.yaml:12: turn 1: lot: a lot, not text 'A2 A3'"),
    ("{action: fly, lot: A2}", "bad.yaml:12: turn 1: unknown action 'fly'"),
    ("{do: 5}", "bad.yaml:12: turn 1: do: a decision in the notation ('build A2 gold')"),
    ("{do: build A2 gold, choices: {die_from: Q1}}", "bad.yaml:12: turn 1: choices.die_from: unknown lot 'Q1'"),
    ("{do: build A2 gold, choices: {from: A1}}", "bad.yaml:12: turn 1: choices: a mapping with die_from and/or"),
    ("{do: build A2 gold, dice: {reorg: {Q1: 3}}}", "bad.yaml:12: turn 1: dice.reorg: unknown lot 'Q1'"),
    ("{do: build A2 gold, dice: {reorg: [3]}}", "bad.yaml:12: turn 1: dice.reorg: a mapping of lot to value"),
    ("{do: build A2 gold, dice: {pips: 3}}", "bad.yaml:12: turn 1: dice: unknown key(s) pips"),
    ("{do: build A2 gold, dice: [3]}", "bad.yaml:12: turn 1: dice: a mapping such as {gamble: [3, 4]}"),
    ("[build]", "bad.yaml:12: turn 1: a decision is text ('build A2 gold') or a mapping"),
])
def test_a_structured_decision_is_checked_at_its_line(decision, message):
    text = changed("  - build A2 gold\n", f"  - {decision}\n")
    with pytest.raises(RecordError) as err:
        parse_record(text, "bad.yaml")
    assert str(err.value).startswith(message), str(err.value)


def test_structured_trade_steps_read_as_their_notation():
    steps = ("{do: money 2 from red to blue}, {as: red, action: build, lot: A2, color: gold}, "
             "{die: A2, from: red, to: blue}, {lot: B2, from: red, to: blue}, money 1 from blue to red")
    text = changed("  - build A2 gold\n", f"  - {{action: trade, by: [red, blue], steps: [{steps}]}}\n"
                                          "  - {do: build A5 gold, choices: {die_from: a2, marker_from: b2}}\n")
    rec = parse_record(text, "g.yaml")
    assert [d.text for d in rec.turns[0].decisions] == [
        "trade money 2 from red to blue; as red build A2 gold; die A2 from red to blue; lot B2 from red to blue; "
        "money 1 from blue to red by red, blue", "build A5 gold"]
    assert rec.turns[0].decisions[1].choices == {"die_from": "A2", "marker_from": "B2"}


def test_a_table_position_record_replays_at_the_table():
    text = """format: lv-game/1
profile: revised
players: [red, blue]
table: true
position: {current: red, phase: draw, tiles: {C1: gold blue 3, C2: gold}}
turns:
- player: red
  decisions:
  - {action: draw, cards: [C2], dice: {ties: {C1: [6], C2: [1]}}}
"""
    rep = replay(parse_record(text, "t.yaml"))
    assert rep.game.table and rep.game.boss_at("C1") == 1 and rep.generated == []


def test_the_next_turns_draw_dice_are_used():
    """Turn 13 of this game draws a card that ties two dice: the draw made by ending turn 12 uses its dice. Seed 5:
    the first seed (revised, 3 players, random-kind bots) whose game has a draw with tie rerolls."""
    game = lv.new_game("revised", 3, 5)
    bots.play(game, [bots.random_kind_bot] * 3, 5)
    data = record_of(game, "revised")
    ti = next(i for i, t in enumerate(data["turns"]) if i and t.get("dice"))
    assert ti == 12
    rep = replay(parse_record(dumps(data), "g.yaml"))
    assert rep.game.history[ti].draw_dice == data["turns"][ti]["dice"] and rep.generated == []
    data["turns"][ti]["dice"] = {"ties": {lot: [(v[0] % 6) + 1] + v[1:] for lot, v in
                                          data["turns"][ti]["dice"]["ties"].items()}}
    other = replay(parse_record(dumps(data), "g.yaml"), "revised,gamble.lay_off=boss_option")
    assert other.game.history[ti].draw_dice == data["turns"][ti]["dice"]


def test_a_result_that_differs_names_each_key_at_its_line(finished):
    game, data = finished
    scores = ", ".join(f"{k}: {v + 1}" for k, v in data["result"]["scores"].items())
    text = dumps({k: v for k, v in data.items() if k != "result"})
    text += f"result:\n  reason: end_card\n  scores: {{{scores}}}\n"
    rep = replay(parse_record(text, "g.yaml"))
    n = len(text.splitlines())
    assert rep.result_mismatch == [f"g.yaml:{n}: result scores: the record says {scores.replace(':', '')}, the replay "
                                   f"gives " + ", ".join(f"{k} {v}" for k, v in data["result"]["scores"].items())]


def test_check_file_messages(tmp_path, finished):
    game, data = finished
    done = tmp_path / "done.yaml"
    done.write_text(dumps(data))
    c = check_file(str(done))
    assert (c.ok, c.turns, c.verified, c.message) == (True, 27, True, "27 turns, result verified")
    pos = tmp_path / "pos.yaml"
    pos.write_text(POSITION)
    assert check_file(str(pos)).message == "position, 1 turn, game not over, no result to check"
    bad = tmp_path / "bad.yaml"
    loser = next(n for n in game.player_names if n != data["result"]["winner"])
    bad.write_text(dumps({**data, "result": {"winner": loser}}))
    c = check_file(str(bad))
    assert (c.ok, c.turns, c.verified) == (False, 27, False) and "result winner: the record says" in c.message
    c = check_file(str(tmp_path / "missing.yaml"))
    assert (c.ok, c.broken, c.turns) == (False, True, 0) and str(tmp_path / "missing.yaml") in c.message


def test_check_file_reports_an_internal_error_and_goes_on(tmp_path, monkeypatch):
    import lv.replay as replay_mod

    def boom(*args, **kwargs):
        raise ZeroDivisionError("planted\nsecond line")

    monkeypatch.setattr(replay_mod, "replay", boom)
    path = tmp_path / "g.yaml"
    path.write_text(BASE)
    c = replay_mod.check_file(str(path))
    assert (c.file, c.ok, c.broken) == (str(path), False, True)
    assert c.message == f"{path}: internal error: ZeroDivisionError: planted (please report it)"



def test_check_file_names_the_record_when_the_system_refuses_a_path(tmp_path, monkeypatch):
    import lv.replay as replay_mod

    def too_long(*args, **kwargs):
        raise OSError(36, "File name too long")

    monkeypatch.setattr(replay_mod, "replay", too_long)
    path = tmp_path / "g.yaml"
    path.write_text(BASE)
    c = replay_mod.check_file(str(path))
    assert (c.file, c.ok, c.broken, c.message) == (str(path), False, True, f"{path}: File name too long")


@pytest.mark.parametrize("old,new,message", [
    ("profile: revised", "profile: [revised]", "bad.yaml:2: profile: give a profile spec (NAME, NAME+OVERLAY, see "
                                               "'lv variants list') or the stored profile {name, base, values}"),
    ("profile: revised", "profile: {name: x, title: 5}", "bad.yaml:2: profile: title: text"),
    ("profile: revised", "profile:\n  name: x\n  values: [1]",
     "bad.yaml:4: profile: values: a mapping of section.key to value"),
    ("seed: 1", "seed: 1\ntags:\n  5: x", "bad.yaml:6: tags: 5: a tag name is text"),
    ("players: [red, blue]", "players:\n- red\n- Red", "bad.yaml:3: players: "),
    (f"deck: {DECK}", "deck: A2", "bad.yaml:6: deck: a list of the 48 lot cards, top first"),
    (f"deck: {DECK}", f"deck: {DECK}\ndeal: [A2]", "bad.yaml:8: deal: the cards dealt to each player (red, blue)"),
    (f"deck: {DECK}", f"deck: {DECK}\ndeal:\n  red: [A2]\n  blue: [Q9]", "bad.yaml:10: deal: blue: unknown lot card"),
    ("- player: red\n", "- player: red\n  colour: x\n", "bad.yaml:10: turn 1: unknown key 'colour'"),
    ("  cards: [B2]", "  cards: [B2, Q2]", "bad.yaml:10: turn 1: unknown card 'Q2'"),
])
def test_more_header_checks_at_their_line(old, new, message):
    assert str(error(changed(old, new))).startswith(message)


def test_the_comment_and_engine_are_read():
    rec = parse_record(BASE.replace("seed: 1", "seed: 1\ncomment: a question"), "g.yaml")
    assert (rec.comment, rec.engine) == ("a question", "")
    assert parse_record(BASE.replace("seed: 1", "seed: 1\nengine: lv 9"), "g.yaml").engine == "lv 9"


@pytest.mark.parametrize("length,quoted", [(39, True), (40, False)])
def test_a_field_of_several_words_is_quoted_when_short(length, quoted):
    value = ("a " * 30)[:length - 1] + "b"
    message = str(error(changed("  - build A2 gold", "  - {action: build, lot: A2, color: '" + value + "'}")))
    assert message == "bad.yaml:12: turn 1: color: a colour, not text" + (f" {value!r}" if quoted else "")


def test_recorded_starting_rolls_decide_who_starts():
    text = BASE.split("turns:")[0].replace("first_player: red", "starting_rolls: [{red: [1, 1], blue: [6, 6]}]")
    text += "turns:\n- player: blue\n"
    rep = replay(parse_record(text, "g.yaml"))
    assert rep.game.first_player == 1 and rep.game.starting_rolls == [{"red": [1, 1], "blue": [6, 6]}]


def test_turns_after_the_end_are_named_at_their_line(finished):
    _, data = finished
    rec = parse_record(dumps({**data, "turns": data["turns"] + [{"player": data["turns"][-2]["player"]}]}), "g.yaml")
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert err.value.line == rec.turns[-1].line


def test_draw_dice_the_record_lacks_are_generated_and_reported():
    """Seed 5: turn 13's draw ties two dice (as in test_the_next_turns_draw_dice_are_used)."""
    game = lv.new_game("revised", 3, 5)
    bots.play(game, [bots.random_kind_bot] * 3, 5)
    data = record_of(game, "revised")
    del data["turns"][12]["dice"]
    rep = replay(parse_record(dumps(data), "g.yaml"), "revised,gamble.lay_off=boss_option")
    assert [(g.turn, g.index, g.decision, g.dice) for g in rep.generated][:1] == [(13, None, "draw", ("ties",))]


def test_a_record_of_the_setup_only_reaches_on_turn():
    seen = []
    rep = replay(parse_record(BASE.split("turns:")[0], "g.yaml"), on_turn=lambda g, play: seen.append(play.turn.number))
    assert seen == [1] and len(rep.turns) == 1


def test_a_markers_owner_is_checked_when_the_record_is_read():
    """Before any replay (``parse_record`` alone), as the other names of a position are."""
    with pytest.raises(RecordError, match=r"^bad.yaml:7: position: markers.A3: unknown player 'green'"):
        parse_record(POSITION.replace("markers: {A3: blue}", "markers: {A3: green}"), "bad.yaml")
