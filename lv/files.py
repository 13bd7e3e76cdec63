"""Writing game files so that nothing is lost: locked, fingerprinted, atomic and durable.

Every file ``lv`` writes (``lv new``, ``lv move``, ``selfplay -o``, ``simulate --save-dir``, ``--plot`` and
``--games-out``, ``render -o``, ``view -o``, ``Session.save``, ``save_record``) goes through ``write_atomic`` (or
``Streamed``, its form for a file written piece by piece); ``tests/test_safe_writer.py`` checks that no other
code in lv opens a file for writing:

- **Locked.** A writer holds the lock of the file's folder, an empty file ``.lv-lock`` beside it (``filelock``:
  ``fcntl.flock`` on POSIX, ``msvcrt.locking`` on Windows) while it checks the fingerprint and replaces the file.
  The lock file stays after use (removing it
  while another process waits would break the lock); it is harmless and may be deleted when no ``lv`` runs.
- **Fingerprinted.** A caller that read the file passes the SHA-256 of the bytes it read (``digest``); under the
  lock the file is read again and must still have them, or ``FileChangedError``: nothing is written. So of two
  ``lv move`` made at once on one file, one is saved and the other is refused ("the game changed since you read
  it"): a decision is never applied to a game its player has not seen, and never lost without a word.
- **Atomic and durable.** The text goes to ``.NAME.lv-tmp-PID`` in the same folder, is fsynced, renamed over the
  file with ``os.replace`` and the folder is fsynced: after a crash the file is the old one or the new one.
  Temporaries left by a killed writer are removed by the next write of that file, under the lock.
- **Links.** A symbolic link is followed: the target is written, the link stays a link. A file with several hard
  links is rewritten in place (a rename would split it from its other names), after copying the old bytes to
  ``.NAME.lv-backup``, which is removed once the new bytes are on disk.
- **Output folders.** A file lv names itself in a folder it fills (``--plot DIR``, ``--save-dir DIR``) is written
  with ``follow=False``: a symbolic link planted at its name is replaced, never followed. A folder is made only
  where its parent exists (``make_folder``); a file's folder must exist: a mistyped path is one line, never a tree
  of new folders.
- **Read-only.** A file whose owner-write bit is off (``chmod 444``) is never replaced: ``lv`` refuses.
- **Shared folders.** Permissions follow the folder: in a group-writable folder (``chmod 2775``, the setgid bit
  keeping the files in the folder's group) the lock file and new files are group-writable too (whatever the
  umask), so every member of the group can move; in a world-writable folder the lock file is world-writable. In a
  sticky folder (``chmod +t``, such as /tmp) the kernel lets only a file's owner replace it, so accounts never
  write each other's files there: each account locks with its own ``.lv-lock-UID`` (filelock refuses a lock file
  another account owns there, as that account could swap it during a hold).

Any ``OSError`` while writing (a full disk, a read-only file system) becomes one line naming the file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from .errors import LvError
from .yamlsource import read_bytes

LOCK_NAME = ".lv-lock"
LOCK_TIMEOUT = 30.0  # seconds a writer waits for another one (a move takes well under a second)
TMP_MARK = ".lv-tmp-"
BACKUP_MARK = ".lv-backup"
STREAM_MARK = ".lv-stream-"  # a file written piece by piece (``Streamed``)
NEW = "new"  # ``expect=NEW``: the file must not exist yet
_BINARY = getattr(os, "O_BINARY", 0)  # Windows
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # POSIX: never write through a link planted at a temporary's name

if TYPE_CHECKING:
    from filelock import FileLock

_locks: dict[str, FileLock] = {}


YAML_SUFFIXES = (".yaml", ".yml")
RECORD_SUFFIXES = (".yaml", ".yml", ".json")  # what lv check reads in a folder, and lv new -o may write


def suffix(path: str | Path) -> str:
    """A file name's suffix in lower case: ``G.YAML`` is a YAML file as ``g.yaml`` is (the one place a suffix is
    read, so that every command agrees)."""
    return Path(str(path)).suffix.lower()


def is_yaml(path: str | Path) -> bool:
    """Does the name end in .yaml or .yml, in any case?"""
    return suffix(path) in YAML_SUFFIXES


def is_json(path: str | Path) -> bool:
    """Does the name end in .json, in any case? (A record lv writes there is JSON, else YAML.)"""
    return suffix(path) == ".json"


def is_record_name(path: str | Path) -> bool:
    """Does the name end as a record's does (.yaml, .yml or .json, in any case)?"""
    return suffix(path) in RECORD_SUFFIXES


class FileChangedError(LvError):
    """The file on disk is not the one the caller read: another writer got there first."""


def digest(data: bytes) -> str:
    """The fingerprint of a file's bytes."""
    import hashlib  # here: loading OpenSSL is a few milliseconds that commands reading records never need

    return hashlib.sha256(data).hexdigest()


def target(path: str | Path) -> Path:
    """The file a write to ``path`` really changes: a symbolic link is followed to its target."""
    return Path(os.path.realpath(path))


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold the lock of the folder of ``path``'s target (re-entrant within a process)."""
    from filelock import FileLock, Timeout  # imported by the first write: reading commands never need it

    folder = target(path).parent
    name, mode = _lock_file(folder)
    key = str(folder / name)
    lock = _locks.get(key)
    if lock is None:
        _make_lock_file(path, key, mode)
        lock = _locks[key] = FileLock(key, timeout=LOCK_TIMEOUT, mode=mode)  # mode: the umask does not apply
    try:
        lock.acquire()
    except Timeout:
        if not os.path.exists(key):  # nobody holds it: the folder takes no new file (filelock retried to the end)
            raise LvError(f"{path}: cannot create a file in {folder}") from None
        raise LvError(f"{path}: another lv command has been writing in this folder for {LOCK_TIMEOUT:g} s "
                      f"(lock {key}); try again") from None
    except FileNotFoundError:
        raise LvError(f"{path}: no such folder: {folder}") from None
    except OSError as exc:
        raise LvError(f"{path}: cannot lock the folder ({key}): {exc.strerror or exc}") from None
    try:
        yield
    finally:
        lock.release()


def _make_lock_file(path: str | Path, key: str, mode: int) -> None:
    """Create the lock file ``key`` if there is none, so that a folder where none can be made fails at once with
    the real reason: filelock takes a failed creation for a lock another process holds and waits out its timeout
    (issue 28.5: ``-o /proc/self/v.html`` waited 30 s, then blamed "another lv command")."""
    if os.path.lexists(key):
        return
    try:
        fd = os.open(key, os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    except FileExistsError:  # another process made it first: the lock decides
        return
    except OSError as exc:
        if isinstance(exc, FileNotFoundError) and not os.path.isdir(os.path.dirname(key)):
            raise LvError(f"{path}: no such folder: {os.path.dirname(key)}") from None
        raise LvError(f"{path}: cannot make the lock file {key}: {exc.strerror or exc}") from None
    try:
        os.fchmod(fd, mode)  # as filelock makes it: the umask does not apply
    finally:
        os.close(fd)


def _lock_file(folder: Path) -> tuple[str, int]:
    """The name and permissions of the lock file of ``folder``: writable by whoever may write in the folder (the
    group, everyone), so that no account's lock file shuts the others out; its own per account in a sticky
    folder (see the module's docstring)."""
    try:
        folder_mode = os.stat(folder).st_mode
    except OSError:  # a missing folder: reported by the lock itself
        return LOCK_NAME, 0o644
    if folder_mode & stat.S_ISVTX and hasattr(os, "getuid"):
        return f"{LOCK_NAME}-{os.getuid()}", 0o644
    return LOCK_NAME, 0o644 | (folder_mode & (stat.S_IWGRP | stat.S_IWOTH))


def write_atomic(path: str | Path, text: str | bytes, expect: str | None = None, *, follow: bool = True) -> str:
    """Write ``text`` (as UTF-8; bytes, such as a PNG, as they are) to ``path`` under the folder lock; return the
    new bytes' digest.

    ``expect``: None writes whatever is there; ``NEW`` requires that no file exists; a digest requires that the
    file still holds the bytes with that digest (``FileChangedError`` otherwise). ``follow``: a symbolic link at
    ``path`` is followed (a file the user named); False for a file lv names in an output folder (``--plot DIR``,
    ``--save-dir``), where a link is replaced by the file, its target never opened: nobody can plant one there
    to make lv overwrite another file."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    real = _destination(path, follow)
    with locked(path):
        st = _checked(path, real, expect, follow)
        try:
            _remove_stale(real)
            if st is not None and st.st_nlink > 1:
                _write_in_place(real, data)
            else:
                _replace(real, data, stat.S_IMODE(st.st_mode) if st is not None else None)
        except OSError as exc:
            raise LvError(f"{path}: {exc.strerror or exc}") from None
    return digest(data)


class Streamed:
    """A file written piece by piece (``--games-out``: the rows as the games come in) to a temporary beside it,
    then put in place by ``commit`` with ``write_atomic``'s rules: under the lock, checked, fsynced, renamed
    (a link the user named is followed, a hard-linked file rewritten in place). ``abort`` drops it."""

    def __init__(self, path: str | Path, expect: str | None = None, follow: bool = True) -> None:
        import tempfile

        self.path, self.expect, self.follow = path, expect, follow
        self.real = _destination(path, follow)
        _checked(path, self.real, expect, follow)  # a read-only file refused now, not after the run (again at commit)
        try:
            fd, name = tempfile.mkstemp(prefix=f".{self.real.name}{STREAM_MARK}", dir=self.real.parent)
        except OSError as exc:
            raise LvError(f"{path}: {exc.strerror or exc}") from None
        self.tmp = Path(name)
        self.file = os.fdopen(fd, "w+b")

    def commit(self) -> None:
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            with locked(self.path):
                st = _checked(self.path, self.real, self.expect, self.follow)
                if st is not None and st.st_nlink > 1:
                    _write_in_place(self.real, read_bytes(self.tmp))
                    self.tmp.unlink()
                else:
                    os.chmod(self.tmp, stat.S_IMODE(st.st_mode) if st is not None else _new_mode(self.real.parent))
                    os.replace(self.tmp, self.real)
                    _sync_folder(self.real.parent)
        except OSError as exc:
            self.abort()
            raise LvError(f"{self.path}: {exc.strerror or exc}") from None
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        self.file.close()
        self.tmp.unlink(missing_ok=True)


def append(path: str | Path, data: bytes) -> None:
    """Add ``data`` (whole lines) at the end of ``path``, made if missing, under the folder's lock, synced: a file
    that only grows, as a journal (``lv ladder --journal``), where a rewrite would cost the whole file each time."""
    try:
        with locked(path), open(path, "ab") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        raise LvError(f"{path}: {exc.strerror or exc}") from None


def truncate(path: str | Path, size: int) -> None:
    """Cut ``path`` to its first ``size`` bytes, under the folder's lock (a journal's last line cut short by a kill)."""
    try:
        with locked(path):
            os.truncate(path, size)
    except OSError as exc:
        raise LvError(f"{path}: {exc.strerror or exc}") from None


def make_folder(path: str | Path, named_by_user: bool = True) -> Path:
    """The output folder ``path``, made if missing (its parent must exist: a mistyped path is an error, not a
    tree of new folders). A folder lv names itself inside one (``--save-dir DIR/PROFILE``) must not be a link."""
    folder = Path(path)
    if not named_by_user and folder.is_symlink():
        raise LvError(f"{path}: a symbolic link: lv writes only into folders it makes itself there")
    if folder.is_dir():
        return folder
    if folder.is_symlink() or folder.exists():  # mkdir would say only "File exists"
        raise LvError(f"{path}: not a folder" + ("" if folder.exists() else " (a link to nothing)"))
    if not folder.parent.is_dir():
        raise LvError(f"{path}: no such folder: {folder.parent}")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise LvError(f"{path}: {exc.strerror or exc}") from None
    return folder


def check_destination(path: str | Path) -> None:
    """Refuse now, before a long run, a file the user named that ``write_atomic`` would refuse at its end: its
    folder missing, or a folder or device where it goes."""
    _destination(path, True)


def _destination(path: str | Path, follow: bool) -> Path:
    """The file a write to ``path`` changes, checked before any lock is taken: its folder must exist (lv never
    makes folders for a file), and it must be a regular file if it exists (not a folder, a device, nor, unless
    ``follow``, a link)."""
    try:
        real = target(path) if follow else Path(os.path.realpath(Path(path).parent)) / Path(path).name
        if not real.parent.is_dir():  # of a link, the folder it points into: its own is there
            linked = real.parent != Path(os.path.realpath(Path(path).parent))
            raise LvError(f"{path}: no such folder: {real.parent if linked else Path(path).parent}"
                          + (" (where the link points)" if linked else ""))
        if not follow and real.is_symlink():  # replaced as a name, its target never opened
            return real
        if real.exists() and not real.is_file():  # a folder, a device: refused before any lock is taken
            raise LvError(f"{path}: not a regular file: not written")
    except OSError as exc:  # a name too long, ...
        raise LvError(f"{path}: {exc.strerror or exc}") from None
    return real


def _checked(path: str | Path, real: Path, expect: str | None, follow: bool) -> os.stat_result | None:
    """Under the lock: the file's status (None: no file), once it may be replaced."""
    try:
        st = os.stat(real) if follow else os.lstat(real)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise LvError(f"{path}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(st.st_mode):  # a link planted in a folder lv fills (``follow=False``): the link is replaced
        if expect is not None:
            raise FileChangedError(f"{path}: the file exists: not written")
        return None
    _check_expected(path, real, st, expect)
    if not st.st_mode & stat.S_IWUSR or not os.access(real, os.W_OK):
        raise LvError(f"{path}: the file is read-only: not written (make it writable, e.g. chmod u+w, "
                      "to let lv save it)")
    if not stat.S_ISREG(st.st_mode):
        raise LvError(f"{path}: not a regular file: not written")
    return st


def _check_expected(path: str | Path, real: Path, st: os.stat_result | None, expect: str | None) -> None:
    if expect is None:
        return
    if expect == NEW:
        if st is not None:
            raise FileChangedError(f"{path}: the file exists: not written")
        return
    now = digest(read_bytes(real)) if st is not None else None
    if now != expect:
        raise FileChangedError(f"{path}: the game changed since you read it: run `lv show` and try again")


def _remove_stale(real: Path) -> None:
    """Temporaries of this file left by a killed writer (under the lock no other writer has one), including the
    ``.NAME.XXXXXXXX.tmp`` ones of lv versions before the lock."""
    older = re.compile(re.escape(f".{real.name}.") + r"[a-z0-9_]{8}\.tmp")
    try:
        stale = [p for p in real.parent.iterdir()
                 if p.name.startswith(f".{real.name}{TMP_MARK}") or older.fullmatch(p.name)]
    except OSError:
        return
    for p in stale:
        with contextlib.suppress(FileNotFoundError):
            p.unlink()


def _replace(real: Path, data: bytes, mode: int | None) -> None:
    tmp = real.parent / f".{real.name}{TMP_MARK}{os.getpid()}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _BINARY | _NOFOLLOW, 0o666)  # the umask applies, as for any new file
    try:
        try:
            _chmod(fd, tmp, _new_mode(real.parent) if mode is None else mode)  # or keep the old file's
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, real)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(real.parent)


def _new_mode(folder: Path) -> int:
    """The permissions of a new file: the umask's, and writable by the group in a group-writable folder (not a
    sticky one) where the umask lets the group read, so that any member can move next."""
    umask = os.umask(0o022)  # read by setting it (the only way); put back at once
    os.umask(umask)
    mode = 0o666 & ~umask
    if os.name == "nt":
        return mode
    folder_mode = os.stat(folder).st_mode
    if folder_mode & stat.S_IWGRP and not folder_mode & stat.S_ISVTX and mode & stat.S_IRGRP:
        mode |= stat.S_IWGRP
    return mode


def _write_in_place(real: Path, data: bytes) -> None:
    """Rewrite a hard-linked file keeping its inode: the old bytes go to ``.NAME.lv-backup`` first; if writing
    fails they are put back, and the backup stays only if even that fails."""
    old = read_bytes(real)
    backup = real.parent / f".{real.name}{BACKUP_MARK}"
    fd = os.open(backup, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _BINARY | _NOFOLLOW, 0o600)
    try:
        _write_all(fd, old)
        os.fsync(fd)
    finally:
        os.close(fd)
    fd = os.open(real, os.O_WRONLY | _BINARY)
    try:
        try:
            _write_all(fd, data)
            os.ftruncate(fd, len(data))
            os.fsync(fd)
        except OSError as exc:
            try:
                os.lseek(fd, 0, os.SEEK_SET)
                _write_all(fd, old)
                os.ftruncate(fd, len(old))
                os.fsync(fd)
            except OSError:
                raise OSError(exc.errno, f"{exc.strerror}; the game before this save is in {backup}") from None
            backup.unlink()
            raise
    finally:
        os.close(fd)
    backup.unlink()
    _sync_folder(real.parent)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _chmod(fd: int, path: Path, mode: int) -> None:
    if hasattr(os, "fchmod"):
        os.fchmod(fd, mode)
    else:  # Windows
        os.chmod(path, mode)


def _sync_folder(folder: Path) -> None:
    """fsync the folder so the rename itself survives a crash (POSIX; Windows cannot open a folder)."""
    if os.name == "nt":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in (errno.EINVAL, errno.ENOTSUP):  # some file systems cannot sync a folder
            raise
    finally:
        os.close(fd)
