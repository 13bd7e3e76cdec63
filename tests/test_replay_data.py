"""``lv replay --json`` and the record lv writes, pinned key by key and line by line (issue 17.11): the header
with a stored profile and tags, draw events without the bookkeeping, each decision's dice, generated dice and events
with player names (a boss change's previous boss too), an illegal decision's reason, rule and handling, the result
check (an end card whose payout reaches the target may be recorded as either end), and the writer's styles."""

from __future__ import annotations

import json

import pytest

from lv.record import dumps, parse_record, record_of
from lv.replay import replay

# red reaches the (lowered) target with the end card's payout: recorded as an instant win, replayed as the end card
RECORD = """format: lv-game/1
profile: {name: revised, title: Revised with two gambles, label: 'revised,gamble.per_turn=2', base: revised,
          values: {gamble.per_turn: 2, end.instant_win_points: 23}}
event: Club night
tags: {table: '3'}
players: [red, zoë]
seed: 4
position:
  current: red
  phase: draw
  players: {red: {money: 40, score: 20}, zoë: {money: 40, score: 20}}
  tiles: {A2: gold red 3, A3: gold zoë 3, B3: brown zoë 4, D1: silver red 6, D2: silver zoë 5, D3: silver zoë 1}
  deck: [A4, END]
turns:
- player: red
  cards: [A4]
  dice: {ties: {A2: [5], A3: [2]}}
  decisions:
  - {do: gamble B3 3, dice: {gamble: [6, 6]}}
  - {do: reorg A2, dice: {reorg: {A2: 1}}}
- player: zoë
  cards: [END]
result: {reason: instant_win, winner: red}
"""


@pytest.fixture(scope="module")
def rep():
    return replay(parse_record(RECORD, "data.yaml"))


def test_replay_json_pinned(rep):
    assert rep.to_dict() == {'header': {'file': 'data.yaml',
                'format': 'lv-game/1',
                'profile': 'revised,gamble.per_turn=2',
                'replayed_under': 'revised,gamble.per_turn=2',
                'recorded_profile': True,
                'players': ['red', 'zoë'],
                'seed': 4,
                'stored_profile': {'name': 'revised',
                                   'title': 'Revised with two gambles',
                                   'base': 'revised',
                                   'values': {'gamble.per_turn': 2, 'end.instant_win_points': 23}},
                'tags': {'event': 'Club night', 'table': '3'},
                'position': True},
     'setup': [],
     'turns': [{'turn': 1,
                'player': 'red',
                'cards': ['A4'],
                'events': [{'kind': 'card_drawn', 'player': 'red', 'card': 'A4', 'pays': 'gold'},
                           {'kind': 'marker_placed', 'player': 'red', 'lot': 'A4', 'moved_from': None},
                           {'kind': 'tie_rerolled', 'lots': ['A2', 'A3'], 'values': {'A2': 5, 'A3': 2}},
                           {'kind': 'boss_changed', 'lots': ['A2', 'A3'], 'previous': None, 'boss': 'red'},
                           {'kind': 'paid', 'player': 'red', 'amount': 1, 'why': 'lots', 'lots': ['A4']},
                           {'kind': 'paid', 'player': 'red', 'amount': 5, 'why': 'casino', 'lots': ['A2', 'A3']},
                           {'kind': 'paid', 'player': 'zoë', 'amount': 2, 'why': 'casino', 'lots': ['A2', 'A3']},
                           {'kind': 'scored',
                            'player': 'red',
                            'lots': ['A2', 'A3'],
                            'award': 2,
                            'before': 20,
                            'after': 20}],
                'decisions': [{'decision': 'gamble B3 3',
                               'dice': {'gamble': [6, 6]},
                               'events': [{'kind': 'gambled',
                                           'player': 'red',
                                           'lot': 'B3',
                                           'boss': 'zoë',
                                           'bet': 3,
                                           'dice': [6, 6],
                                           'total': 12,
                                           'outcome': 'double',
                                           'lay_off': False,
                                           'gambler_gets': 6,
                                           'boss_gets': -6}]},
                              {'decision': 'reorg A2',
                               'dice': {'reorg': {'A2': 1, 'A3': 5}},
                               'generated': ['reorg'],
                               'events': [{'kind': 'reorganized',
                                           'player': 'red',
                                           'lots': ['A2', 'A3'],
                                           'cost': 7,
                                           'values': {'A2': 1, 'A3': 5}},
                                          {'kind': 'boss_changed',
                                           'lots': ['A2', 'A3'],
                                           'previous': 'red',
                                           'boss': 'zoë'}]}],
                'after': {'money': {'red': 45, 'zoë': 36}, 'points': {'red': 20, 'zoë': 20}}},
               {'turn': 2,
                'player': 'zoë',
                'cards': ['END'],
                'events': [{'kind': 'card_drawn', 'player': 'zoë', 'card': 'END', 'pays': 'strip'},
                           {'kind': 'paid', 'player': 'red', 'amount': 1, 'why': 'lots', 'lots': ['A4']},
                           {'kind': 'paid', 'player': 'red', 'amount': 1, 'why': 'casino', 'lots': ['A2', 'A3']},
                           {'kind': 'paid', 'player': 'zoë', 'amount': 5, 'why': 'casino', 'lots': ['A2', 'A3']},
                           {'kind': 'paid',
                            'player': 'red',
                            'amount': 6,
                            'why': 'casino',
                            'lots': ['D1', 'D2', 'D3']},
                           {'kind': 'paid',
                            'player': 'zoë',
                            'amount': 6,
                            'why': 'casino',
                            'lots': ['D1', 'D2', 'D3']},
                           {'kind': 'scored',
                            'player': 'zoë',
                            'lots': ['A2', 'A3'],
                            'award': 2,
                            'before': 20,
                            'after': 20},
                           {'kind': 'scored',
                            'player': 'red',
                            'lots': ['D1', 'D2', 'D3'],
                            'award': 3,
                            'before': 20,
                            'after': 23},
                           {'kind': 'game_ended',
                            'reason': 'end_card',
                            'winner': 'red',
                            'ranking': ['red', 'zoë'],
                            'scores': {'red': 23, 'zoë': 20},
                            'money': {'red': 53, 'zoë': 47},
                            'instant_win': True}],
                'decisions': [],
                'after': {'money': {'red': 53, 'zoë': 47}, 'points': {'red': 23, 'zoë': 20}}}],
     'standings': [{'rank': 1, 'player': 'red', 'points': 23, 'money': 53},
                   {'rank': 2, 'player': 'zoë', 'points': 20, 'money': 47}],
     'over': True,
     'result': {'reason': 'end_card',
                'winner': 'red',
                'scores': {'red': 23, 'zoë': 20},
                'money': {'red': 53, 'zoë': 47}},
     'recorded_result': {'reason': 'instant_win', 'winner': 'red'},
     'verified': True,
     'result_mismatch': [],
     'stopped': False,
     'unplayed_turns': 0,
     'illegal': [],
     'generated': [{'turn': 1, 'index': 2, 'decision': 'reorg A2', 'dice': ['reorg']}],
     'card_mismatches': []}


def test_an_illegal_decision_as_data():
    rep = replay(parse_record(RECORD, "data.yaml"), "revised,gamble.bet_per_tile=1", on_illegal="skip")
    d = rep.to_dict()
    assert {k: d[k] for k in ("illegal", "generated", "card_mismatches", "verified", "recorded_result")} == \
        {'illegal': [{'turn': 1,
                      'index': 1,
                      'decision': 'gamble B3 3',
                      'reason': 'the bet at B3 must be $1 to $1',
                      'rule': 'gamble.bet_per_tile',
                      'handled': 'skipped'}],
         'generated': [{'turn': 1, 'index': 2, 'decision': 'reorg A2', 'dice': ['reorg']}],
         'card_mismatches': [],
         'verified': None,
         'recorded_result': {'reason': 'instant_win', 'winner': 'red'}}
    assert d["turns"][0]["decisions"][0] == {'decision': 'gamble B3 3',
     'illegal': {'reason': 'the bet at B3 must be $1 to $1', 'rule': 'gamble.bet_per_tile', 'handled': 'skipped'}}


@pytest.mark.parametrize("reason,verified", [("instant_win", True), ("end_card", True), ("deck_exhausted", False)])
def test_either_end_is_accepted_only_when_the_end_card_reached_the_target(reason, verified):
    rep = replay(parse_record(RECORD.replace("reason: instant_win", f"reason: {reason}"), "data.yaml"))
    assert rep.verified is verified
    if not verified:
        assert rep.result_mismatch == [
            f"data.yaml:23: result reason: the record says {reason}, the replay gives end_card"]
    high = RECORD.replace("end.instant_win_points: 23", "end.instant_win_points: 26")
    rep = replay(parse_record(high.replace("reason: instant_win", f"reason: {reason}"), "data.yaml"))
    assert rep.verified is (reason == "end_card")


def test_the_record_lv_writes_pinned(rep):
    text = dumps(record_of(rep.game, rep.record.profile, position=rep.record.position,
                           comment="A question\nin two lines", tags=rep.record.tags))
    assert text.splitlines() == ['format: lv-game/1',
     'engine: lv 0.2.0',
     'profile:',
     '  name: revised',
     '  title: Revised with two gambles',
     '  label: revised,gamble.per_turn=2',
     '  base: revised',
     '  values:',
     '    gamble.per_turn: 2',
     '    end.instant_win_points: 23',
     'event: Club night',
     'tags:',
     "  table: '3'",
     'players: [red, zoë]',
     'seed: 4',
     'comment: |-',
     '  A question',
     '  in two lines',
     'position: {current: red, phase: draw, players: {red: {money: 40, score: 20}, zoë: {money: 40, score: 20}}, '
     'tiles: {A2: gold red 3, A3: gold zoë 3, B3: brown zoë 4,',
     '    D1: silver red 6, D2: silver zoë 5, D3: silver zoë 1}, deck: [A4, END]}',
     'turns:',
     '- player: red',
     '  cards: [A4]',
     '  dice: {ties: {A2: [5], A3: [2]}}',
     '  decisions:',
     '  - {action: gamble, lot: B3, bet: 3, dice: {gamble: [6, 6]}}',
     '  - {action: reorganize, lot: A2, dice: {reorg: {A2: 1, A3: 5}}}',
     '- {player: zoë, cards: [END]}',
     'result: {reason: end_card, winner: red, scores: {red: 23, zoë: 20}, money: {red: 53, zoë: 47}}']
    again = replay(parse_record(text, "again.yaml"))
    assert again.verified is True and again.generated == []
    assert [t["after"] for t in again.to_dict()["turns"]] == [t["after"] for t in rep.to_dict()["turns"]]


def test_json_keeps_names_as_they_are(rep):
    data = record_of(rep.game, rep.record.profile, position=rep.record.position, tags=rep.record.tags)
    text = dumps(data, "json")
    assert '"zoë"' in text and "\\u" not in text and text.endswith("}\n")
    assert text.splitlines()[:3] == ["{", ' "format": "lv-game/1",', ' "engine": "lv 0.2.0",']
    assert json.loads(text) == data
