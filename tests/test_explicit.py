"""Issue 21: the game with explicit chance nodes (lv/explicit.py) and its action numbering (lv/actionspace.py),
which OpenSpiel and PettingZoo play; no extra needed here.

Rulebook passages: 000 = original, 003 = revised (shared/seeds/). The deal 003 L178-199 (F cards in a 2-player
game replaced, 003 L901-902); the first player 000 L57 / 003 L279-281; the end card on top of the 4th of four
stacks 000 L43 / 003 L170-176; the boss's lay-off 000 L194; no hidden information 003 L236.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from typer.testing import CliRunner

import lv
from lv import actions as A
from lv import actionspace as S
from lv import cli
from lv.events import TieRerolled
from lv.explicit import ACT, BOSS, DEAL, DICE, DRAW, ROLL, ExplicitGame
from lv.record import dumps

GAMES = [("original", 3), ("original+f-block", 2), ("revised", 2), ("revised", 6), ("house-sell-back", 4)]


def play(spec, players, seed, spread=0, on_node=None):
    """A random game (chance by its probabilities, decisions uniform); ``on_node(game)`` before each step."""
    g = ExplicitGame(spec, players, spread=spread)
    rng = random.Random(seed)
    while not g.over:
        if on_node is not None:
            on_node(g)
        if g.is_chance:
            outcomes = g.chance_outcomes()
            g.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            g.apply(rng.choice(g.legal()))
    return g


def test_the_numbering_is_pinned():
    """The ids are a promise to trained agents: they never move (docs/openspiel.md)."""
    board = lv.load_board()
    space = S.ActionSpace(lv.load_profile("revised"), 2, board)
    assert (S.END, S.BUILD, S.SPRAWL, S.REMODEL, S.REORGANIZE, S.RAISE, S.SELL, S.NO_LAY_OFF, S.LAY_OFF,
            S.GAMBLE, S.CHANCE_OUTCOMES) == (0, 1, 241, 433, 673, 721, 769, 817, 818, 819, 55)
    assert board.order[0] == "A1" and board.order[-1] == "F9"
    assert board.colors == ("aqua", "brown", "gold", "purple", "silver")
    assert space.decode(1) == A.Build("A1", "aqua")
    assert space.decode(240) == A.Build("F9", "silver")
    assert space.decode(S.GAMBLE + 48 * 11 + 20) == A.Gamble(board.order[20], 12)
    # revised: $5 a tile, risers count, a casino up to 2 high in a 2-player game, at most 12 lots (block C)
    assert space.max_stake == 5 * 12 * 2 and space.size == 819 + 48 * 120
    assert S.ActionSpace(lv.load_profile("original"), 4, board).max_stake == 5 * 12  # no risers


def test_sprawl_is_numbered_by_the_side_its_casino_lies_on():
    board = lv.load_board()
    space = S.ActionSpace(lv.load_profile("revised"), 2, board)
    c5 = space.lot_index["C5"]
    north = space.side_lot[c5][0]
    assert north is not None and board.lots[north].row == board.lots["C5"].row - 1
    assert space.decode(S.SPRAWL + 4 * c5) == A.Sprawl("C5", north)


@pytest.mark.parametrize("spec,players", GAMES)
def test_legal_ids_are_lvs_legal_list(spec, players):
    """At every decision: the ids are lv's legal list, each gamble at every stake from $1 to the one lv lists,
    each id decodes to a decision lv allows, and no two decisions share an id."""
    checked = []

    def check(g):
        if g.node != ACT:
            return
        game = g.game
        listed = game.legal_actions()
        expected = []
        for d in listed:
            if type(d) is A.Gamble:
                expected += [g.space.encode(A.Gamble(d.lot, bet), game) for bet in range(1, d.bet + 1)]
            else:
                expected.append(g.space.encode(d, game))
        assert len(set(expected)) == len(expected)
        assert g.legal() == sorted(expected)
        for action in g.legal()[1 if g.legal()[0] == S.END else 0:: max(1, len(g.legal()) // 8)]:
            assert game.why_not(g.space.decode(action)) is None, g.action_text(action)
        checked.append(len(listed))

    play(spec, players, seed=1, on_node=check)
    assert len(checked) > 20


@pytest.mark.parametrize("spec,players", GAMES)
def test_a_game_played_here_is_a_record_lv_check_verifies(spec, players, tmp_path):
    """Every card and die came from a chance node: lv rolled nothing itself, and the record replays."""
    g = play(spec, players, seed=2)
    for turn in g.game.history:
        assert not turn.draw_generated
        assert all(not d.generated for d in turn.decisions), turn
    path = tmp_path / "game.yaml"
    path.write_text(dumps(g.to_record()))
    result = CliRunner().invoke(cli.app, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "result verified" in result.output


def test_tie_rerolls_are_chance_nodes_too():
    """A tie among the top dice (003 "Settling Who's the Boss") is rerolled die by die as chance nodes: over a
    few games some tie comes up, and none was rolled by lv (the record test above checks that)."""
    ties = 0
    for seed in range(12):
        g = play("revised", 4, seed)
        ties += sum(isinstance(e, TieRerolled) for e in g.game.events())
        if ties:
            break
    assert ties > 0


def test_chance_is_uniform_over_the_unseen_cards_and_the_dice():
    seen = {DEAL: 0, ROLL: 0, DRAW: 0, DICE: 0}

    def check(g):
        if not g.is_chance:
            return
        seen[g.node] += 1
        outcomes = g.chance_outcomes()
        assert sum(p for _, p in outcomes) == pytest.approx(1)
        assert [o for o, _ in outcomes] == sorted(o for o, _ in outcomes)
        if g.node in (ROLL, DICE):
            assert outcomes == [(S.DIE + f, 1 / 6) for f in range(6)]
        elif g.node == DEAL:
            assert len(outcomes) == 48 - len(g.dealt)
        elif outcomes[-1][0] != S.END_OUTCOME:  # a draw before the end card's place: any unseen lot card
            assert [g.space.outcome_card(o) for o, _ in outcomes] == g.unseen()

    play("original", 3, seed=3, on_node=check)
    assert all(seen.values()), seen


def test_the_end_card_comes_up_where_the_rules_put_it():
    """Under floor(N/4) cards (000 L43, 003 L170-176): exactly after the N - floor(N/4) cards above it."""
    at = []

    def check(g):
        if g.node == DRAW and g.step is None:
            outcomes = dict(g.chance_outcomes())
            if S.END_OUTCOME in outcomes:
                at.append((g.drawn, outcomes[S.END_OUTCOME]))

    g = play("revised", 3, seed=4, on_node=check)
    assert g.pile == 48 - 6 and g.game.result.reason == "end_card"
    assert at == [(42 - 42 // 4, 1.0)]


def test_a_spread_end_card_may_come_up_early_or_late():
    """``spread=2``: the depth uniform on floor(N/4)-2 .. +2, so the first chance of the end card is 1 in 5,
    then 1 in 4 if it did not come up, ..."""
    first = []

    def check(g):
        if g.node == DRAW and g.step is None and not first:
            outcomes = dict(g.chance_outcomes())
            if S.END_OUTCOME in outcomes:
                first.append((g.drawn, outcomes[S.END_OUTCOME]))

    g = play("revised", 2, seed=5, spread=2)
    play("revised", 2, seed=5, spread=2, on_node=check)
    middle = g.pile // 4
    assert first == [(g.pile - middle - 2, pytest.approx(1 / 5))]


def until_a_gamble(spec, seed):
    """A 2-player game played at random, never gambling, until a gamble is legal: (game, the gamble ids)."""
    g = ExplicitGame(spec, 2)
    rng = random.Random(seed)
    while True:
        if g.is_chance:
            g.apply(rng.choice([o for o, _ in g.chance_outcomes()]))
            continue
        gambles = [a for a in g.legal() if a >= S.GAMBLE]
        if gambles:
            break
        g.apply(rng.choice([a for a in g.legal() if a < S.GAMBLE]))
    return g, gambles


def test_the_boss_answers_a_gamble_where_the_profile_lets_the_boss_lay_off():
    """000 L194: the boss may lay off half the bet; here the boss decides, before the dice."""
    g, gambles = until_a_gamble("original", 6)
    gambler = g.current_player
    g.apply(gambles[0])
    bet = g.space.decode(gambles[0])
    assert g.node == BOSS and g.current_player == g.game.boss_at(bet.lot) != gambler
    assert g.legal() == [S.NO_LAY_OFF, S.LAY_OFF]
    g.apply(S.LAY_OFF)
    g.apply(S.DIE + 2)
    assert g.node == DICE
    g.apply(S.DIE + 3)
    decision = g.game.current_turn.decisions[-1]
    assert decision.action == A.Gamble(bet.lot, bet.bet, True) and decision.dice == {"gamble": [3, 4]}


def test_without_lay_off_the_dice_follow_the_gamble():
    g, gambles = until_a_gamble("revised", 7)
    g.apply(gambles[-1])
    assert g.node == DICE


def test_returns_rank_the_players_and_sum_to_zero():
    g = play("revised", 4, seed=8)
    r = g.result if hasattr(g, "result") else g.game.result
    returns = g.returns()
    assert returns[r.winner] == 1 and returns[r.ranking[-1]] == -1
    assert [returns[s] for s in r.ranking] == pytest.approx([1, 1 / 3, -1 / 3, -1])
    assert sum(returns) == pytest.approx(0)
    assert ExplicitGame("revised", 4).returns() == [0.0] * 4


def test_a_copy_is_independent_and_a_pickle_replays():
    g = play("revised", 3, seed=9)
    mid = ExplicitGame("revised", 3)
    for action in g.log[:150]:
        mid.apply(action)
    twin = copy.deepcopy(mid)
    before = (mid.log[:], mid.legal(), mid.chance_outcomes(), mid.game.state.copy().players)
    for action in g.log[150:]:
        twin.apply(action)
    assert twin.over and twin.returns() == g.returns()
    assert (mid.log, mid.legal(), mid.chance_outcomes(), mid.game.state.players) == before
    again = pickle.loads(pickle.dumps(mid))
    assert again.log == mid.log and again.legal() == mid.legal() and again.node == mid.node


def test_an_illegal_id_is_refused_and_changes_nothing():
    g = ExplicitGame("revised", 2)
    with pytest.raises(lv.LvError, match="not a legal outcome"):
        g.apply(S.DIE)  # the deal, not a die
    assert g.log == []
    with pytest.raises(lv.LvError, match="allows 2 to 4"):
        ExplicitGame("original", 5)


def test_end_turn_by_default_rests_at_the_draw_in_a_game_of_explicit_draws() -> None:
    """A game whose draws are decisions (``draw_first=False``) writes ``draws: explicit``: ``apply(EndTurn())``
    with no ``draw`` given leaves the next player to draw (it drew at once before, and the record then said
    'explicit' with a turn that had no draw: the replay failed). Played to the end, the record replays verified."""
    from lv.record import dumps, parse_record, record_of
    from lv.replay import replay

    game = lv.new_game("revised", 3, 5, draw_first=False)
    rng = random.Random(5)
    ends = 0
    while not game.over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        if isinstance(action, A.EndTurn) and not game.over:
            ends += 1
            assert game.state.phase == "draw"  # resting at "X is to draw"
            assert game.why_not_draw(A.Draw()) is None
    assert ends > 10
    text = dumps(record_of(game, "revised"))
    assert "draws: explicit" in text
    again = replay(parse_record(text, "explicit.yaml"))
    assert again.verified is True
    assert dumps(record_of(again.game, "revised")) == text
    # draw=True draws at once, as asked, as a Draw decision of the new turn: the same game, and its record replays
    other = lv.new_game("revised", 3, 5, draw_first=False)
    rng = random.Random(5)
    while not other.over:
        action = rng.choice(other.legal_actions())
        if isinstance(action, A.EndTurn):
            other.apply(action, draw=True)
        else:  # (a Draw only at the start: each end draws)
            other.apply(action)
        if isinstance(action, A.EndTurn) and not other.over:
            assert other.state.phase == "actions"
            assert isinstance(other.current_turn.decisions[0].action, A.Draw)
    again = replay(parse_record(dumps(record_of(other, "revised")), "explicit2.yaml"))
    assert again.verified is True


def test_why_not_end_turn_is_the_games_own_check() -> None:
    """``Game.why_not(EndTurn())`` answers as ``apply`` would: None when the turn may end (EndTurn is in the legal
    list), the reason when the draw is not made yet or the game is over (it said "end is handled by the game, not
    the rules" whatever the position)."""
    game = lv.new_game("revised", 2, 3, draw_first=False)
    assert game.why_not(A.EndTurn()).startswith(
        f"{game.player_names[game.state.current]} has not drawn yet: draw, then end the turn [turn order: draw first")
    assert A.EndTurn() not in game.legal_actions()
    game.apply(A.Draw())
    assert A.EndTurn() in game.legal_actions()
    assert game.why_not(A.EndTurn()) is None
    rng = random.Random(3)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.why_not(A.EndTurn()).startswith("the game is over")
