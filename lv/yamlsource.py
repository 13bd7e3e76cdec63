"""YAML loading that remembers where each key was written, so errors can name the file and line."""

from __future__ import annotations

import os
import stat
import functools
from pathlib import Path
from typing import Any, Callable, NoReturn

import yaml

from .errors import LvError

Path_ = tuple  # a key path such as ("gamble", "lay_off") or ("turns", 3, "decisions", 0)


# libyaml's parser when PyYAML has it: the same events and marks, several times faster on a game record
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

# Limits on what a file may make the loader build (docs/design.md, "Limits on input"). A record nests about 6
# levels deep and uses no aliases; a profile may share a few values through anchors and merge keys (``<<: *base``).
MAX_DEPTH = 64  # mappings and lists inside one another, counting the levels an alias brings in
MAX_ALIAS_NODES = 10_000  # nodes reached through aliases, each time an alias is used ("billion laughs")
MAX_DIGITS = 100  # digits of a whole number (Python refuses to print more than 4,300)

_MAP, _SEQ, _MERGE = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:merge"


def _compose(text: str, fail: Callable[[Any, str], NoReturn]) -> yaml.Node | None:
    """The node tree of one YAML document, built from the parser's events without recursion, refusing
    (``fail(mark, message)``) nesting deeper than MAX_DEPTH and aliases that reach more than MAX_ALIAS_NODES
    nodes before anything big is built."""
    resolve = functools.lru_cache(maxsize=None)(yaml.SafeLoader("").resolve)  # implicit tags: int, bool, null
    anchors: dict[str, tuple[yaml.Node, int, int] | None] = {}  # anchor -> (node, size, height); None while open
    # each open mapping or list: [node, children, size (nodes in it), height (levels in it), anchor]
    stack: list[list] = [[None, [], 0, 0, None]]  # the bottom frame holds the document's root
    aliased = documents = 0
    parser = _Loader(text)
    try:
        while (ev := parser.get_event()) is not None:
            kind = type(ev)
            if kind is yaml.ScalarEvent:
                tag = ev.tag
                if tag is None or tag == "!":
                    tag = resolve(yaml.ScalarNode, ev.value, ev.implicit)
                node = yaml.ScalarNode(tag, ev.value, ev.start_mark, ev.end_mark, style=ev.style)
                if ev.anchor is not None:
                    anchors[ev.anchor] = (node, 1, 0)
                size, height = 1, 0
            elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
                if len(stack) > MAX_DEPTH:
                    fail(ev.start_mark, f"nesting deeper than {MAX_DEPTH} levels")
                node_kind = yaml.MappingNode if kind is yaml.MappingStartEvent else yaml.SequenceNode
                tag = ev.tag
                if tag is None or tag == "!":
                    tag = resolve(node_kind, None, ev.implicit)
                if ev.anchor is not None:
                    anchors[ev.anchor] = None
                stack.append([node_kind(tag, [], ev.start_mark, None, flow_style=ev.flow_style), [], 1, 1,
                              ev.anchor])
                continue
            elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
                node, children, size, height, anchor = stack.pop()
                node.end_mark = ev.end_mark
                node.value = children if kind is yaml.SequenceEndEvent else list(zip(children[::2], children[1::2]))
                if anchor is not None:
                    anchors[anchor] = (node, size, height)
            elif kind is yaml.AliasEvent:
                if ev.anchor not in anchors:
                    fail(ev.start_mark, f"alias *{one_line(ev.anchor)} names no anchor defined before it")
                target = anchors[ev.anchor]
                if target is None:
                    fail(ev.start_mark, f"alias *{one_line(ev.anchor)} is inside its own anchor (a loop)")
                node, size, height = target
                aliased += size
                if aliased > MAX_ALIAS_NODES:
                    fail(ev.start_mark, f"aliases expand to more than {MAX_ALIAS_NODES:,} nodes")
                if len(stack) - 1 + height > MAX_DEPTH:
                    fail(ev.start_mark, f"nesting deeper than {MAX_DEPTH} levels (through alias "
                                        f"*{one_line(ev.anchor)})")
            else:
                if kind is yaml.DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        fail(ev.start_mark, "expected one YAML document, found another")
                continue
            frame = stack[-1]
            frame[1].append(node)
            frame[2] += size
            if height >= frame[3]:
                frame[3] = height + 1
    finally:
        parser.dispose()
    children = stack[0][1]
    return children[0] if children else None


def load_located(text: str, filename: str, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    """Parse YAML (or JSON, a subset) and return (data, {key path: 1-based line}).

    Safe: only plain data (no ``!!python/...`` tags), bounded (MAX_DEPTH, MAX_ALIAS_NODES, MAX_DIGITS), and
    every problem is ``error`` with one line naming the file and line. Merge keys (``<<: *base``) are applied."""

    def fail(mark: yaml.Mark | None, message: str) -> NoReturn:
        raise error(message, path=filename, line=mark.line + 1 if mark is not None else None)

    try:
        node = _compose(text, fail)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        fail(mark, f"malformed YAML: {one_line(problem)}")
    lines: dict[Path_, int] = {}
    if node is None:
        return None, lines
    constructor = yaml.SafeLoader("")  # only used for its scalar constructors and merge keys
    known_scalars: dict[tuple[str, str], Any] = {}  # (tag, text) -> value of the immutable scalars seen so far

    def scalar(n: yaml.Node) -> Any:
        if not isinstance(n, yaml.ScalarNode):
            fail(n.start_mark, "a key must be a plain value")
        known = known_scalars.get((n.tag, n.value), known_scalars)
        if known is not known_scalars:
            return known
        if n.tag not in constructor.yaml_constructors:  # SafeLoader's tags only: never !!python/...
            fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed (plain data only)")
        try:
            value = constructor.construct_object(n, deep=True)
        except ValueError as exc:  # int() of more than 4,300 digits, a date such as 2024-13-40
            fail(n.start_mark, f"number too large (more than {MAX_DIGITS} digits)" if "digits" in str(exc)
                 else f"bad value {one_line(repr(n.value))}: {one_line(str(exc))}")
        except yaml.YAMLError as exc:
            fail(n.start_mark, f"malformed YAML: {one_line(getattr(exc, 'problem', None) or str(exc))}")
        except Exception:  # a tag on text it cannot read: "!!bool maybe", "!!timestamp ", "!!float " ...
            fail(n.start_mark, f"bad value {one_line(repr(n.value))} for YAML tag '{_tag(n.tag)}'")
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
            fail(n.start_mark, f"number too large (more than {MAX_DIGITS} digits)")
        if value is None or isinstance(value, (str, int, float)):
            known_scalars[n.tag, n.value] = value
        return value

    def walk(n: yaml.Node, path: Path_) -> Any:
        lines[path] = n.start_mark.line + 1
        if isinstance(n, yaml.MappingNode):
            if n.tag != _MAP:
                fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed on a mapping (plain data only)")
            own = len([k for k, _ in n.value if k.tag != _MERGE])
            if own != len(n.value):
                try:
                    constructor.flatten_mapping(n)  # the merged pairs first, then the mapping's own
                except yaml.YAMLError as exc:
                    fail(getattr(exc, "problem_mark", None) or n.start_mark,
                         f"malformed merge key: {one_line(getattr(exc, 'problem', None) or str(exc))}")
            merged = len(n.value) - own
            out: dict = {}
            own_keys: set = set()
            for i, (key_node, value_node) in enumerate(n.value):
                key = scalar(key_node)
                if i >= merged:
                    if key in own_keys:
                        fail(key_node.start_mark, f"duplicate key {one_line(repr(key))}")
                    own_keys.add(key)
                out.pop(key, None)  # a later pair wins: the mapping's own keys over merged ones
                out[key] = walk(value_node, path + (key,))
                lines[path + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(n, yaml.SequenceNode):
            if n.tag != _SEQ:
                fail(n.start_mark, f"YAML tag '{_tag(n.tag)}' is not allowed on a list (plain data only)")
            return [walk(item, path + (i,)) for i, item in enumerate(n.value)]
        return scalar(n)

    return walk(node, ()), lines


def _tag(tag: str) -> str:
    return one_line(tag.replace("tag:yaml.org,2002:", "!!"))


def plain(key: Any) -> str:
    """A key or word from a file, shown in a message: escaped like repr (no line break, no ESC), no quotes."""
    text = repr(key)
    return one_line(text[1:-1] if isinstance(key, str) else text)


def one_line(text: str) -> str:
    """Text from a file, for a one-line message: no line breaks or control characters (escaped), not too long."""
    text = " ".join(str(text).split())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= 80 else text[:77] + "..."


MAX_FILE_BYTES = 8 * 1024 * 1024  # a game record or a profile is kilobytes; anything bigger is refused unread


def read_bytes(path: str | Path, error: type[LvError] = LvError) -> bytes:
    """A regular file's bytes, at most MAX_FILE_BYTES, or ``error`` naming the file.

    The file is opened without blocking and checked with ``fstat`` before any read, so a FIFO, a device such
    as /dev/zero or a folder is refused at once instead of hanging or filling the memory."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: a folder, not a file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{path}: a folder, not a file")
        if not stat.S_ISREG(mode):
            raise error(f"{path}: not a regular file (a pipe or a device): lv reads only regular files")
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:
        raise error(f"{path}: too large: lv reads files of at most {MAX_FILE_BYTES >> 20} MiB")
    return b"".join(chunks)


def decode(data: bytes, name: str, error: type[LvError] = LvError) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{name}: cannot read: {exc}") from None


def read_text(path: str | Path, error: type[LvError] = LvError) -> str:
    """A regular file's text (UTF-8, at most MAX_FILE_BYTES), or ``error`` naming the file."""
    return decode(read_bytes(path, error), str(path), error)


def read_located(path: str | Path, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    return load_located(read_text(path, error), str(path), error)


def line_of(lines: dict[Path_, int], path: Path_) -> int | None:
    """The line of ``path`` or of its nearest ancestor that has one."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return lines.get(())
