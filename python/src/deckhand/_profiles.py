"""Temporary Chromium profiles: `deckhand-profile-<pid>-XXXXXX` in the temp folder (the same
names the Node client uses), removed when the browser ends, when this process exits, or by a
later launch once the process that made them is gone.
"""

from __future__ import annotations

import atexit
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path

_live: dict[str, "TempProfile"] = {}
_NAME = re.compile(r"^deckhand-profile-(\d+)-")


class TempProfile:
    def __init__(self) -> None:
        remove_stale()
        self.dir = tempfile.mkdtemp(prefix=f"deckhand-profile-{os.getpid()}-")
        self.pid: int | None = None  # Chromium's process group
        self.removed = False
        _live[self.dir] = self

    def use(self, pid: int) -> None:
        self.pid = pid

    def kill_group(self) -> None:
        if self.pid:
            kill_group(self.pid)

    def remove(self) -> None:
        """End Chromium's helpers (they write into the profile), then remove the folder."""
        if self.removed:
            return
        self.removed = True
        _live.pop(self.dir, None)
        self.kill_group()
        shutil.rmtree(self.dir, ignore_errors=True)


def kill_group(pid: int) -> None:
    """SIGKILL a process group (Chromium's, with its helpers). POSIX only: elsewhere nothing is
    launched (local_browser.launch() refuses), so there is nothing to end."""
    if sys.platform == "win32" or not hasattr(os, "killpg"):
        return
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _alive(pid: int) -> bool:
    if sys.platform == "win32":  # os.kill(pid, 0) would end the process there: take it for alive
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_stale() -> None:
    """Profiles left by processes that were killed outright (SIGKILL) and are gone now."""
    tmp = Path(tempfile.gettempdir())
    try:
        entries = list(tmp.iterdir())
    except OSError:
        return
    for p in entries:
        m = _NAME.match(p.name)
        if m and int(m.group(1)) != os.getpid() and not _alive(int(m.group(1))):
            shutil.rmtree(p, ignore_errors=True)


@atexit.register
def _remove_all() -> None:
    for p in list(_live.values()):
        p.remove()
