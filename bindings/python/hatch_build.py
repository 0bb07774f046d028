"""The wheel carries a native library: it is not pure Python. scripts/wheel.sh then lets auditwheel give it the
manylinux tag of the glibc it really needs."""
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        build_data["pure_python"] = False
        build_data["tag"] = "py3-none-linux_x86_64"
