"""A game folder shared by several accounts (issue 17.6): the lock file and new game files follow the folder's
permissions, so the first writer's ``.lv-lock`` (once 0644) no longer shuts every other account out.

With root, the moves are made by real other accounts (a forked child that drops to another uid); the mode bits
are checked everywhere.
"""

from __future__ import annotations

import grp
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli, files

runner = CliRunner()
GROUP_ONLY_UIDS = (64000, 64001)  # two accounts with no name, members of the folder's group only


def lv_cmd(*args):
    return runner.invoke(cli.app, [str(a) for a in args])


@pytest.fixture
def shared():
    """A fresh folder under the system's temporary folder (reachable by every account), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="lv-shared-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def new_game(folder: Path) -> Path:
    path = folder / "game.yaml"
    res = lv_cmd("new", "--players", "red,blue", "--seed", 3, "-o", path)
    assert res.exit_code == 0, res.stderr
    return path


@pytest.mark.parametrize("folder_mode, file_mode", [(0o2775, 0o664), (0o755, 0o644)])
def test_the_lock_and_a_new_game_follow_the_folder_whatever_the_umask(shared, folder_mode, file_mode):
    """A group-writable folder: group-writable files (the umask 022 would make them 0644); a private folder: the
    umask's permissions, nothing opened up."""
    shared.chmod(folder_mode)
    old = os.umask(0o022)
    try:
        game = new_game(shared)
    finally:
        os.umask(old)
    assert mode(shared / files.LOCK_NAME) == file_mode
    assert mode(game) == file_mode


def test_in_a_sticky_folder_each_account_has_its_own_lock(shared):
    shared.chmod(0o1777)
    new_game(shared)
    assert sorted(p.name for p in shared.iterdir()) == [f"{files.LOCK_NAME}-{os.getuid()}", "game.yaml"]


def as_account(uid: int, gid: int, *args) -> tuple[int, str]:
    """Run ``lv *args`` in a forked child as ``uid`` (member of ``gid`` only): (exit code, error output)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        code = 99
        try:
            os.close(read)
            os.setgroups([gid])
            os.setgid(gid)
            os.setuid(uid)
            res = lv_cmd(*args)
            os.write(write, res.stderr.encode()[:4000])
            code = res.exit_code
        except BaseException as exc:  # noqa: BLE001 - reported to the parent
            os.write(write, repr(exc).encode()[:4000])
        finally:
            os._exit(code)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        err = pipe.read().decode()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), err


def shared_group(folder: Path) -> int:
    """Give ``folder`` to a group and load what the commands need while the interpreter's files can be read (a
    child that has become another account cannot read them)."""
    gid = grp.getgrnam("nogroup").gr_gid if "nogroup" in {g.gr_name for g in grp.getgrall()} else 65534
    os.chown(folder, 0, gid)
    warm = folder / "warm"
    warm.mkdir()
    lv_cmd("move", new_game(warm), "end")
    shutil.rmtree(warm)
    return gid


def readable_by_others(path: Path) -> bool:
    """Whether an account that is neither the owner nor in the group can read ``path`` (every folder above it
    searchable): the other accounts' ``lv`` reads the installed package's data files (the board, the profiles)."""
    path = path.resolve()
    if not stat.S_IMODE(path.stat().st_mode) & stat.S_IROTH:
        return False
    return all(stat.S_IMODE(p.stat().st_mode) & stat.S_IXOTH for p in path.parents)


root_only = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                               reason="needs root to act as other accounts")
lv_readable = pytest.mark.skipif(not readable_by_others(Path(files.__file__)),
                                 reason="lv is installed where other accounts cannot read it (a private folder)")


@pytest.mark.slow
@root_only
@lv_readable
def test_accounts_keep_their_own_games_in_a_sticky_folder(shared):
    gid = shared_group(shared)
    shared.chmod(0o1777)
    for uid in GROUP_ONLY_UIDS:
        game = shared / f"game-{uid}.yaml"
        code, err = as_account(uid, gid, "new", "--players", "red,blue", "--seed", "3", "-o", game)
        assert code == 0, err
        code, err = as_account(uid, gid, "move", game, "end")
        assert code == 0, err
    code, err = as_account(GROUP_ONLY_UIDS[1], gid, "move", shared / f"game-{GROUP_ONLY_UIDS[0]}.yaml", "end")
    assert code == 2 and "read-only" in err  # the kernel's rule in a sticky folder: only the owner replaces


@pytest.mark.slow
@root_only
@lv_readable
def test_every_member_of_the_group_can_move_in_a_group_folder(shared):
    gid = shared_group(shared)
    shared.chmod(0o2775)
    first, second = GROUP_ONLY_UIDS
    code, err = as_account(first, gid, "new", "--players", "red,blue", "--seed", "3", "-o", shared / "game.yaml")
    assert code == 0, err
    assert (shared / files.LOCK_NAME).stat().st_uid == first
    for uid in (second, first, second):
        code, err = as_account(uid, gid, "move", shared / "game.yaml", "end")
        assert code == 0, err
        assert (shared / "game.yaml").stat().st_uid == uid
    code, err = as_account(second, gid, "move", shared / "game.yaml", "end")
    assert code == 0, err
