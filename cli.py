"""Run the ``lv`` command line from a checkout: ``python cli.py replay examples/revised-4p.yaml``.

The command line lives in the package (``lv/cli.py``, installed as the ``lv`` command and ``python -m lv``);
this file only imports it, so the wheel installs no top-level module named ``cli``.
"""

from lv.cli import app, main

__all__ = ["app", "main"]

if __name__ == "__main__":
    main()
