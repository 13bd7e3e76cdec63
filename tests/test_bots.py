"""Bots (lv/bots.py): every bot plays legal decisions to the end of a game; the random bots' frequencies; the
greedy bot's choices in positions set up by hand (revised, 3 players: red, blue, green; red to act)."""

import json
import os
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


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(bots.BOTS))
@pytest.mark.parametrize("spec,players", [("revised", 4), ("original", 3)])
def test_every_bot_plays_a_legal_game_to_its_end(name, spec, players):
    """Every decision legal (``checked``), and the game played, not passed: a bot that only ends its turns
    would still see the game end (the deck runs out), so the kinds it chose are checked too. The random bots
    remodel (any legal decision can come up); greedy, and mcts searching with greedy, never do (a remodel is
    worth nothing to greedy). Seed 6: each of these kinds comes up in most games, not in all (at seed 5 greedy
    never reorganized under the original rules); 6 is the first seed from 0 on where every bot chose every kind
    under both profiles."""
    game = lv.new_game(spec, players, seed=6)
    bot = bots.bot_named("mcts:2") if name == "mcts" else bots.BOTS[name]  # a small search budget: fast
    chosen: list = []
    play = checked(bot)
    bots.play(game, [lambda g, legal, rng: chosen.append(play(g, legal, rng)) or chosen[-1]] * players, seed=6)
    assert game.over
    kinds = {a.kind for a in chosen}
    assert kinds >= {"build", "sprawl", "gamble", "reorganize", "end"}, kinds
    assert ("remodel" in kinds) == (name in ("uniform", "random", "random-kind")), kinds


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


def mixed_position(money: int = 50):
    """Red bosses gold A2 (die 2) and holds a marker on A5; blue bosses gold B2 (die 3, $20). Red's 15 legal
    decisions: build A5 in 5 colours, sprawl A2 into A1 or A3, remodel A2 in 4 colours, raise A2, reorganize
    A2, gamble at B2 (cap $5: one tile, 003 "Action - Gamble" L745-751), end."""
    return at(players={"red": {"money": money}, "blue": {"money": 20}}, markers={"A5": "red"},
              tiles={"A2": "gold red 2", "B2": "gold blue 3"})


def _as_listed(action):
    """A gamble at any stake counts as the listed gamble at its casino (listed at the cap)."""
    return A.Gamble(action.lot, 5) if isinstance(action, A.Gamble) else action


def test_uniform_draws_every_legal_decision_equally_often():
    """15 decisions, 6000 draws: each one 400 times expected (sd about 19); each must come up 300-500 times.
    The gamble's stake is uniform over $1-$5 (about 80 each)."""
    game = mixed_position()
    legal = game.legal_actions()
    assert len(legal) == 15 and {a.kind for a in legal} == {"build", "sprawl", "remodel", "raise", "reorganize",
                                                             "gamble", "end"}
    rng = random.Random(7)
    draws = [bots.uniform_bot(game, legal, rng) for _ in range(6000)]
    counts = {a: 0 for a in legal}
    for a in draws:
        counts[_as_listed(a)] += 1
    assert all(300 <= c <= 500 for c in counts.values()), counts
    stakes = [a.bet for a in draws if isinstance(a, A.Gamble)]
    assert {b: stakes.count(b) for b in range(1, 6)} == pytest.approx({b: len(stakes) / 5 for b in range(1, 6)},
                                                                      abs=40)


def test_random_kind_draws_a_kind_first_then_one_of_that_kind():
    """7 kinds among the 15 decisions: each kind 1/7 of the draws (1000 of 7000, sd about 29), so one of the 5
    builds 1/35 (200), one of the 2 sprawls 1/14 (500), the single raise 1/7 (1000): unlike uniform, where
    each decision is 1/15."""
    game = mixed_position()
    legal = game.legal_actions()
    rng = random.Random(8)
    counts = {a: 0 for a in legal}
    for _ in range(7000):
        counts[_as_listed(bots.random_kind_bot(game, legal, rng))] += 1
    per_kind: dict = {}
    for a, c in counts.items():
        per_kind[a.kind] = per_kind.get(a.kind, 0) + c
    assert all(850 <= c <= 1150 for c in per_kind.values()), per_kind
    assert all(120 <= counts[a] <= 280 for a in legal if a.kind == "build"), counts
    assert all(400 <= counts[a] <= 600 for a in legal if a.kind == "sprawl"), counts


@pytest.mark.parametrize("money, choice", [
    (50, A.Sprawl("A3", "A2")),  # $30 (twice A3's $15) leaves $20: the sprawl onto the higher die (5 > A1's 3)
    (34, A.Sprawl("A1", "A2")),  # A3 would leave $4, under the $5 reserve; A1 ($18) leaves $16
    (22, A.Raise("A2")),  # A1 would leave $4; raising one space ($15, 003 L657-739) leaves $7
    (19, A.Build("A5", "gold")),  # the raise would leave $4; A5 ($9) leaves $10, gold joins red's A2
    (13, A.EndTurn()),  # A5 would leave $4; not short of cash ($10 or more): nothing worth doing
    (9, A.Gamble("B2", 4)),  # short of cash: half its money, $4, at blue's casino (cap $5)
    (3, A.Gamble("B2", 1)),  # half of $3, rounded down
])
def test_greedy_order_of_preference_with_stated_money(money, choice):
    """Greedy (lv/bots.py): sprawl before raise before build, each only if it keeps $5 in hand; a gamble of
    half its money only when under $10; else end the turn. The same position, only red's money changes."""
    game = mixed_position(money)
    assert {greedy(game, seed) for seed in range(4)} == {choice}


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
    """$40: sprawling A2 into A3 ($30, twice the lot price: 003 "Action - Sprawl") leaves $10, building C1 ($12)
    would too; the sprawl comes first, onto A3 (die 5) rather than A1 or A5 (die 3)."""
    game = at(players={"red": {"money": 40}}, markers={"C1": "red"}, tiles={"A2": "gold red 2"})
    assert A.Build("C1", "gold") in game.legal_actions()
    assert {greedy(game, seed) for seed in range(4)} == {A.Sprawl("A3", "A2")}


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


@pytest.mark.parametrize("spec,players,seed", [("revised", 4, 3), ("original", 3, 4), ("revised+f-block", 2, 5)])
def test_play_gives_greedy_its_pick_and_plays_the_game_of_the_joined_list(spec, players, seed):
    """``play`` asks ``greedy`` (the bot itself, not a copy wrapped in anything) for its pick from the parts of the
    list (``GreedyBot.pick``), not for its call on the joined list: the same game, decision for decision, as a bot
    that is greedy called on ``legal_actions`` (one ``play`` does not know); and the same again when the legal
    counts are asked for (the joined list's path)."""
    def called(game, legal, rng):
        return bots.greedy_bot(game, legal, rng)

    games = []
    for seats, counts in (([bots.greedy_bot] * players, None), ([called] * players, None),
                          ([bots.greedy_bot] * players, [])):
        game = lv.new_game(spec, players, seed=seed)
        bots.play(game, seats, seed=seed, legal_counts=counts)
        games.append([(t.player, [d.action for d in t.decisions]) for t in game.history])
    assert games[0] == games[1] == games[2]
    assert sum(len(d) for _, d in games[0]) > 50


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


def test_play_runs_the_cyclic_collector_less_often_and_puts_its_threshold_back():
    """bots.play raises the collector's first threshold while it plays (a tenth of a compiled game's time went to
    it) and puts the caller's back, also when a bot fails."""
    import gc

    from lv.collector import GC_THRESHOLD

    seen = []

    def watching(game, legal, rng):
        seen.append(gc.get_threshold()[0])
        return bots.uniform_bot(game, legal, rng)

    before = gc.get_threshold()
    bots.play(lv.new_game("revised", 2, seed=3), [watching, watching], 3)
    assert seen and set(seen) == {max(before[0], GC_THRESHOLD)} and gc.get_threshold() == before

    def failing(game, legal, rng):
        raise ValueError("a bot that fails")

    with pytest.raises(ValueError):
        bots.play(lv.new_game("revised", 2, seed=3), [failing, failing], 3)
    assert gc.get_threshold() == before


class _View:
    """Not a Game: only what a bot reads of one (``bots.GameView``), as the search hands its policy
    (``mcts._View``)."""

    def __init__(self, game):
        self.state, self.engine, self.board = game.state, game.engine, game.board


def test_the_built_in_bots_read_a_view_of_a_game_as_they_read_the_game():
    """The built-in bots take anything with a state, an engine and a board (``bots.GameView``), not only a
    ``Game``: compiled, a parameter typed ``Game`` would refuse the search's view. Same position, same generator,
    same decision; greedy's ``value`` too."""
    game = mixed_position()
    legal = game.legal_actions()
    for bot in (bots.greedy_bot, bots.GreedyBot(reserve=0), bots.uniform_bot, bots.RandomBot(0.3),
                bots.random_kind_bot):
        for seed in range(3):
            assert bot(_View(game), legal, random.Random(seed)) == bot(game, legal, random.Random(seed))
    assert [bots.greedy_bot.value(_View(game), a) for a in legal] == [bots.greedy_bot.value(game, a) for a in legal]
    assert max(bots.greedy_bot.value(game, a) for a in legal) > 0


def test_the_bots_with_parameters_are_values():
    """``random:P`` and ``greedy:N`` are compared and hashed by their parameters (the search, an attrs value,
    hashes its policy), and their repr names them."""
    assert bots.GreedyBot() == bots.greedy_bot and bots.GreedyBot(reserve=12) != bots.greedy_bot
    assert len({bots.GreedyBot(), bots.GreedyBot(5, 10, 1), bots.GreedyBot(reorg_gap=2)}) == 2
    assert len({bots.RandomBot(), bots.RandomBot(0.25), bots.RandomBot(0.3)}) == 2
    assert bots.RandomBot(0.3) != bots.GreedyBot() and bots.GreedyBot() != "greedy"
    assert hash(bots.BOTS["mcts"]) == hash(bots.bot_named("mcts:200"))
    assert repr(bots.GreedyBot(reserve=7)) == "GreedyBot(reserve=7, short=10, reorg_gap=1)"
    assert repr(bots.RandomBot(0.3)) == "RandomBot(end_bias=0.3)"


@pytest.mark.skipif(os.environ.get("LV_EXPECT_COMPILED") != "1", reason="only in CI's compiled stage")
def test_the_bots_are_compiled_and_a_users_bot_plays_beside_them():
    """The bots simulations use are compiled (greedy judged every legal decision in Python: 40% of a compiled
    run); a user's bot, plain Python, still plays with them (test_a_users_bot_is_loaded_from_module_and_function)."""
    assert bots.__file__.endswith((".so", ".pyd"))
    assert type(bots.greedy_bot).__module__ == "lv.bots" and not hasattr(bots.greedy_bot, "__dict__")


@pytest.mark.parametrize("spec,players", [("original", 4), ("revised", 4), ("revised", 3)])
def test_greedy_values_in_bulk_are_its_values_one_by_one(spec, players):
    """``GreedyBot.values`` (what it plays by: a build's lot read once, its colours after) gives each legal decision
    the very value ``value`` gives it alone (what mcts's search reads), at every decision of random games played
    by greedy bots of several reserves and a random-kind one (casinos of every colour, height and boss)."""
    players_bots = [bots.GreedyBot(reserve=r) for r in (0, 5, 15)][:players - 1] + [bots.random_kind_bot]
    for seed in range(2):
        game = lv.new_game(spec, players, seed=seed)
        rngs = [random.Random(f"{seed}/{i}") for i in range(players)]
        builds = 0
        while not game.over:
            legal = game.legal_actions()
            bot = players_bots[game.state.current]
            for judge in {bots.greedy_bot, bot} - {bots.random_kind_bot}:
                assert judge.values(game, legal) == [judge.value(game, a) for a in legal], game.state.turn
            builds += sum(isinstance(a, A.Build) for a in legal)
            game.apply(bot(game, legal, rngs[game.state.current]))
        assert builds > 100
