"""The Python API reference (issue 13, point 10): every public name of ``lv`` and every public method of its
classes has a docstring, the record and replay functions too, and pdoc builds the reference pages from them."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

import lv
from lv import record, replay
from lv.game import Game


def own_doc(obj) -> str | None:
    """The docstring written for ``obj`` itself (not an inherited one, not attrs' generated signature)."""
    if inspect.isclass(obj):
        doc = obj.__dict__.get("__doc__")
        return None if doc is None or doc.startswith(f"{obj.__name__}(") else doc
    return obj.__doc__


def public_members(cls) -> list[tuple[str, object]]:
    out = []
    for name, value in vars(cls).items():
        if name.startswith("_"):
            continue
        if isinstance(value, property):
            out.append((name, value.fget))
        elif isinstance(value, (classmethod, staticmethod)):
            out.append((name, value.__func__))
        elif inspect.isfunction(value):
            out.append((name, value))
    return out


PUBLIC = [n for n in lv.__all__ if inspect.isclass(getattr(lv, n)) or inspect.isfunction(getattr(lv, n))]


def test_the_public_names_are_the_documented_api():
    assert {"Game", "Result", "Replay", "Record", "new_game", "load_profile", "load_record", "parse_action",
            "format_action", "record_of", "save_record"} <= set(PUBLIC)
    assert all(hasattr(lv, n) for n in lv.__all__)


@pytest.mark.parametrize("name", PUBLIC)
def test_every_public_name_has_a_docstring(name):
    obj = getattr(lv, name)
    assert own_doc(obj), f"lv.{name} has no docstring"
    if inspect.isclass(obj):
        missing = [m for m, f in public_members(obj) if not f.__doc__]
        assert missing == [], f"lv.{name}: methods without a docstring: {missing}"


def test_game_documents_its_calls_and_finds_players_by_name():
    for name in ("legal_actions", "apply", "result", "over", "player", "seat", "player_names", "casinos",
                 "events", "current_player", "_repr_svg_", "from_position"):
        assert inspect.getdoc(getattr(Game, name)), name
    assert "IllegalAction" in Game.apply.__doc__  # what it raises


@pytest.mark.parametrize("fn", [replay.replay, replay.check_file, replay.standings, record.load_record,
                                record.parse_record, record.record_of, record.save_record, record.dumps,
                                record.write_atomic], ids=lambda f: f"{f.__module__}.{f.__name__}")
def test_record_and_replay_functions_have_docstrings_and_types(fn):
    assert inspect.getdoc(fn)
    hints = inspect.signature(fn).parameters
    assert all(p.annotation is not inspect.Parameter.empty for n, p in hints.items()
               if n not in ("self", "kwargs", "game")), fn.__name__


@pytest.mark.slow
def test_pdoc_builds_the_reference(tmp_path):
    pdoc = pytest.importorskip("pdoc", reason="pdoc is not installed (it comes with lv[test] and lv[docs])")
    package = Path(lv.__file__).parent  # by path: the lv that is imported, where a checkout also has lv/
    pdoc.pdoc(package, *(package / f"{m}.py" for m in ("game", "record", "replay")), output_directory=tmp_path)
    page = (tmp_path / "lv" / "game.html").read_text(encoding="utf-8")
    assert "Every decision the player to move may make now" in page  # Game.legal_actions
    assert "The seat number of the player called" in page  # Game.seat
    index = (tmp_path / "lv.html").read_text(encoding="utf-8")
    assert "new_game" in index and 'id="Result.winner_name"' in index
