"""Run the ``lv`` command line from a checkout: ``python cli.py replay examples/revised-4p.yaml``.

The command line lives in the package (``lv/cli.py``, installed as the ``lv`` command and ``python -m lv``);
this file only imports it, so the wheel installs no top-level module named ``cli``. Without lv's dependencies
installed, it says in one line what to install (issue 28.7), not a traceback.
"""

import sys

try:
    from lv.cli import app, main
except ModuleNotFoundError as err:  # a dependency (typer, attrs, yaml, ...) is missing, not lv itself
    if __name__ != "__main__" or (err.name or "").split(".")[0] == "lv":
        raise
    print(f"lv: error: {err.name} is not installed: run `pip install .` at the top of the checkout "
          "(the README's first line)", file=sys.stderr)
    sys.exit(2)

__all__ = ["app", "main"]

if __name__ == "__main__":
    main()
