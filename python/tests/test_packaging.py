"""The package as users get it: it imports where POSIX-only modules do not exist (Windows), and
the sdist and wheel `python -m build` makes install into a fresh virtualenv and run a program
from a folder outside the repository, with the extension the wheel carries."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / "python"

# Makes the POSIX-only parts of the standard library unavailable, as on Windows: the fcntl module
# (an import of it raises ImportError) and the process-group calls and signal the launcher uses.
NO_POSIX = textwrap.dedent(
    """
    import os, signal, sys
    sys.modules["fcntl"] = None
    for name in ("killpg", "getpgid", "setsid", "setpgid"):
        if hasattr(os, name):
            delattr(os, name)
    if hasattr(signal, "SIGKILL"):
        delattr(signal, "SIGKILL")
    """
)

IMPORT_ALL = textwrap.dedent(
    """
    import asyncio, importlib, pkgutil
    import deckhand
    names = sorted(m.name for m in pkgutil.walk_packages(deckhand.__path__, "deckhand."))
    for name in names:
        importlib.import_module(name)
    from deckhand import Deckhand, local_browser
    from deckhand.errors import UnavailableError
    from deckhand.sync import local_browser as sync_local_browser
    assert sys.modules.get("fcntl") is None, "fcntl was imported"
    try:
        asyncio.run(local_browser.launch())
    except UnavailableError as e:
        print("LAUNCH", e.code, e.message)
    else:
        raise AssertionError("launch() worked without fcntl")
    print("IMPORTED", len(names), deckhand.__version__)
    """
)


def test_the_package_imports_without_posix_only_modules() -> None:
    env = {**os.environ, "PYTHONPATH": str(PYTHON / "src")}
    r = subprocess.run([sys.executable, "-c", NO_POSIX + IMPORT_ALL], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert "IMPORTED" in r.stdout, r.stdout
    launch = next(line for line in r.stdout.splitlines() if line.startswith("LAUNCH"))
    # A clear refusal that says what to do instead.
    assert "UNAVAILABLE" in launch and "POSIX" in launch and "local_browser.connect(" in launch, launch


def _clean_env(tmp: Path) -> dict[str, str]:
    """An environment with nothing that points into the repository."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "DECKHAND_CHROMIUM", "CHROME_PATH", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_CERT", "SSL_CERT_FILE")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    # Not the repository's folders npm puts on PATH (node_modules/.bin), nor this virtualenv's.
    inside = (ROOT.resolve(),) + ((Path(sys.prefix).resolve(),) if sys.prefix != sys.base_prefix else ())
    env["PATH"] = os.pathsep.join(
        p for p in env.get("PATH", "").split(os.pathsep) if p and not any(Path(p).resolve().is_relative_to(d) for d in inside)
    )
    env["TMPDIR"] = str(tmp)
    for k, v in env.items():
        assert str(ROOT) not in v, f"{k} points into the repository"
    return env


QUICK_START = textwrap.dedent(
    """
    import asyncio, json, sys

    import deckhand
    from deckhand import Deckhand, local_browser


    async def main(url: str) -> None:
        async with await local_browser.launch(headless=True) as browser:
            async with await Deckhand.create(browser=browser) as dh:
                page = await browser.context.active_page()
                await page.goto(url)
                before = await page.evaluate("() => window.__log")
                r = await dh.act({"selector": "#multi", "description": "the Multi button", "method": "click"})
                after = await page.evaluate("() => window.__log")
                print(json.dumps({"package": deckhand.__file__, "extension": str(deckhand.extension_dir()),
                                  "success": r.data.success, "before": before, "after": after}))


    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.packaging
def test_the_wheel_installs_in_a_fresh_virtualenv_and_runs_from_outside_the_repository(outside_tmp: Path, origin: str) -> None:
    started = time.monotonic()
    tmp = outside_tmp / "tmp"
    tmp.mkdir()
    env = _clean_env(tmp)
    dist = outside_tmp / "dist"

    # sdist, then the wheel built from that sdist (python -m build's default), so the sdist must
    # be complete: the extension and the build hook included.
    r = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(PYTHON)], env=env, capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    [wheel] = dist.glob("*.whl")
    [sdist] = dist.glob("*.tar.gz")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert {"deckhand/__init__.py", "deckhand/py.typed", "deckhand/_extension/manifest.json"} <= names
    assert not any(n.startswith(("tests/", "src/")) for n in names)
    assert "Requires-Dist: pydantic<3,>=2.7" in metadata and "Requires-Dist: websockets<18,>=13" in metadata
    assert "../README.md" not in metadata and "Project-URL: Repository" in metadata
    with tarfile.open(sdist) as t:
        members = {m.name.split("/", 1)[1] for m in t.getmembers() if "/" in m.name}
    assert {"hatch_build.py", "README.md", "pyproject.toml", "src/deckhand/_extension/manifest.json"} <= members

    venv = outside_tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], env=env, check=True, timeout=120)
    py = venv / "bin" / "python"
    r = subprocess.run(
        [str(py), "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "-q", str(wheel)],
        env=env, capture_output=True, text=True, timeout=240,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]

    app = outside_tmp / "app"
    app.mkdir()
    (app / "quickstart.py").write_text(QUICK_START)
    r = subprocess.run([str(py), "quickstart.py", origin + "/form.html"], cwd=app, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    site = venv.resolve()
    assert Path(out["package"]).resolve().is_relative_to(site), out  # the installed wheel, not the checkout
    assert Path(out["extension"]).resolve().is_relative_to(site) and out["extension"].endswith("_extension"), out
    assert out["success"] is True and out["before"] == [] and out["after"] == ["click:multi"], out
    elapsed = time.monotonic() - started
    print(f"packaging test: {elapsed:.1f} s")
    shutil.rmtree(venv, ignore_errors=True)
