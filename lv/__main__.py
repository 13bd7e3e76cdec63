"""``python -m lv``: the same command line as ``lv``."""

from lv.cli import main

main()
