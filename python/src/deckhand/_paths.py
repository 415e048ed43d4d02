"""Where the built extension and a Chromium binary are on this machine."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent

CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable",
              "/Applications/Chromium.app/Contents/MacOS/Chromium"]  # fmt: skip


def extension_dir() -> Path:
    """The built extension: DECKHAND_EXTENSION_DIR, else the copy shipped in the package
    (`deckhand/_extension`, put there when a wheel is built), else the checkout's
    `.output/chrome-mv3` (an editable install of python/ in the repository)."""
    env = os.environ.get("DECKHAND_EXTENSION_DIR")
    if env:
        return Path(env)
    shipped = _PACKAGE / "_extension"
    if (shipped / "manifest.json").exists():
        return shipped
    for parent in _PACKAGE.parents:
        candidate = parent / ".output" / "chrome-mv3"
        if (candidate / "manifest.json").exists() or (parent / "package.json").exists() and (parent / "python").is_dir():
            return candidate
    return shipped


def find_chromium() -> str | None:
    env = os.environ.get("DECKHAND_CHROMIUM") or os.environ.get("CHROME_PATH")
    found = (shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome"))
    return env or next((c for c in CANDIDATES if os.path.exists(c)), None) or next((f for f in found if f), None)
