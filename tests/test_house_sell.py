"""The house rule "sell a lot back to the bank" (lv/actions/sell.py, variants/house-sell-back.yaml): a new action
that is one module plus its profile keys. A house rule, in no rulebook: these tests pin the rule as the module's
docstring states it (a parking lot of the current player, in the action step, for sell.refund_percent percent of
its price rounded down; the marker back to the supply)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import lv
from lv import actions as A
from lv import bots, cli
from lv.actions.sell import Params, Sell, Sold, SellRule
from lv.notation import format_action, parse_action
from lv.record import dumps, parse_record, record_of, structured
from lv.replay import replay, replay_dict
from lv.actions import rule_ids
from lv.ruleids import Rule

from conftest import at, illegal, of_kind, positions

HOUSE = "house-sell-back"
NAMES = ["red", "blue"]
# prices on the board: C7 $6, B3 $9, A4 $12
POS = dict(markers={"C7": "red", "B3": "red", "A4": "blue"}, tiles={"A1": "gold red 3"},
           players={"red": {"money": 10}, "blue": {"money": 10}})


def acting(spec: str = HOUSE, **pos) -> lv.Game:
    return at(spec, NAMES, current="red", phase="actions", **(pos or POS))


def run(*args):
    return CliRunner().invoke(cli.app, [str(a) for a in args])


# ------------------------------------------------------------------------------------------------ the profile


def test_the_house_profile_extends_revised_and_cites_a_house_rule():
    p, revised = lv.load_profile(HOUSE), lv.load_profile("revised")
    assert p.extension("sell") == Params(enabled=True, refund_percent=50)
    values = p.values()
    assert {k: v for k, v in values.items() if not k.startswith("sell.")} == revised.values()
    assert "house rule" in p.sources["sell.enabled"] and "rulebook" not in p.sources["sell.enabled"].replace(
        "in no rulebook", "")
    assert revised.extension("sell").enabled is False and "sell.enabled" not in revised.values()


# ------------------------------------------------------------------------------------------------ the effect


def test_a_sale_pays_half_the_price_rounded_down_and_frees_the_marker():
    game = acting()
    markers_before = len(game.state.markers_on_board(0))
    game.apply(Sell("B3"))  # $9 at 50%: $4 (the bank keeps the half million)
    assert game.state.players[0].money == 14 and game.state.players[1].money == 10
    assert "B3" not in game.state.markers and game.state.markers["C7"] == 0
    assert len(game.state.markers_on_board(0)) == markers_before - 1  # back in the supply
    sold = of_kind(game.current_turn.decisions[-1].events, "sold")
    assert [e.to_dict() for e in sold] == [{"kind": "sold", "lot": "B3", "player": 0, "amount": 4}]
    game.apply(Sell("C7"))  # $6: $3
    assert game.state.players[0].money == 17


def test_the_refund_reads_the_profile():
    game = acting(f"{HOUSE},sell.refund_percent=100")
    game.apply(Sell("B3"))
    assert game.state.players[0].money == 19
    game = acting(f"{HOUSE},sell.refund_percent=0")
    game.apply(Sell("B3"))
    assert game.state.players[0].money == 10 and "B3" not in game.state.markers


def test_a_sold_lot_is_unowned_and_a_later_card_places_a_marker_again():
    game = acting()
    game.apply(Sell("C7"))
    assert game.engine.why_not(game.state, 0, A.Build("C7", "gold"))[0] == Rule.BUILD_OWN_LOT


# ------------------------------------------------------------------------------------------------ legality


def test_not_a_lot_with_a_tile():
    assert illegal(acting(), Sell("A1"), SellRule.PARKING_LOT).rule == "sell: a parking lot, with no tile"


def test_not_another_players_lot_nor_an_unowned_one():
    err = illegal(acting(), Sell("A4"), SellRule.OWN_LOT)
    assert "blue's lot" in str(err)
    assert "nobody's lot" in str(illegal(acting(), Sell("E5"), SellRule.OWN_LOT))


def test_not_outside_the_action_step():
    # a game whose draws are decisions rests at "red is to draw": no sale before the draw
    game = lv.new_game(HOUSE, ["red", "blue", "green"], seed=11, first_player="red", draw_first=False)
    lot = game.state.markers_on_board(0)[0]
    assert game.state.phase == "draw"
    err = illegal(game, Sell(lot), Rule.DRAW_FIRST)
    assert str(err).startswith("red has not drawn yet")
    assert game.legal_actions() == [A.Draw()]


@pytest.mark.parametrize("spec", ["revised", "original", f"{HOUSE},sell.enabled=false"])
def test_refused_with_the_rule_id_where_the_rule_is_off(spec):
    game = acting(spec)
    illegal(game, Sell("C7"), "sell.enabled")
    assert not any(isinstance(a, Sell) for a in game.legal_actions())


def test_the_rule_ids_are_in_the_table_and_name_the_parameter():
    ids = rule_ids()
    assert ids["SELL.ENABLED"] == "sell.enabled" and "sell.enabled" in lv.profile.parameter_names()
    assert {ids["SELL.PARKING_LOT"], ids["SELL.OWN_LOT"]} <= set(ids.values())


# ------------------------------------------------------------------------------------------------ the legal list


def test_listed_after_the_builds_before_the_casinos_in_board_order():
    game = acting()
    legal = [format_action(a, NAMES) for a in game.legal_actions()]
    sells = [t for t in legal if t.startswith("sell")]
    assert sells == ["sell B3", "sell C7"]  # board order: B before C
    kinds = [t.split()[0] for t in legal]
    last_build = max(i for i, k in enumerate(kinds) if k == "build")
    first_casino = min(i for i, k in enumerate(kinds) if k in ("sprawl", "remodel", "raise", "reorg", "gamble"))
    assert last_build < kinds.index("sell") < legal.index("sell C7") < first_casino
    for action in game.legal_actions()[:-1]:  # but the end, which the game carries out
        assert game.engine.why_not(game.state, 0, action) is None
    revised = acting("revised")
    assert [a for a in revised.legal_actions()] == [a for a in game.legal_actions() if not isinstance(a, Sell)]


@pytest.mark.parametrize("players", [2, 4])
def test_the_listed_sales_are_exactly_those_the_referee_allows(players):
    """The generator and ``why_not`` agree (as tests/test_legal_agrees.py checks for the other families): over
    random games, every lot of the board named in a sale is listed exactly when the predicate allows it."""
    checked = 0
    for seed in range(2):
        for game, legal, _ in positions(HOUSE, players, seed):
            if game.state.phase == "actions":
                listed = {a for a in legal if isinstance(a, Sell)}
                for lot in game.board.order:
                    allowed = game.engine.why_not(game.state, game.state.current, Sell(lot)) is None
                    assert allowed == (Sell(lot) in listed), (game.state.turn, lot)
                checked += bool(listed)
    assert checked > 5


def test_cost_is_the_refund_as_a_negative_cost():
    game = acting()
    assert game.engine.action_cost(game.state, Sell("B3")) == -4


# ------------------------------------------------------------------------------------------------ notation, records


def test_notation_and_record_round_trip():
    action = parse_action("sell c7", NAMES)
    assert action == Sell("C7") and format_action(action, NAMES) == "sell C7"
    assert structured(action, NAMES) == {"action": "sell", "lot": "C7"}
    assert A.FAMILY_OF[Sell].from_record({"action": "sell", "lot": "C7"}) == "sell C7"
    with pytest.raises(lv.NotationError, match="expected 'sell LOT'"):
        parse_action("sell C7 now", NAMES)
    with pytest.raises(lv.NotationError, match="unknown lot 'Z9'"):
        parse_action("sell Z9", NAMES)


def test_the_narrative_tells_the_sale():
    game = acting()
    game.apply(Sell("C7"))
    from lv.narrative import decision_lines, describe
    assert decision_lines(game.current_turn.decisions[-1], NAMES) == [
        "sell C7: +$3 from the bank, the marker back to red"]
    assert describe(Sold(lot="C7", player=1, amount=3), NAMES) == "blue sells C7 back to the bank: +$3"


def bot_game(seed: int, players: int = 3) -> lv.Game:
    game = lv.new_game(HOUSE, players, seed=seed)
    return bots.play(game, [bots.uniform_bot] * players, seed=seed)


def test_uniform_bot_games_end_and_sell():
    sold = 0
    for seed in range(4):
        game = bot_game(seed)
        assert game.over and game.result is not None
        sold += sum(1 for t in game.history for d in t.decisions if isinstance(d.action, Sell))
    assert sold > 0


def test_a_record_with_sales_replays_byte_for_byte():
    game = bot_game(1)
    assert any(isinstance(d.action, Sell) for t in game.history for d in t.decisions)
    text = dumps(record_of(game))
    assert "action: sell" in text or "sell " in text
    first = replay(parse_record(text))
    assert first.verified is True
    again = replay(parse_record(dumps(record_of(first.game))))
    assert dumps(record_of(again.game)) == text
    a, b = (json.dumps(replay_dict(r), sort_keys=True) for r in (first, again))
    assert a == b and '"kind": "sold"' in a


# ------------------------------------------------------------------------------------------------ the command line


def test_new_legal_move_replay_from_the_command_line(tmp_path):
    path = tmp_path / "g.yaml"
    assert run("new", "--variant", HOUSE, "--players", "red,blue", "--seed", 1, "-o", path).exit_code == 0
    # seed 1: red starts (5+1 against 2+2), with markers on A4, B3 and E5 after the first draw (see lv show)
    text = run("legal", path).stdout
    assert "sell (3):" in text and "sell A4 +$6, sell B3 +$4, sell E5 +$4" in text  # paid half the price, down
    decisions = json.loads(run("legal", path, "--json").stdout)["decisions"]
    assert {"notation": "sell E5", "kind": "sell", "cost": -4, "lot": "E5"} in decisions  # $9: half is $4
    res = run("move", path, "sell E5")
    assert res.exit_code == 0, res.output
    assert "sell E5: +$4 from the bank, the marker back to red" in res.stdout
    res = run("move", path, "sell C7")  # blue's lot
    assert res.exit_code == 2 and "[sell: a lot you own]" in res.output and "Traceback" not in res.output
    assert "action: sell, lot: E5" in path.read_text()
    first = run("replay", path, "--json").stdout
    assert first == run("replay", path, "--json").stdout and '"sold"' in first


def test_lv_legal_has_no_sell_group_without_the_section(tmp_path):
    from lv import session
    assert "sell" not in session.legal_groups(acting("revised"))
    assert session.legal_groups(acting())["sell"] == ["sell B3", "sell C7"]
    assert session.legal_text(acting())["sell"] == ["sell B3 +$4", "sell C7 +$3"]  # paid: a negative cost
    assert [d["cost"] for d in session.legal_decisions(acting()) if d["kind"] == "sell"] == [-4, -3]
    path = tmp_path / "g.yaml"
    assert run("new", "--variant", "revised", "--players", "red,blue", "--seed", 1, "-o", path).exit_code == 0
    assert "sell" not in run("legal", path).stdout


def test_variants_diff_names_the_one_parameter_the_house_rule_turns_on():
    """`lv variants diff revised house-sell-back`: the section the house profile names is compared with the
    defaults the revised profile leaves it at; one parameter differs, said in the singular."""
    res = CliRunner().invoke(cli.app, ["variants", "diff", "revised", "house-sell-back"])
    assert res.exit_code == 0, res.output
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert lines[-1] == "1 parameter differs."
    assert any(line.split()[:3] == ["sell.enabled", "false", "true"] for line in lines)
