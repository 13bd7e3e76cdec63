"""The engine cannot branch on an edition's name: no code or (non-docstring) string literal in lv/ says
"original" or "revised". Comments and docstrings may cite the editions (and do, as rulebook references).

DESIGN.md "No branch on an edition's name": every difference is a named profile parameter.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

import pytest

import lv

PACKAGE = Path(lv.__file__).resolve().parent
# lv/cli.py is the command line, not the engine: it names profiles as a user types them (the default
# ``--variant revised``, the examples in --help); it lived outside the package before it moved into it.
MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p != PACKAGE / "cli.py")
NAMES = ("original", "revised")


def docstring_starts(source: str) -> set[tuple[int, int]]:
    """(line, column) where each module, class and function docstring begins."""
    out = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.add((body[0].lineno, body[0].col_offset))
    return out


def edition_words(source: str) -> list[tuple[int, str]]:
    """(line, token) of every code token or non-docstring string that names an edition."""
    docs = docstring_starts(source)
    hits = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            continue
        if tok.type == tokenize.STRING and tok.start in docs:
            continue
        if any(name in tok.string.lower() for name in NAMES):
            hits.append((tok.start[0], tok.string))
    return hits


def test_the_package_has_modules():
    assert len(MODULES) >= 10 and PACKAGE.name == "lv"


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_edition_name_in_engine_code(module):
    hits = edition_words(module.read_text(encoding="utf-8"))
    assert hits == [], f"{module.name}: edition names in code: {hits}"


def test_the_scanner_sees_code_and_strings_but_not_comments_or_docstrings():
    source = ('"""About the original rules."""\n'
              'def f(p):\n'
              '    """The revised rules."""\n'
              '    # original edition: 000 L190\n'
              '    if p.name == "revised":\n'
              '        original = 1\n'
              '    return f"{p} Original"\n')
    assert edition_words(source) == [(5, '"revised"'), (6, "original"), (7, 'f"{p} Original"')]
