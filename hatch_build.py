"""The wheel's build hook: ``LV_COMPILE=1 pip install .`` compiles the core with mypyc; without it the wheel is
pure Python and this hook does nothing (no compiler, no mypy: the first install stays quick).

It hands the work to hatch-mypyc's hook (the one black builds with), configured under
``[tool.hatch.build.targets.wheel.hooks.custom]`` in pyproject.toml (``include``: the modules compiled), and
asks for hatch-mypyc and mypy only when compiling. hatch-mypyc writes the compiled modules next to the sources;
they are copied into the wheel and then removed, so a checkout never holds ``.so`` files that would shadow its
``.py`` files (an editable install, tests run from the tree). An editable install is never compiled.
"""

from __future__ import annotations

import os
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

# what compiling needs in the build environment: hatch-mypyc and the mypy (with mypyc) lv's types are checked with
COMPILER = ["hatch-mypyc>=0.16.0", "mypy==2.4.1"]


def compiling() -> bool:
    return os.environ.get("LV_COMPILE", "") == "1"


class LvBuildHook(BuildHookInterface):
    PLUGIN_NAME = "lv"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._mypyc: Any = None

    def dependencies(self) -> list[str]:
        return list(COMPILER) if compiling() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not compiling() or self.target_name != "wheel" or version == "editable":
            return
        from hatch_mypyc.plugin import MypycBuildHook

        self._mypyc = MypycBuildHook(self.root, self.config, self.build_config, self.metadata, self.directory,
                                     self.target_name, self.app)
        self._mypyc.initialize(version, build_data)

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if self._mypyc is not None:  # the compiled modules are in the wheel now: none left in the checkout
            self._mypyc.clean([version])
