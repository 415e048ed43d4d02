"""Typing: `mypy --strict` passes on the package (its config in python/pyproject.toml), on
examples/python/ and on the Python examples of python/README.md; typed results and options say what they should (a
program using them is checked, and one with mistakes must fail the check where expected); and
the run-time side of it: wrong argument types are TypeErrors, CANCELLED is not asyncio's."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import pytest

from deckhand import Deckhand, errors

from helpers import failure

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / "python"
EXAMPLES = ROOT / "examples" / "python"
CACHE = ROOT / ".tmp" / "mypy-cache"


def mypy(*args: str, platform: str | None = None) -> tuple[int, str]:
    """mypy with the package's config, the package from this checkout (MYPYPATH)."""
    env = {**os.environ, "MYPYPATH": str(PYTHON / "src")}
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(PYTHON / "pyproject.toml"), "--cache-dir", str(CACHE)]
    if platform:
        cmd += ["--platform", platform]
    r = subprocess.run([*cmd, *args], cwd=PYTHON, env=env, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr


def readme_blocks() -> list[str]:
    text = (PYTHON / "README.md").read_text()
    return re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)


# A program using the typed API: reveal what a type checker sees (assert_type fails the check
# when the type is not exactly this one).
USES = textwrap.dedent(
    """
    from typing import Any, assert_type

    from opentelemetry import trace
    from pydantic import BaseModel

    import deckhand.sync
    from deckhand import Deckhand, ExtractResult, Page, local_browser
    from deckhand.errors import InvalidArgumentError, InvalidArgumentTypeError, OperationCancelledError
    from deckhand.options import CacheOption, LoggingOptions


    class Heading(BaseModel):
        heading: str


    async def use() -> None:
        browser = await local_browser.launch()
        dh = await Deckhand.create(browser=browser, cache={"store": "memory", "threshold": 2}, logging={"level": "debug"})
        assert_type(await dh.extract("the heading", Heading), ExtractResult[Heading])
        assert_type(await dh.extract(schema=Heading), ExtractResult[Heading])
        assert_type((await dh.extract("the heading", schema=Heading)).data, Heading)
        assert_type((await dh.extract("the heading", {"type": "object"})).data, Any)
        assert_type((await dh.extract("the heading")).data, Any)
        page = await browser.context.active_page()
        assert_type(page, Page)
        assert_type(await page.extract(instruction="x", schema=Heading), Heading)
        await dh.act("click it", cache={"threshold": 3}, locator=page.locator("#form"), page=page)
        await dh.act({"selector": "#a", "description": "a"}, ignore_locators=["#b", {"selector": "#c", "nth": 1}])
        await Deckhand.create(browser=browser, telemetry={"tracer": trace.get_tracer("app")}, model={"model_name": "openai/x", "api_key": "k"})
        c: CacheOption = {"store": {"path": "/tmp/x.db"}, "enabled": False}
        lo: LoggingOptions = {"level": "warn", "format": "json", "callback": lambda line: print(line["message"])}
        del c, lo


    def use_sync() -> None:
        with deckhand.sync.local_browser.launch() as browser:
            with deckhand.sync.Deckhand.create(browser=browser, model="openai/gpt-4.1-mini") as dh:
                assert_type(dh.extract("x", schema=Heading).data, Heading)
                page = browser.context.active_page()
                assert_type(page, deckhand.sync.Page)
                dh.act("click", page=page, locator=page.locator("h1"))


    def errors_are_related(e: Exception) -> None:
        assert issubclass(InvalidArgumentTypeError, TypeError) and issubclass(InvalidArgumentTypeError, InvalidArgumentError)
        assert_type(OperationCancelledError("CANCELLED", "x").code, str)
    """
)

# Mistakes a type checker must find, one per line marked `# E`.
MISTAKES = textwrap.dedent(
    """
    from deckhand import Deckhand, local_browser


    async def mistakes() -> None:
        browser = await local_browser.launch()
        dh = await Deckhand.create(browser=browser, cache={"treshold": 2})  # E
        await Deckhand.create(browser=browser, logging={"level": "loud"})  # E
        await Deckhand.create(browser=browser, telemetry={"tracer_nam": "x"})  # E
        await Deckhand.create(browser=browser, model=42)  # E
        await dh.act(42)  # E
        await dh.act("x", cache={"threshold": "2"})  # E
        await dh.act("x", locator=3)  # E
        await dh.observe("x", variables=["not", "a", "dict"])  # E
        await dh.extract("x", schema=42)  # E
        r = await dh.extract("x")
        r.data.anything  # fine: Any
        (await dh.act("x")).data.sucess  # E
    """
)


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One mypy run over the package, the README's examples and the two programs above."""
    d = tmp_path_factory.mktemp("typing")
    files: list[str] = []
    for i, block in enumerate(readme_blocks()):
        f = d / f"readme_example_{i}.py"
        f.write_text(block)
        files.append(str(f))
    (d / "uses.py").write_text(USES)
    (d / "mistakes.py").write_text(MISTAKES)
    code, out = mypy("src/deckhand", str(EXAMPLES), *files, str(d / "uses.py"), str(d / "mistakes.py"))
    # mypy ran to its end (not, say, missing: the test extra installs it).
    assert re.search(r"^(Success: no issues found in \d+ source files?|Found \d+ errors? in \d+ files? \(checked \d+ source files?\))$", out, re.M), out
    return {"dir": d, "code": code, "out": out, "readme": files}


def errors_in(out: str, where: str) -> list[str]:
    return [line for line in out.splitlines() if where in line and ": error:" in line]


def test_mypy_strict_passes_on_the_package(checked: dict[str, Any]) -> None:
    assert errors_in(checked["out"], "src/deckhand/") == [], checked["out"]
    assert "Cannot find implementation or library stub" not in checked["out"], checked["out"]


def test_mypy_strict_passes_on_the_readme_examples(checked: dict[str, Any]) -> None:
    assert len(checked["readme"]) >= 5
    assert errors_in(checked["out"], "readme_example_") == [], checked["out"]


def test_mypy_strict_passes_on_the_examples(checked: dict[str, Any]) -> None:
    examples = sorted(EXAMPLES.glob("*.py"))
    assert len(examples) >= 9
    assert errors_in(checked["out"], "examples/python/") == [], checked["out"]
    # mypy read them: its summary counts every file it checked.
    m = re.search(r"(\d+) source files?\)?$", checked["out"].strip())
    given = len(list((PYTHON / "src" / "deckhand").glob("*.py"))) + len(examples) + len(checked["readme"]) + 2
    assert m and int(m.group(1)) >= given, checked["out"]


def test_typed_results_and_options(checked: dict[str, Any]) -> None:
    assert errors_in(checked["out"], "uses.py") == [], checked["out"]


def test_mistakes_in_options_and_arguments_are_type_errors(checked: dict[str, Any]) -> None:
    found = {int(m.group(1)) for line in errors_in(checked["out"], "mistakes.py") if (m := re.search(r"mistakes\.py:(\d+):", line))}
    marked = {i for i, line in enumerate(MISTAKES.splitlines(), 1) if line.endswith("# E")}
    assert found == marked, checked["out"]


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_mypy_strict_passes_for_windows_and_macos(platform: str) -> None:
    code, out = mypy(platform=platform)
    assert code == 0 and "Success: no issues found" in out, out


# -- at run time ---------------------------------------------------------------------------------


def test_cancelled_is_a_deckhand_error_and_not_asyncios() -> None:
    e = errors.error("CANCELLED", "stopped by another client")
    assert type(e) is errors.OperationCancelledError and e.code == "CANCELLED"
    assert isinstance(e, Exception) and not isinstance(e, asyncio.CancelledError)
    assert errors.ERROR_CLASSES["CANCELLED"] is errors.OperationCancelledError
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        assert errors.CancelledError is errors.OperationCancelledError  # the deprecated name, the same class
    assert [x.category for x in w] == [DeprecationWarning]
    ns: dict[str, Any] = {}
    exec("from deckhand.errors import *", ns)
    assert "CancelledError" not in ns and "OperationCancelledError" in ns


def test_errors_are_classes_type_checkers_know() -> None:
    for code, cls in errors.ERROR_CLASSES.items():
        assert cls.code == code and cls.__name__ in errors.__all__
    assert errors.ERROR_CLASSES["INVALID_ARGUMENT"] is errors.InvalidArgumentError
    e = errors.type_error("x")
    assert isinstance(e, TypeError) and isinstance(e, errors.InvalidArgumentError) and e.code == "INVALID_ARGUMENT"


async def test_wrong_argument_types_raise_type_error(browser) -> None:
    for bad_create in (dict(cache="yes"), dict(logging="debug"), dict(telemetry=1), dict(model=42), dict(system_prompt=1), dict(api_key=1)):
        e = await failure(Deckhand.create(browser=browser, **bad_create))
        assert isinstance(e, TypeError) and e.code == "INVALID_ARGUMENT", (bad_create, e)
    async with await Deckhand.create(browser=browser) as dh:
        await _wrong_types(dh, browser)


async def _wrong_types(dh: Deckhand, browser: Any) -> None:
    page = await browser.context.active_page()
    wrong_types = [
        dh.act(42),
        dh.act("click", cache="yes"),
        dh.act("click", locator=42),
        dh.act("click", ignore_locators="#a"),
        dh.act("click", page="1"),
        dh.act("click", timeout="5000"),
        dh.observe(42),
        dh.observe("x", variables=["not", "a", "dict"]),
        dh.extract(42),
        dh.extract("x", schema=42),
        dh.extract("x", screenshot="yes"),
        dh.experimental_batch(42),
        dh.replay("x", page=object()),
        page.goto(42),
        page.evaluate(42),
        page.extract(42),
    ]
    for c in wrong_types:
        e = await failure(c)
        assert isinstance(e, TypeError) and isinstance(e, errors.InvalidArgumentError) and e.code == "INVALID_ARGUMENT", e
    for bad in (lambda: page.locator(42), lambda: page.locator("#a").nth("1"), lambda: dh.agent(model=42)):
        with pytest.raises(TypeError):
            bad()
    # The right type with a wrong value stays a ValueError only.
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(6000)}}
    for c in (dh.act("click", cache={"threshold": 0}), dh.act("click", timeout=0), dh.extract("x", schema=wide)):
        e = await failure(c)
        assert isinstance(e, errors.InvalidArgumentError) and isinstance(e, ValueError) and not isinstance(e, TypeError), e
