"""``legal_actions`` evaluates the referee's ``why_not`` predicates in bulk (each action family's generator, for speed): over
random games under every shipped configuration, each listed decision must pass its predicate and every other
candidate decision of the moment must fail it. Catches the two drifting apart when a rule changes."""

import random

import pytest

import lv
from lv import actions as A
from lv import bots


def candidates(game):
    """Every build, sprawl, remodel, reorganize, raise and gamble that could be named now."""
    board, s = game.board, game.state
    out = []
    for lot in board.order:
        out.extend(A.Build(lot, c) for c in board.colors)
    for casino in game.engine.casinos(s):
        neighbours = {n for lot in casino.lots for n in board.lots[lot].neighbours}
        out.extend(A.Sprawl(n, casino.name) for n in sorted(neighbours))
        out.extend(A.Remodel(casino.name, c) for c in board.colors)
        out += [A.Reorganize(casino.name), A.Raise(casino.name), A.Gamble(casino.name, 1)]
    return out


def refusal(game, action):
    """The referee's predicate: the action family's ``why_not`` (lv/actions), through the engine's table lookup."""
    e, s, p = game.engine, game.state, game.state.current
    return e.why_not(s, p, action)


@pytest.mark.parametrize("spec,players", [("original", 4), ("revised", 4), ("revised", 2), ("original+f-block", 3),
                                          ("revised", 6), ("revised,casino.join_rule=color", 3),
                                          # bets above the 64 the gamble generator keeps by casino
                                          ("revised,gamble.bet_per_tile=40,payout.money_per_pip=8", 3)])
def test_legal_list_agrees_with_the_referee(spec, players):
    for seed in range(2):
        game = lv.new_game(spec, players, seed=seed)
        rng = random.Random(seed)
        checked = 0
        while not game.over:
            legal = game.legal_actions()
            listed = {a if not isinstance(a, A.Gamble) else A.Gamble(a.lot, 1) for a in legal}
            if rng.random() < 0.3:  # every third decision or so: the full comparison is slow
                for action in candidates(game):
                    assert (refusal(game, action) is None) == (action in listed), (game.state.turn, action)
                for a in legal:
                    if isinstance(a, A.Gamble):  # the cap listed is the largest legal bet
                        assert refusal(game, a) is None and refusal(game, A.Gamble(a.lot, a.bet + 1)) is not None
                checked += 1
            game.apply(bots.random_bot(game, legal, rng))
        assert checked > 5


# every cost that can be $0 made $0 (the generators' ``money // per`` has a branch for that)
FREE = ("revised,raise.cost_per_space=0,remodel.cost_per_unit=0,reorg.cost_per_pip=0,sprawl.cost_multiplier=0,"
        "sprawl.riser_cost=0")


def random_position(spec, players, rng):
    """Markers, tiles of random colour, height and die, money, locks: corners random games rarely reach
    (tall casinos, die-less tiles, players short of money, locks)."""
    profile = lv.load_profile(spec)
    names = list(profile.players.colors[:players])
    board = lv.load_board()
    markers, tiles, used, dice = {}, {}, {}, {}
    c = profile.components
    closed = profile.f_block.block if profile.f_block_closed(players) else None
    for lot in board.order:
        if board.lots[lot].block == closed:  # 003 L893-903: nothing stands on a closed F block
            continue
        r = rng.random()
        if r < 0.2:
            who = rng.choice(names)
            if list(markers.values()).count(who) < c.markers_per_player:
                markers[lot] = who
        elif r < 0.6:
            color = rng.choice(board.colors)
            if used.get(color, 0) >= c.tiles_per_color:
                continue
            used[color] = used.get(color, 0) + 1
            height = rng.randint(1, profile.max_height(players))
            who = rng.choice(names)
            die = f" {who} {rng.randint(1, 6)}" if rng.random() < 0.8 and dice.get(who, 0) < c.dice_per_player else ""
            dice[who] = dice.get(who, 0) + bool(die)
            tiles[lot] = f"{color} h{height}{die}"
    tiled = [lot for lot, spec in tiles.items() if len(spec.split()) == 4]  # reorganized: tiles with a die
    pos = dict(current=rng.choice(names), phase="actions", markers=markers, tiles=tiles,
               players={n: {"money": rng.randint(0, 60)} for n in names}, gambles=rng.randint(0, 1),
               reorganized=rng.sample(tiled, min(len(tiled), rng.randint(0, 3))))
    return lv.Game.from_position(profile, names, pos)


@pytest.mark.parametrize("spec,players", [("original", 4), ("revised", 4), ("revised", 2), ("original+f-block", 2),
                                          ("revised,casino.join_rule=color", 3), (FREE, 3)])
def test_legal_list_agrees_with_the_referee_in_random_positions(spec, players):
    rng = random.Random(spec)
    for _ in range(25):
        game = random_position(spec, players, rng)
        listed = {a if not isinstance(a, A.Gamble) else A.Gamble(a.lot, 1) for a in game.legal_actions()}
        for action in candidates(game):
            assert (refusal(game, action) is None) == (action in listed), action
