"""Ships the built Deckhand extension inside the wheel.

A wheel gets the checkout's `.output/chrome-mv3` (the MV3 extension WXT builds) as
`deckhand/_extension`. When it is not built yet and the checkout has Node.js, it is built
first (`npm ci` if the npm packages are missing, then `npx wxt build`). An editable install
(`pip install -e python`) ships nothing: the package then finds the extension in the checkout,
so a rebuilt extension is picked up without reinstalling.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        repo = Path(self.root).resolve().parent
        ext = Path(os.environ.get("DECKHAND_EXTENSION_DIR") or repo / ".output" / "chrome-mv3")
        if not (ext / "manifest.json").exists():
            self._build_extension(repo, ext)
        build_data["force_include"][str(ext)] = "deckhand/_extension"

    def _build_extension(self, repo: Path, ext: Path) -> None:
        npm = shutil.which("npm")
        npx = shutil.which("npx")
        if not (repo / "package.json").exists() or not npm or not npx:
            raise RuntimeError(
                f"the Deckhand extension is not built (no {ext}/manifest.json) and cannot be built here: "
                "run `npm run setup` (or `npm ci && npm run build:ext`) in the repository first"
            )
        if not (repo / "node_modules" / ".bin" / "wxt").exists():
            subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=repo, check=True)
        subprocess.run([npx, "wxt", "build"], cwd=repo, check=True)
        if not (ext / "manifest.json").exists():
            raise RuntimeError(f"`npx wxt build` did not produce {ext}/manifest.json")
