"""Ships the built Deckhand extension inside the package.

The extension is the MV3 extension WXT builds into the checkout's `.output/chrome-mv3`
(DECKHAND_EXTENSION_DIR names another folder). When it is not built yet and the checkout has
Node.js, it is built first (`npm ci` if the npm packages are missing, then `npx wxt build`).

- sdist: carries it as `src/deckhand/_extension`, so the sdist builds a complete wheel anywhere.
- wheel: carries it as `deckhand/_extension` (from the checkout, or from the sdist it is built
  from), where the installed package finds it.
- editable install (`pip install -e python`): ships nothing; the package then finds the
  extension in the checkout, so a rebuilt extension is picked up without reinstalling.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

IN_SDIST = "src/deckhand/_extension"
IN_WHEEL = "deckhand/_extension"


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name not in ("wheel", "sdist") or version == "editable":
            return
        root = Path(self.root).resolve()
        if os.environ.get("DECKHAND_EXTENSION_DIR"):
            ext = Path(os.environ["DECKHAND_EXTENSION_DIR"])
        elif (root / "PKG-INFO").exists():  # an unpacked sdist: it carries the extension
            ext = root / IN_SDIST
        else:  # the checkout: python/ is beside the extension's build
            repo = root.parent
            ext = repo / ".output" / "chrome-mv3"
            if not (ext / "manifest.json").exists():
                self._build_extension(repo, ext)
        if not (ext / "manifest.json").exists():
            raise RuntimeError(f"no built Deckhand extension at {ext} (no manifest.json)")
        build_data["force_include"][str(ext)] = IN_WHEEL if self.target_name == "wheel" else IN_SDIST

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
