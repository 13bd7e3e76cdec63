"""Nothing lost: game files are written locked, fingerprinted, atomically and durably; links and read-only files
are respected; reads take only regular files of bounded size; ``lv check`` goes on past any bad record; simulate
keeps within the machine and gives every profile its own folder (issue 9; lv/files.py, lv/yamlsource.py).

The concurrency soak: ``LV_SOAK=1`` runs 100 rounds of two simultaneous ``lv move`` processes (default: 3).
"""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from lv import cli
from lv import files, session, simulate
from lv.errors import LvError
from lv.record import load_record
from lv.yamlsource import MAX_FILE_BYTES, read_text

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
SOAK_ROUNDS = 100 if os.environ.get("LV_SOAK") else 3


def lv_cmd(*args, input=None):
    return runner.invoke(cli.app, [str(a) for a in args], input=input)


@pytest.fixture
def game(tmp_path):
    """A 3-player revised game, red to play; blue and green hold money to trade at any time."""
    path = tmp_path / "game.yaml"
    res = lv_cmd("new", "--variant", "revised", "--players", "red,blue,green", "--seed", 7, "-o", path)
    assert res.exit_code == 0, res.stderr
    return path


def decisions(path: Path) -> list:
    rec = load_record(path)
    return [d for turn in rec.turns for d in turn.decisions]


def one_line_error(res) -> str:
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert "Traceback" not in res.stderr
    return lines[0]


# ---------------------------------------------------------------------------------------------- 1. lost updates


@pytest.mark.slow
def test_two_concurrent_moves_never_lose_a_decision(game):
    """Two ``lv move`` processes started together on one file: every one that says "saved" is in the file, and
    one that was not saved says why (the game changed since it was read: the fingerprint, checked under the lock)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    saved_total = 0
    for round_ in range(SOAK_ROUNDS):
        before = len(decisions(game))
        cmds = [("trade money 1 from blue to green"), ("trade money 1 from green to blue")]
        procs = [subprocess.Popen([sys.executable, str(ROOT / "cli.py"), "move", str(game), d], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for d in cmds]
        results = [(p.wait(timeout=120), p.stderr.read()) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        saved = 0
        for rc, err in results:
            assert rc in (0, 2), err
            if rc == 0:
                assert "lv: saved" in err
                saved += 1
            else:
                assert err.strip().endswith("the game changed since you read it: run `lv show` and try again"), err
        assert len(decisions(game)) == before + saved, f"round {round_}: a saved decision was lost"
        saved_total += saved
        assert saved >= 1, f"round {round_}: neither move was saved"
    assert SOAK_ROUNDS <= saved_total <= 2 * SOAK_ROUNDS
    assert sorted(p.name for p in game.parent.iterdir()) == [".lv-lock", "game.yaml"]


def test_a_writer_that_cannot_get_the_lock_gives_up_with_one_line(game, monkeypatch):
    from filelock import FileLock

    monkeypatch.setattr(files, "LOCK_TIMEOUT", 0.3)
    monkeypatch.setattr(files, "_locks", {})
    before = game.read_bytes()
    with FileLock(str(game.parent / ".lv-lock")):  # another lv command in the middle of a save
        res = lv_cmd("move", game, "end")
    assert res.exit_code == 2
    assert one_line_error(res) == (f"lv: error: {game}: another lv command has been writing in this folder for "
                                   f"0.3 s (lock {game.parent / '.lv-lock'}); try again")
    assert game.read_bytes() == before


def test_a_session_that_saves_second_over_a_changed_file_is_refused(game):
    """The fingerprint: two sessions read the same bytes; the first save wins, the second writes nothing."""
    a, b = session.open_game(game), session.open_game(game)
    a.play("trade money 1 from blue to green")
    b.play("trade money 2 from blue to green")
    a.save()
    after_a = game.read_bytes()
    with pytest.raises(files.FileChangedError, match="the game changed since you read it: run `lv show`"):
        b.save()
    assert game.read_bytes() == after_a
    assert decisions(game)[-1].action.steps[0].amount == 1
    a.play("end")
    a.save()  # the winner's session goes on: its fingerprint follows its own saves
    assert len(load_record(game).turns) == 2


def test_lv_move_over_a_file_changed_behind_its_back_exits_2(game, monkeypatch):
    """A writer that does not take the lock (an editor) changes the file while ``lv move`` works: refused."""
    real_play = session.Session.play

    def play_then_edit(self, *args, **kwargs):
        played = real_play(self, *args, **kwargs)
        with open(game, "a", encoding="utf-8") as f:
            f.write("# edited by hand\n")
        return played

    monkeypatch.setattr(session.Session, "play", play_then_edit)
    res = lv_cmd("move", game, "end")
    assert res.exit_code == 2
    assert one_line_error(res) == (f"lv: error: {game}: the game changed since you read it: run `lv show` and "
                                   "try again")
    assert game.read_text(encoding="utf-8").endswith("# edited by hand\n")
    assert len(load_record(game).turns) == 1


def test_lv_new_does_not_replace_a_file_that_appeared_meanwhile(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("mine\n", encoding="utf-8")
    with pytest.raises(files.FileChangedError, match="the file exists"):
        session.create(path, "revised", 3, seed=1)
    assert path.read_text(encoding="utf-8") == "mine\n"
    session.create(path, "revised", 3, seed=1, overwrite=True)
    assert len(load_record(path).players) == 3


def test_a_write_is_fsynced_renamed_and_the_folder_fsynced(game, monkeypatch):
    synced: list[str] = []
    real_fsync = os.fsync

    def fsync(fd):
        mode = os.fstat(fd).st_mode
        synced.append("folder" if stat.S_ISDIR(mode) else "file")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    ino = game.stat().st_ino
    assert lv_cmd("move", game, "end").exit_code == 0
    assert synced == ["file", "folder"]
    assert game.stat().st_ino != ino  # a new file renamed over the old one


def test_a_stale_temporary_is_removed_by_the_next_write_and_ignored_meanwhile(game):
    stale = game.parent / ".game.yaml.lv-tmp-99999"  # what a kill -9 in the middle of a save leaves
    stale.write_text("half a game", encoding="utf-8")
    older = game.parent / ".game.yaml.k2j_8x0q.tmp"  # the name of an lv before the lock (tempfile.mkstemp)
    older.write_text("half a game", encoding="utf-8")
    res = lv_cmd("check", game.parent)
    assert res.exit_code == 0 and "1 records: 1 ok" in res.stdout  # not taken for a record
    assert lv_cmd("move", game, "end").exit_code == 0
    assert not stale.exists() and not older.exists()
    assert sorted(p.name for p in game.parent.iterdir()) == [".lv-lock", "game.yaml"]


@pytest.mark.slow
def test_every_writing_command_goes_through_the_locked_writer(tmp_path, monkeypatch):
    """``lv new -o``, ``lv move``, ``selfplay -o``, ``simulate --save-dir`` and ``render -o`` all write with
    files.write_atomic (so with the lock, the fsyncs and the temporaries' names)."""
    written: list[str] = []
    real = files.write_atomic

    def spy(path, text, expect=None, **kw):
        written.append(Path(path).name)
        return real(path, text, expect, **kw)

    for module in ("lv.files", "lv.record", "lv.session", "lv.simulate"):
        if hasattr(sys.modules[module], "write_atomic"):
            monkeypatch.setattr(sys.modules[module], "write_atomic", spy)
    g = tmp_path / "g.yaml"
    assert lv_cmd("new", "--players", "2", "--seed", 1, "-o", g).exit_code == 0
    assert lv_cmd("move", g, "end").exit_code == 0
    assert lv_cmd("selfplay", "--players", "2", "--seed", 1, "-o", tmp_path / "s.yaml").exit_code == 0
    assert lv_cmd("render", g, "-o", tmp_path / "b.svg").exit_code == 0
    assert lv_cmd("simulate", "-v", "revised", "-p", "2", "-g", "1", "-w", "1", "--save-dir", tmp_path / "d",
                  "--json").exit_code == 0
    assert written == ["g.yaml", "g.yaml", "s.yaml", "b.svg", "game-00000.yaml"]


# ---------------------------------------------------------------------------------------------- 3. bounded reads


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_check_of_a_fifo_is_refused_at_once(tmp_path):
    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)
    # a reader that opened the FIFO would wait for a writer forever: the timeout is the test (no wall-clock bound
    # beside it, which a loaded machine could miss)
    res = subprocess.run([sys.executable, str(ROOT / "cli.py"), "check", str(fifo)], capture_output=True, text=True,
                         timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert res.returncode == 2
    assert f"FAIL {fifo}: not a regular file (a pipe or a device): lv reads only regular files" in res.stdout


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_device_is_refused_by_replay_and_by_move_from():
    res = lv_cmd("replay", "/dev/zero")
    assert res.exit_code == 2
    assert one_line_error(res) == "lv: error: /dev/zero: not a regular file (a pipe or a device): lv reads only " \
                                  "regular files"


def test_move_from_a_device_or_a_folder_leaves_the_game(game):
    before = game.read_bytes()
    if os.path.exists("/dev/zero"):
        res = lv_cmd("move", game, "--from", "/dev/zero")
        assert res.exit_code == 2 and "not a regular file" in one_line_error(res)
    res = lv_cmd("move", game, "--from", game.parent)
    assert res.exit_code == 2
    assert one_line_error(res) == f"lv: error: {game.parent}: a folder, not a file"
    assert game.read_bytes() == before


def test_a_file_over_the_size_cap_is_refused_unread(tmp_path, game):
    big = tmp_path / "big.yaml"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 1)  # sparse: no disk used
    res = lv_cmd("replay", big)
    assert res.exit_code == 2
    assert one_line_error(res) == f"lv: error: {big}: too large: lv reads files of at most 8 MiB"
    res = lv_cmd("move", game, "--from", big)
    assert res.exit_code == 2 and "at most 8 MiB" in res.stderr
    res = lv_cmd("move", game, "--from", "-", input=b"end\n" * (MAX_FILE_BYTES // 4 + 1))
    assert res.exit_code == 2
    assert one_line_error(res) == "lv: error: <stdin>: too large: lv reads files of at most 8 MiB"
    assert len(load_record(game).turns) == 1


def test_a_file_at_the_cap_is_read(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"a" * MAX_FILE_BYTES)
    assert len(read_text(path)) == MAX_FILE_BYTES


# ---------------------------------------------------------------------------------------------- 4. lv check goes on


def test_check_gives_every_record_its_line_whatever_breaks(tmp_path, monkeypatch):
    good = tmp_path / "a-good.yaml"
    assert lv_cmd("selfplay", "--players", "2", "--seed", 3, "-o", good).exit_code == 0
    text = good.read_text(encoding="utf-8")
    long = tmp_path / "b-long.yaml"
    long.write_text(text.replace("profile: revised", "profile: " + "x" * 5000), encoding="utf-8")
    crash = tmp_path / "c-crash.yaml"
    crash.write_text(text, encoding="utf-8")
    oserr = tmp_path / "d-oserror.yaml"
    oserr.write_text(text, encoding="utf-8")
    last = tmp_path / "e-last.yaml"
    last.write_text(text, encoding="utf-8")

    import lv.replay as replay_module

    real_replay, real_load = replay_module.replay, replay_module.load_record

    def replay(rec, *a, **k):
        if Path(rec.path).name == "c-crash.yaml":
            raise RecursionError("maximum recursion depth exceeded")
        return real_replay(rec, *a, **k)

    def load_record(path):
        if Path(path).name == "d-oserror.yaml":
            raise OSError(errno.ENAMETOOLONG, "File name too long", "/some/install/folder/" + "y" * 300)
        return real_load(path)

    monkeypatch.setattr(replay_module, "replay", replay)
    monkeypatch.setattr(replay_module, "load_record", load_record)
    res = lv_cmd("check", tmp_path)
    assert res.exit_code == 2
    lines = res.stdout.splitlines()
    assert lines[0].startswith(f"ok {good}: ")
    assert lines[1].startswith(f"FAIL {long}:3: unknown profile 'xxxx")
    assert "(5000 characters)" in lines[1] and "variants" not in lines[1]
    assert lines[2] == (f"FAIL {crash}: internal error: RecursionError: maximum recursion depth exceeded "
                        "(please report it)")
    assert lines[3] == f"FAIL {oserr}: File name too long"
    assert lines[4].startswith(f"ok {last}: ")
    assert lines[5] == "5 records: 2 ok, 3 failed"


def test_check_of_a_name_too_long_for_the_system(tmp_path):
    name = tmp_path / ("z" * 300 + ".yaml")
    res = lv_cmd("check", name)
    assert res.exit_code == 2
    assert res.stdout.splitlines()[0].startswith(f"FAIL {name}: cannot read: File name too long")


# ---------------------------------------------------------------------------------------------- 5. links, permissions


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_move_through_a_symlink_advances_the_target_and_keeps_the_link(game, tmp_path):
    link = tmp_path / "sub" / "mine.yaml"
    link.parent.mkdir()
    link.symlink_to(game)
    assert lv_cmd("move", link, "end").exit_code == 0
    assert link.is_symlink() and os.readlink(link) == str(game)
    assert len(load_record(game).turns) == 2
    assert sorted(p.name for p in link.parent.iterdir()) == ["mine.yaml"]  # the lock is in the target's folder


def test_a_hard_linked_game_keeps_its_identity(game, tmp_path):
    """A rename would split the names: the file is rewritten in place, the backup removed once it is done."""
    other = tmp_path / "other-name.yaml"
    os.link(game, other)
    ino = game.stat().st_ino
    assert lv_cmd("move", game, "end").exit_code == 0
    assert game.stat().st_ino == ino == other.stat().st_ino and game.stat().st_nlink == 2
    assert len(load_record(other).turns) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lv-lock", "game.yaml", "other-name.yaml"]


def test_a_failed_in_place_write_puts_the_old_game_back(game, tmp_path, monkeypatch):
    os.link(game, tmp_path / "other-name.yaml")
    before = game.read_bytes()
    real_ftruncate = os.ftruncate
    calls = []

    def ftruncate(fd, length):
        calls.append(length)
        if len(calls) == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_ftruncate(fd, length)

    monkeypatch.setattr(os, "ftruncate", ftruncate)
    res = lv_cmd("move", game, "end")
    assert res.exit_code == 2
    assert one_line_error(res) == f"lv: error: {game}: No space left on device"
    assert game.read_bytes() == before
    assert not (tmp_path / ".game.yaml.lv-backup").exists()


def test_a_read_only_game_is_not_replaced(game):
    game.chmod(0o444)
    try:
        before = game.read_bytes()
        res = lv_cmd("move", game, "end")
        assert res.exit_code == 2
        assert one_line_error(res) == (f"lv: error: {game}: the file is read-only: not written (make it "
                                       "writable, e.g. chmod u+w, to let lv save it)")
        assert game.read_bytes() == before
        assert stat.S_IMODE(game.stat().st_mode) == 0o444
        assert lv_cmd("new", "--players", "2", "--seed", 1, "-o", game, "--force").exit_code == 2
    finally:
        game.chmod(0o644)


def test_a_save_keeps_the_file_mode(game):
    game.chmod(0o640)
    assert lv_cmd("move", game, "end").exit_code == 0
    assert stat.S_IMODE(game.stat().st_mode) == 0o640


# ---------------------------------------------------------------------------------------------- 6. resource limits


def test_workers_above_the_cpus_are_capped_with_a_warning(monkeypatch):
    seen = []

    def play(*args, **kwargs):  # what the command hands to the games, then stop: no games are played
        seen.append(args[5])
        raise LvError("stopped by the test")

    monkeypatch.setattr(simulate, "cpu_count", lambda: 2)
    monkeypatch.setattr(simulate, "play", play)
    res = lv_cmd("simulate", "-v", "revised", "--workers", 48, "--json")
    assert seen == [2]
    assert "lv: warning: --workers 48: this machine gives lv 2 CPUs; using 2 (--force-workers to start 48)" \
        in res.stderr
    res = lv_cmd("simulate", "-v", "revised", "--workers", 48, "--force-workers", "--json")
    assert "warning" not in res.stderr and seen == [2, 48]
    lv_cmd("simulate", "-v", "revised", "--json")
    lv_cmd("simulate", "-v", "revised", "--workers", 1, "--json")
    assert seen == [2, 48, 2, 1]  # 0 (the default): one per CPU


def test_save_dir_folders_of_different_specs_differ(tmp_path):
    names = simulate.folder_names(["F?", "F_", "revised,raise.cost_per_space=10", "Revised", "revised"])
    assert len({n.lower() for n in names.values()}) == 5
    assert names["revised,raise.cost_per_space=10"] == "revised,raise.cost_per_space=10"
    assert names["F?"].startswith("F_-") and names["revised"].startswith("revised-")
    assert simulate.folder_names(["original+f-block"]) == {"original+f-block": "original+f-block"}
    units = simulate.units(["revised", "revised,f_block.block=F"], 2, 1, 0, ["greedy"], save_dir=str(tmp_path))
    assert len({Path(u.save).parent for u in units}) == 2


@given(st.lists(st.text(min_size=1, max_size=200), min_size=1, max_size=4, unique=True))
def test_save_dir_folders_are_unique_readable_names(specs):
    names = simulate.folder_names(specs)
    for name in names.values():
        assert name and not name.startswith((".", "-")) and len(name) <= 100
        assert all(c.isascii() and (c.isalnum() or c in ".,+=_-") for c in name)
    assert len({n.lower() for n in names.values()}) == len(specs)


# ---------------------------------------------------------------------------------------------- 7. messages


def test_a_full_disk_names_the_file_on_one_line_and_keeps_the_game(game, monkeypatch):
    before = game.read_bytes()

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files, "_write_all", full)
    res = lv_cmd("move", game, "end")
    assert res.exit_code == 2
    assert one_line_error(res) == f"lv: error: {game}: No space left on device"
    assert game.read_bytes() == before
    assert sorted(p.name for p in game.parent.iterdir()) == [".lv-lock", "game.yaml"]  # no temporary left
    res = lv_cmd("new", "--players", "2", "--seed", 1, "-o", game.parent / "new.yaml")
    assert res.exit_code == 2 and one_line_error(res) == f"lv: error: {game.parent / 'new.yaml'}: No space left " \
                                                        "on device"
    assert not (game.parent / "new.yaml").exists()


def test_output_onto_a_folder_is_refused_before_locking(game, tmp_path):
    folder = tmp_path / "out.yaml"
    folder.mkdir()
    res = lv_cmd("selfplay", "--players", "2", "--seed", 1, "-o", folder)
    assert res.exit_code == 2
    assert one_line_error(res) == f"lv: error: {folder}: not a regular file: not written"
    assert list(folder.iterdir()) == []


def test_a_link_into_a_missing_folder_names_that_folder(tmp_path):
    link = tmp_path / "out.html"
    link.symlink_to(tmp_path / "gone" / "out.html")
    with pytest.raises(LvError) as err:
        files.write_atomic(link, "x")
    assert str(err.value) == f"{link}: no such folder: {tmp_path.resolve() / 'gone'} (where the link points)"
    with pytest.raises(LvError) as err:
        files.write_atomic(tmp_path / "no" / "x.html", "x")
    assert str(err.value) == f"{tmp_path / 'no' / 'x.html'}: no such folder: {tmp_path / 'no'}"


def test_an_output_folder_that_is_a_file_or_a_dangling_link_is_named_so(tmp_path):
    (tmp_path / "a-file").write_text("")
    (tmp_path / "a-link").symlink_to(tmp_path / "nothing")
    for name, message in (("a-file", "not a folder"), ("a-link", "not a folder (a link to nothing)")):
        with pytest.raises(LvError) as err:
            files.make_folder(tmp_path / name)
        assert str(err.value) == f"{tmp_path / name}: {message}"
