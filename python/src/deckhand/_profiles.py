"""Temporary Chromium profiles: `deckhand-profile-<pid>-XXXXXX` in the temp folder (the same
names the Node client uses), removed when the browser ends, when this process exits, or by a
later launch once the process that made them is gone. POSIX only, as launching is.
"""

from __future__ import annotations

import atexit
import contextlib
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
        # First the profiles of processes that were killed outright (SIGKILL) and are gone now.
        with contextlib.suppress(OSError):
            for p in Path(tempfile.gettempdir()).iterdir():
                m = _NAME.match(p.name)
                if m and int(m[1]) != os.getpid() and not _alive(int(m[1])):
                    shutil.rmtree(p, ignore_errors=True)
        self.dir = tempfile.mkdtemp(prefix=f"deckhand-profile-{os.getpid()}-")
        #: Chromium's process group, once it runs.
        self.pid: int | None = None
        _live[self.dir] = self

    def use(self, pid: int) -> None:
        self.pid = pid

    def remove(self) -> None:
        """End Chromium's helpers (they write into the profile), then remove the folder."""
        if _live.pop(self.dir, None) is not None:
            if self.pid:
                kill_group(self.pid)
            shutil.rmtree(self.dir, ignore_errors=True)


def kill_group(pid: int) -> None:
    """SIGKILL a process group (Chromium's, with its helpers)."""
    if sys.platform != "win32":
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


@atexit.register
def _remove_all() -> None:
    for p in list(_live.values()):
        p.remove()
