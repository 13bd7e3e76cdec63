"""Bots (lv/bots.py): every bot plays legal decisions to the end of a game; the random bots' frequencies; the
greedy bot's choices in positions set up by hand (revised, 3 players: red, blue, green; red to act)."""

import json
import random
from pathlib import Path

import pytest

import lv
from lv import actions as A
from lv import bots
from lv.errors import LvError

NAMES = ["red", "blue", "green"]


def at(**pos):
    pos.setdefault("current", "red")
    pos.setdefault("phase", "actions")
    return lv.Game.from_position(lv.load_profile("revised"), NAMES, pos)


def greedy(game, seed=0):
    return bots.greedy_bot(game, game.legal_actions(), random.Random(seed))


def checked(bot):
    """``bot``, asserting that every decision it takes is legal (a gamble: at a listed casino, $1 to the cap)."""
    def play(game, legal, rng):
        action = bot(game, legal, rng)
        if isinstance(action, A.Gamble):
            caps = {a.lot: a.bet for a in legal if isinstance(a, A.Gamble)}
            assert action.lot in caps and 1 <= action.bet <= caps[action.lot]
        else:
            assert action in legal
        return action
    return play


@pytest.mark.parametrize("name", sorted(bots.BOTS))
@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3)])
def test_every_bot_plays_a_legal_game_to_its_end(name, spec, players):
    game = lv.new_game(spec, players, seed=5)
    bot = bots.bot_named("mcts:2") if name == "mcts" else bots.BOTS[name]  # a small search budget: fast
    bots.play(game, [checked(bot)] * players, seed=5)
    assert game.over


def test_uniform_is_uniform_and_random_ends_the_turn_at_its_bias():
    game = lv.new_game("revised", 4, seed=1)
    legal = [A.Build(f"A{i}", "gold") for i in range(1, 7)] + [A.Raise("B1"), A.Raise("B2"), A.Raise("B3"),
                                                                A.EndTurn()]
    rng = random.Random(3)
    n = 20000
    ends = sum(isinstance(bots.uniform_bot(game, legal, rng), A.EndTurn) for _ in range(n))
    assert ends / n == pytest.approx(1 / 10, abs=0.01)
    for bias in (0.1, 0.5):
        bot = bots.RandomBot(bias)
        ends = sum(isinstance(bot(game, legal, rng), A.EndTurn) for _ in range(n))
        assert ends / n == pytest.approx(bias, abs=0.015)
    assert not any(isinstance(bots.RandomBot(0.0)(game, legal, rng), A.EndTurn) for _ in range(200))
    assert isinstance(bots.RandomBot(0.9)(game, [A.EndTurn()], rng), A.EndTurn)


def test_random_bot_gambles_at_any_stake_up_to_the_cap():
    game = lv.new_game("revised", 4, seed=1)
    rng = random.Random(0)
    bets = {bots.uniform_bot(game, [A.Gamble("B3", 4)], rng).bet for _ in range(200)}
    assert bets == {1, 2, 3, 4}


def test_bot_names():
    assert bots.bot_named("greedy") is bots.greedy_bot
    assert bots.bot_named("random:0.3") == bots.RandomBot(0.3)
    assert bots.bot_named("greedy:12") == bots.GreedyBot(reserve=12)
    assert bots.bot_named("mcts:30").playouts == 30
    for bad in ("nobody", "random:2", "random:x", "uniform:3", "mcts:0", "mcts:x"):
        with pytest.raises(LvError):
            bots.bot_named(bad)


def test_greedy_builds_in_the_colour_of_the_casino_it_bosses():
    """A5 ($9, die 3) touches red's gold A2 and blue's silver A4 (die 6). With $19 red cannot sprawl ($18 into
    A1 would leave $1) nor raise ($15 would leave $4) and keep $5 in hand; it builds A5 gold, joining its own
    casino (003 "Action - Build" L526-540), never silver, which would give blue the points."""
    game = at(players={"red": {"money": 19}}, markers={"A5": "red"}, tiles={"A2": "gold red 2", "A4": "silver blue 6"})
    assert greedy(game) == A.Build("A5", "gold")


def test_greedy_builds_to_take_a_casino_over():
    """Blue's silver A4 has a 2; red's die on A5 would be a 3, so building A5 silver makes red the boss."""
    game = at(players={"red": {"money": 14}}, markers={"A5": "red"}, tiles={"A4": "silver blue 2"})
    action = greedy(game)
    assert action == A.Build("A5", "silver")
    game.apply(action)
    assert game.casino_at("A4").lots == ("A4", "A5") and game.casinos()[0].boss == 0


def test_greedy_never_hands_a_rival_points():
    """Blue bosses silver A4 (6) and gold A6 (6): red builds A5 in another colour, whatever its generator."""
    for seed in range(5):
        game = at(players={"red": {"money": 14}}, markers={"A5": "red"},
                  tiles={"A4": "silver blue 6", "A6": "gold blue 6"})
        action = greedy(game, seed)
        assert isinstance(action, A.Build) and action.color not in ("silver", "gold")


def test_greedy_sprawls_before_building():
    game = at(players={"red": {"money": 40}}, markers={"C1": "red"}, tiles={"A2": "gold red 2"})
    assert isinstance(greedy(game), A.Sprawl)


def test_greedy_gambles_half_its_money_when_short():
    """Red has $6 (short of $10) and nothing to build: it gambles $3 at blue's casino (cap $5: one tile)."""
    game = at(players={"red": {"money": 6}, "blue": {"money": 20}}, tiles={"B2": "gold blue 3"})
    assert greedy(game) == A.Gamble("B2", 3)


def test_greedy_ends_the_turn_when_nothing_is_worth_it():
    game = at(players={"red": {"money": 30}, "blue": {"money": 20}}, tiles={"B2": "gold blue 3"})
    assert greedy(game) == A.EndTurn()


def test_greedy_reorganizes_when_close_to_taking_the_boss():
    """Red's 5 against blue's 6 (one pip short): reorganize ($11 of pips). Red's 3 against 6: not worth it."""
    close = at(players={"red": {"money": 20}}, tiles={"B2": "gold blue 6", "B3": "gold red 5"})
    assert greedy(close) == A.Reorganize("B2")
    far = at(players={"red": {"money": 20}}, tiles={"B2": "gold blue 6", "B3": "gold red 3"})
    assert greedy(far) == A.EndTurn()


def test_play_seeds_each_seat_from_the_game_seed():
    """The same seed gives every seat the same generator under any profile: paired games differ only where the
    rules do. Here the first turn's legal list is the same under both profiles, so is the first decision."""
    first = []
    for spec in ("original", "revised"):
        game = lv.new_game(spec, 4, seed=9)
        seen = []
        bots.play(game, [lambda g, legal, rng: seen.append(legal) or A.EndTurn()] * 4, seed=9)
        rng = lv.chance.rng_for(9, "bot", game.history[0].player)
        first.append((seen[0], bots.uniform_bot(game, seen[0], rng)))
    assert first[0] == first[1]


def test_a_users_bot_is_loaded_from_module_and_function(monkeypatch):
    """examples/my_bot.py: builds on the cheapest lot it can, then ends the turn; loaded as my_bot:choose."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "examples"))
    choose = bots.bot_named("my_bot:choose")
    game = lv.new_game("revised", 4, seed=5)
    bots.play(game, [checked(choose)] + [bots.greedy_bot] * 3, seed=5)
    assert game.over
    mine = [d.action for t in game.history if t.player == 0 for d in t.decisions]
    assert {a.kind for a in mine} <= {"build", "end"} and any(a.kind == "build" for a in mine)


@pytest.mark.parametrize("spec, message", [
    ("no_such_module_xyz:choose", "bot 'no_such_module_xyz:choose': cannot import module 'no_such_module_xyz'"),
    ("lv.bots:no_such_function", "bot 'lv.bots:no_such_function': module 'lv.bots' has no function "
                                 "'no_such_function'"),
    ("lv.bots:BOTS", "module 'lv.bots' has no function 'BOTS'"),  # not callable
    ("lv.bots:", "known bots are"),
    (":choose", "a bot of your own is MODULE:FUNCTION"),
])
def test_a_bad_users_bot_is_one_line(spec, message):
    with pytest.raises(LvError) as err:
        bots.bot_named(spec)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_an_illegal_decision_from_a_bot_is_one_line():
    game = lv.new_game("revised", 4, seed=5)
    with pytest.raises(LvError, match=r"turn 1: the bot of \w+ chose an illegal decision"):
        bots.play(game, [lambda g, legal, rng: A.Raise("A1")] * 4, seed=5)


def test_cli_users_bot_and_its_error():
    from typer.testing import CliRunner

    from lv import cli

    res = CliRunner().invoke(cli.app, ["simulate", "-v", "revised", "--games", "2", "--workers", "1",
                                       "--bot", "examples.my_bot:choose,greedy,greedy,greedy", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["bots"][0] == "examples.my_bot:choose"
    res = CliRunner().invoke(cli.app, ["selfplay", "--seed", "3", "--bot", "examples.my_bot:nothing"])
    assert res.exit_code == 2
    assert res.stderr == "lv: error: bot 'examples.my_bot:nothing': module 'examples.my_bot' has no function " \
                         "'nothing'\n"
