"""The boss's lay-off as the boss's decision (issue 29 item 3).

000 "Action - Gamble" L194: "Before the roll, the boss of the casino taking the bet may "lay off" half of the bet to
the bank. If the gambler wins, the boss only pays half (round down) and the bank pays the rest. Of course, if the
gambler loses, the boss only receives half (round down) and the bank gets the rest." The rule text gives the
choice to the boss (``gamble.lay_off: boss_option``, the original's default; the example at L199, where the gambler
declines, is the reading ``none``). 003 "Action - Gamble" L770-803 has no lay-off. Where the profile has it, a
gamble chosen without the answer waits for the boss: the game, the legal list, ``lv move``, the records, the bots
and the explicit game of OpenSpiel all ask the boss (lv/actions/layoff.py).
"""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

import lv
from lv import EndTurn, Gamble, GiveMoney, Trade, bots, session
from lv.actions import Build, LayOff
from lv.cli import app
from lv.record import dumps, parse_record, record_of
from lv.replay import replay

from conftest import at, money

NAMES = ["blue", "red"]
# red bets at blue's 2-tile aqua casino (C4, C7): at most $10 ($5 a tile, 000 L190)
POS = dict(current="red", players={"blue": {"money": 50}, "red": {"money": 50}},
           tiles={"C4": "aqua blue 5", "C7": "aqua blue 1"})
ANSWERS = [LayOff(False), LayOff(True)]


def asked(spec: str = "original", **pos):
    """Red has chosen to bet $5 at C4 without the boss's answer: the game waits for blue."""
    game = at(spec, NAMES, **(pos or POS))
    assert game.apply(Gamble("C4", 5, lay_off=None)) == []  # nothing rolled yet
    return game


def test_the_boss_is_asked_and_the_legal_list_is_the_bosss_two_answers():
    """000 L194: "Before the roll, the boss ... may lay off": the boss decides, before the dice."""
    game = asked()
    assert game.state.phase == "lay_off" and game.to_move == 0 and game.state.current == 1  # blue answers
    assert game.legal_actions() == ANSWERS and game.legal_count() == 2
    assert session.legal_text(game) == {verb: (["no-layoff", "layoff"] if verb == "layoff" else [])
                                        for verb in session.groups_of(game.profile)}
    # nothing else meanwhile: not the end of the turn, not another action, not a trade, not a draw
    for other in (EndTurn(), Build("A1", "gold"), Trade((GiveMoney(1, 1, 0),)), Gamble("C4", 5, True)):
        assert game.why_not(other) is not None
        with pytest.raises(lv.IllegalAction) as err:
            game.apply(other)
        assert err.value.rule == "gamble.lay_off" and "waits for its boss, blue" in str(err.value)
    assert game.why_not(LayOff(True)) is None
    with pytest.raises(lv.IllegalAction, match="the boss answers before the roll"):  # the dice come with the answer
        at("original", NAMES, **POS).apply(Gamble("C4", 5, lay_off=None), dice={"gamble": [3, 4]})


def test_an_answer_when_no_gamble_waits_is_refused():
    game = at("original", NAMES, **POS)
    assert game.legal_actions()[-1] == EndTurn() and not any(isinstance(a, LayOff) for a in game.legal_actions())
    with pytest.raises(lv.IllegalAction, match="no gamble waits for its boss's answer") as err:
        game.apply(LayOff(True))
    assert err.value.rule == "gamble.lay_off" and game.why_not(LayOff(False)) is not None


# (roll, answer, basis) -> (red, blue): red bets $5. Lose (5-8): red pays $5, blue gets all or half (2, round down),
# the bank the rest. Win (3, 4, 9-11): $5, blue pays all or half (2), the bank the rest. Double (2, 12): $10, blue
# pays all, or laid off half the payout ($5, basis payout) or twice half the bet ($4, basis stake), the bank the rest.
@pytest.mark.parametrize("roll,answer,basis,red,blue", [
    ([3, 4], False, "payout", 45, 55), ([3, 4], True, "payout", 45, 52), ([3, 4], True, "stake", 45, 52),
    ([5, 5], False, "payout", 55, 45), ([5, 5], True, "payout", 55, 48), ([5, 5], True, "stake", 55, 48),
    ([6, 6], False, "payout", 60, 40), ([6, 6], True, "payout", 60, 45), ([6, 6], True, "stake", 60, 46),
    ([1, 1], False, "stake", 60, 40), ([1, 1], True, "stake", 60, 46),
])
def test_the_answer_pays_exactly_as_000_l194_says(roll, answer, basis, red, blue):
    game = asked(f"original,gamble.lay_off_double_basis={basis}")
    events = game.apply(LayOff(answer), dice={"gamble": roll})
    (g,) = [e for e in events if e.kind == "gambled"]
    assert (g.lay_off, g.bet, g.boss) == (answer, 5, 0)
    assert money(game) == {"blue": blue, "red": red}
    assert game.state.phase == "actions" and game.state.gambles == 1 and game.legal_actions()[-1] == EndTurn()
    # the same as the answer given up front, in one decision (the API and the records)
    ahead = at(f"original,gamble.lay_off_double_basis={basis}", NAMES, **POS)
    ahead.apply(Gamble("C4", 5, lay_off=answer), dice={"gamble": roll})
    assert money(ahead) == money(game) and ahead.history == game.history


def test_the_answer_is_recorded_on_the_gamble_as_before_and_replays_byte_identical():
    """The record keeps the answer as ``lay_off: true`` on the gamble decision, with the gamble's dice (the same
    key as a gamble answered up front: the same dice from the seed)."""
    game = asked()
    game.apply(LayOff(True))  # the dice from the seed
    ahead = at("original", NAMES, **POS)
    ahead.apply(Gamble("C4", 5, lay_off=True))
    text = dumps(record_of(game, "original", position=POS), "yaml")
    assert text == dumps(record_of(ahead, "original", position=POS), "yaml")
    assert "{action: gamble, lot: C4, bet: 5, lay_off: true, dice: {gamble: [" in text
    rep = replay(parse_record(text, "g.yaml"), strict=True)
    assert rep.strict and not rep.illegal and dumps(record_of(rep.game, "original", position=POS), "yaml") == text
    # declined: no lay_off key at all, as a gamble was always written
    declined = asked()
    declined.apply(LayOff(False))
    assert "lay_off" not in dumps(record_of(declined, "original", position=POS), "yaml")


def test_a_record_saved_while_the_boss_has_not_answered_says_ask_and_replays_to_the_wait():
    game = asked()
    text = dumps(record_of(game, "original", position=POS), "yaml")
    assert "{action: gamble, lot: C4, bet: 5, lay_off: ask}" in text
    again = replay(parse_record(text, "g.yaml"), strict=True).game
    assert again.state.phase == "lay_off" and again.legal_actions() == ANSWERS and again.to_move == 0


def test_a_strict_replay_of_a_lay_off_under_a_profile_without_it_refuses_naming_the_rule():
    """003 "Action - Gamble" L770-803 (no lay-off): ``lay_off: true`` is refused under ``gamble.lay_off: none``."""
    game = asked()
    game.apply(LayOff(True), dice={"gamble": [6, 6]})
    rec = parse_record(dumps(record_of(game, "original", position=POS), "yaml"), "g.yaml")
    with pytest.raises(lv.LvError, match=r"this profile has no lay-off \[gamble.lay_off\]"):
        replay(rec, "original,gamble.lay_off=none", strict=True)
    skipped = replay(rec, "original,gamble.lay_off=none", on_illegal="skip")
    assert [i.rule for i in skipped.illegal] == ["gamble.lay_off"]


def test_without_the_option_nobody_is_asked():
    """``gamble.lay_off: none`` (the revised rules, and the original read by its example): a gamble chosen without
    an answer is the gamble without a lay-off, in one decision, recorded as it always was."""
    for spec in ("revised", "original,gamble.lay_off=none"):
        game = at(spec, NAMES, **POS)
        events = game.apply(Gamble("C4", 5, lay_off=None), dice={"gamble": [3, 4]})
        assert [e.lay_off for e in events if e.kind == "gambled"] == [False] and game.state.phase == "actions"
        last = game.current_turn.decisions[-1]
        assert (last.action, last.dice) == (Gamble("C4", 5), {"gamble": [3, 4]})
        assert session.groups_of(game.profile)[-1] == "end" and "layoff" not in session.groups_of(game.profile)


def test_greedy_lays_off_when_the_worst_roll_would_leave_it_under_its_reserve():
    """The boss, blue, is asked about a $5 bet: a 2 or 12 costs it $10. With $12 it would keep $2, under greedy's
    reserve of $5: it lays off. With $50 it keeps the whole bet (the bet's edge is the boss's)."""
    rng = random.Random(0)
    short = asked(players={"blue": {"money": 12}, "red": {"money": 50}}, current="red", tiles=POS["tiles"])
    assert bots.greedy_bot(short, short.legal_actions(), rng) == LayOff(True)
    rich = asked()
    assert bots.greedy_bot(rich, rich.legal_actions(), rng) == LayOff(False)
    edge = asked(players={"blue": {"money": 15}, "red": {"money": 50}}, current="red", tiles=POS["tiles"])
    assert bots.greedy_bot(edge, edge.legal_actions(), rng) == LayOff(False)  # 15 - 10 = 5: not under it
    # mcts answers as its policy, greedy, does (its imagined games do not ask the lay-off)
    assert bots.bot_named("mcts:5")(short, short.legal_actions(), rng) == LayOff(True)


@pytest.mark.parametrize("name", ["uniform", "random", "random-kind"])
def test_the_random_bots_answer_uniformly(name):
    bot = bots.bot_named(name)
    game = asked()
    picks = [bot(game, game.legal_actions(), random.Random(seed)) for seed in range(200)]
    assert set(picks) == set(ANSWERS) and 70 <= picks.count(LayOff(True)) <= 130


@pytest.mark.parametrize("bot", ["uniform", "greedy"])
def test_bots_play_asks_the_bosss_bot_and_paired_games_part_only_where_a_boss_lays_off(bot):
    """``bots.play`` asks the boss's bot; each answer has a generator of its own, so the game under
    ``gamble.lay_off: none`` is the same game up to the first gamble a boss lays off."""
    laid = 0
    for seed in range(4):
        games = []
        for spec in ("original", "original,gamble.lay_off=none"):
            game = lv.new_game(spec, 4, seed)
            bots.play(game, [bots.bot_named(bot)] * 4, seed)
            games.append([d.action for t in game.history for d in t.decisions])
        asked_, plain = games
        first = next(i for i, (a, b) in enumerate(zip(asked_, plain)) if a != b) if asked_ != plain else None
        if first is not None:
            a, b = asked_[first], plain[first]
            assert a == Gamble(b.lot, b.bet, True) and b.lay_off is False  # they part at a lay-off, nowhere else
            laid += 1
        assert not any(isinstance(a, Gamble) and a.lay_off for a in plain)
    assert laid >= 2  # the bosses do lay off


def test_bots_play_counts_the_answer_as_a_decision_point():
    game, counts = lv.new_game("original", 4, 1), []
    bots.play(game, [bots.random_bot] * 4, 1, legal_counts=counts)
    decisions = sum(len(t.decisions) for t in game.history)
    answers = sum(1 for t in game.history for d in t.decisions if isinstance(d.action, Gamble))
    assert answers and len(counts) == decisions + answers


def test_a_table_gives_the_dice_with_the_answer(tmp_path):
    s = session.create(None, "original", NAMES, table=True, deal={"blue": ["A1", "A2"], "red": ["A3", "A4"]},
                       first_player="red")
    s.game = at("original", NAMES, **POS)  # the table's game, at the position
    s.game.table = s.game.ask = True
    with pytest.raises(session.MoveError, match="the boss answers before the roll"):
        s.play("gamble C4 5", dice=[3, 4])
    played = s.play("gamble C4 5")
    assert played.events == [] and "blue, the boss, is asked" in played.lines[0] and s.player == "blue"
    with pytest.raises(session.MoveError, match="give them with --dice"):
        s.play("layoff")
    with pytest.raises(session.MoveError, match=r"3 dice given, the decision rolls 2"):
        s.play("layoff", dice=[6, 6, 1])
    s.play("layoff", dice=[6, 6])
    assert money(s.game) == {"blue": 45, "red": 60} and s.game.current_turn.decisions[-1].dice == {"gamble": [6, 6]}


def test_lv_move_asks_the_boss_and_saves_the_record_lv_wrote_before(tmp_path):
    """At the shell: ``lv move game.yaml "gamble C4 5"`` asks the boss; ``lv legal`` shows the boss's answers;
    ``lv move game.yaml layoff`` answers; the file is the record of ``gamble C4 5 layoff`` in one decision."""
    head = ("format: lv-game/1\nprofile: original\nplayers: [blue, red]\nseed: 3\nposition:\n  current: red\n"
            "  phase: actions\n  players: {blue: {money: 50}, red: {money: 50}}\n"
            "  tiles: {C4: aqua blue 5, C7: aqua blue 1}\n")
    path, ahead = tmp_path / "g.yaml", tmp_path / "ahead.yaml"
    path.write_text(head)
    ahead.write_text(head)
    runner = CliRunner()
    res = runner.invoke(app, ["move", str(path), "gamble C4 5"])
    assert res.exit_code == 0 and "blue, the boss, is asked" in res.stdout, res.output
    assert "lay_off: ask" in path.read_text()
    res = runner.invoke(app, ["legal", str(path), "--json"])
    data = __import__("json").loads(res.stdout)
    assert data["player"] == "blue" and [d["notation"] for d in data["decisions"]] == ["no-layoff", "layoff"]
    assert data["decisions"][1] == {"notation": "layoff", "kind": "layoff", "cost": 0, "lay_off": True, "lot": "C4",
                                    "bet": 5, "boss": "blue"}
    res = runner.invoke(app, ["move", str(path), "end"])
    assert res.exit_code == 2 and "waits for its boss, blue" in res.stderr
    res = runner.invoke(app, ["move", str(path), "layoff"])
    assert res.exit_code == 0 and "laid off: blue" in res.stdout, res.output
    assert runner.invoke(app, ["move", str(ahead), "gamble C4 5 layoff"]).exit_code == 0
    assert path.read_text() == ahead.read_text()
    assert runner.invoke(app, ["check", str(path)]).exit_code == 0


def test_the_openspiel_games_lay_off_node_is_lvs_wait_for_the_boss():
    """lv/explicit.py's boss node is the game's own wait: the boss lv's game asks, its two answers."""
    from lv import actionspace as S
    from lv.explicit import BOSS, ExplicitGame

    rng = random.Random(6)
    for _ in range(200):
        g = ExplicitGame("original", 3)
        while not g.over:
            if g.node == BOSS:
                assert g.game.legal_actions() == ANSWERS and g.current_player == g.game.to_move
                assert g.game.to_move == g.game.boss_at(g.step.lot) != g.game.state.current
                assert [g.space.decode(a) for a in g.legal()] == [False, True]
                return
            if g.is_chance:
                outcomes = g.chance_outcomes()
                g.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                legal = g.legal()
                gambles = [a for a in legal if a >= S.GAMBLE]
                g.apply(gambles[0] if gambles and g.game.state.turn > 6 else rng.choice(legal))
    pytest.fail("no gamble in 200 games")
