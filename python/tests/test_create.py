"""Deckhand.create, launch and connect, and their rejection cases."""

from __future__ import annotations

import asyncio
import os
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

import deckhand
from deckhand import Deckhand, local_browser
from deckhand.browser import extension_dir, find_chromium
from deckhand.errors import DeckhandError

from helpers import failure


def test_top_level_imports() -> None:
    from deckhand import Deckhand as D, local_browser as lb  # noqa: F401

    assert callable(lb.launch) and callable(lb.connect)
    assert issubclass(deckhand.errors.ElementNotFoundError, DeckhandError)


async def test_no_public_constructor_and_create_checks_its_input(browser) -> None:
    with pytest.raises(DeckhandError) as e:
        Deckhand(object(), browser, {})
    assert e.value.code == "INVALID_ARGUMENT" and "Deckhand.create" in e.value.message
    for bad in (None, "browser", object()):
        e2 = await failure(Deckhand.create(browser=bad))
        assert e2.code == "INVALID_ARGUMENT" and "browser=" in e2.message
    with pytest.raises(TypeError):
        await Deckhand.create(browser, None)  # options are keyword arguments


async def test_one_handle_backs_one_instance_close_releases_it_and_repeats(browser) -> None:
    a = await Deckhand.create(browser=browser)
    try:
        e = await failure(Deckhand.create(browser=browser))
        assert e.code == "ALREADY_IN_USE"
        assert isinstance(e, deckhand.errors.AlreadyInUseError)
    finally:
        await a.close()
    await a.close()  # again: fine
    assert a.initialized is False
    e = await failure(a.metrics())
    assert e.code == "CLOSED"
    b = await Deckhand.create(browser=browser)
    try:
        assert b.initialized is True and b.browser is browser
        # Read-only.
        with pytest.raises(AttributeError):
            b.browser = None  # type: ignore[misc]
        with pytest.raises(AttributeError):
            b.initialized = False  # type: ignore[misc]
        m = await b.metrics()
        assert len(m.model_fields_set) == 32
    finally:
        await b.close()


async def test_model_options_are_checked_at_create_or_by_the_worker(browser) -> None:
    def generate(request):
        return {"object": {}}

    async def agenerate(request):
        return {"object": {}}

    for fn in (generate, agenerate, lambda r: {"object": {}}):
        e = await failure(Deckhand.create(browser=browser, model=fn, model_api_key="sk-x"))
        assert e.code == "INVALID_ARGUMENT" and "model_api_key" in e.message
        e = await failure(Deckhand.create(browser=browser, model=fn, model_headers={"x": "y"}))
        assert e.code == "INVALID_ARGUMENT" and "model_headers" in e.message
    e = await failure(Deckhand.create(browser=browser, model_api_key="sk-x"))
    assert e.code == "INVALID_ARGUMENT" and "needs model=" in e.message
    # A name goes to the worker, which refuses one of no provider, or without its key, at the first call.
    for name, code, says in (("martian/x1", "INVALID_ARGUMENT", "unknown model provider"), ("openai/gpt-4.1-mini", "NO_MODEL_CONFIGURED", "OPENAI_API_KEY")):
        async with await Deckhand.create(browser=browser, model=name) as d:
            e = await failure(d.extract())
        assert e.code == code and says in e.message, e
    e = await failure(Deckhand.create(browser=browser, model={"model_name": "openai/gpt-4.1-mini", "api_key": "k", "temperature": 0}))
    assert e.code == "INVALID_ARGUMENT" and "temperature" in e.message
    e = await failure(Deckhand.create(browser=browser, model={"model_name": "gemma", "base_url": "http://127.0.0.1:8000/v1", "structured_output": "xml"}))
    assert e.code == "INVALID_ARGUMENT" and "structured_output" in e.message and "'json_object'" in e.message
    e = await failure(Deckhand.create(browser=browser, dom_settle_timeout_ms=-1))
    assert e.code == "INVALID_ARGUMENT" and "dom_settle_timeout_ms" in e.message
    e = await failure(Deckhand.create(browser=browser, cache={"threshold": 0}))
    assert e.code == "INVALID_ARGUMENT" and "threshold" in e.message
    e = await failure(Deckhand.create(browser=browser, api_key="k"))
    assert e.code == "INVALID_ARGUMENT" and "api_url" in e.message
    e = await failure(Deckhand.create(browser=browser, logging={"level": "loud"}))
    assert e.code == "INVALID_ARGUMENT"
    # A model name with its key is fine (nothing is called until an operation needs it).
    d = await Deckhand.create(browser=browser, model="openai/gpt-4.1-mini", model_api_key="sk-test", model_headers={"x-team": "qa"})
    await d.close()
    # Nothing above claimed the browser.
    d = await Deckhand.create(browser=browser)
    await d.close()


def test_a_model_configs_endpoint_settings_go_to_the_worker_as_given() -> None:
    from deckhand.models import CallbackRegistry, resolve_model

    config = {"modelName": "gemma", "baseURL": "http://127.0.0.1:8000/v1"}
    # snake_case keys, wire names, or the generated model: the same NamedModel; False is sent, not dropped.
    for spec in (
        {"model_name": "gemma", "base_url": config["baseURL"], "structured_output": "tool", "vision": False},
        {"modelName": "gemma", "baseURL": config["baseURL"], "structuredOutput": "tool", "vision": False},
        deckhand._wire.GenericModelConfig(model_name="gemma", base_url=config["baseURL"], structured_output="tool", vision=False),
    ):
        assert resolve_model(spec, CallbackRegistry(), {}) == {"kind": "named", "model": {**config, "structuredOutput": "tool", "vision": False}}
    # Left out, they are the worker's to decide: nothing is sent.
    assert resolve_model({"model_name": "gemma", "base_url": config["baseURL"]}, CallbackRegistry(), {}) == {"kind": "named", "model": config}
    # A name goes as given, with the variables its provider reads that are set (and no others).
    env = {"OPENAI_API_KEY": "sk-env", "ANTHROPIC_API_KEY": "ak-env", "OPENAI_BASE_URL": ""}
    named = {"kind": "named", "model": "openai/gpt-4.1-mini", "env": {"OPENAI_API_KEY": "sk-env"}}
    assert resolve_model("openai/gpt-4.1-mini", CallbackRegistry(), env) == named


async def test_launch_rejects_bad_options() -> None:
    e = await failure(local_browser.launch(executable_path="/nonexistent/chromium"))
    assert e.code == "INVALID_ARGUMENT" and "no Chromium found at /nonexistent/chromium" in e.message
    e = await failure(local_browser.launch(allow_url_schemes=["javascript"]))
    assert e.code == "INVALID_ARGUMENT" and "never opened" in e.message
    e = await failure(local_browser.launch(allow_url_schemes=["gopher"]))
    assert e.code == "INVALID_ARGUMENT" and "'file'" in e.message
    e = await failure(local_browser.launch(timeout=0))
    assert e.code == "INVALID_ARGUMENT" and "timeout" in e.message
    e = await failure(local_browser.launch(viewport={"width": 0, "height": 10}))
    assert e.code == "INVALID_ARGUMENT"


async def test_a_chromium_that_dies_at_start_says_why() -> None:
    # A script standing in for Chromium that prints an error and exits.
    script = Path(tempfile.mkdtemp()) / "fake-chromium"
    script.write_text("#!/bin/sh\necho '[1:1:0101/000000.000000:ERROR:main.cc(1)] the GPU process exploded' >&2\nexit 3\n")
    script.chmod(0o755)
    e = await failure(local_browser.launch(executable_path=str(script), timeout=5000))
    assert e.code == "BROWSER_CLOSED"
    assert "code 3" in e.message and "Chromium said: the GPU process exploded" in e.message


async def test_launch_close_removes_the_temporary_profile_and_later_calls_fail() -> None:
    b = await local_browser.launch()
    profile = b._profile.dir
    assert Path(profile).name.startswith(f"deckhand-profile-{os.getpid()}-") and Path(profile).is_dir()
    d = await Deckhand.create(browser=b)
    await b.close()
    await b.close()  # safe twice
    assert not Path(profile).exists()
    assert b.is_connected is False
    e = await failure(d.metrics())
    assert e.code in ("BROWSER_CLOSED", "CLOSED")


def _chromium_with_port(extension: bool) -> tuple[subprocess.Popen, str, str]:
    profile = tempfile.mkdtemp(prefix="dh-ported-")
    args = [find_chromium(), "--headless", "--remote-debugging-port=0", f"--user-data-dir={profile}", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    if extension:
        args += [f"--disable-extensions-except={extension_dir()}", f"--load-extension={extension_dir()}"]
    proc = subprocess.Popen([*args, "about:blank"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    port_file = Path(profile) / "DevToolsActivePort"
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if port_file.exists() and port_file.read_text().strip():
            port = port_file.read_text().split("\n")[0]
            return proc, f"http://127.0.0.1:{port}", profile
        time.sleep(0.05)
    raise AssertionError("Chromium did not open its debugging port")


async def test_connect_attaches_to_a_running_chromium_with_the_extension(origin) -> None:
    proc, url, profile = _chromium_with_port(True)
    try:
        b = await local_browser.connect(cdp_url=url)
        d = await Deckhand.create(browser=b)
        page = await b.context.active_page()
        await page.goto(origin + "/form.html")
        assert await page.title() == "Sign up"
        assert (await d.act({"selector": "#multi", "description": "Multi"})).data.success
        await d.close()
        await b.close()  # disconnects; the browser keeps running
        assert proc.poll() is None
        ws = (await asyncio.to_thread(lambda: __import__("json").loads(urllib.request.urlopen(url + "/json/version").read())))["webSocketDebuggerUrl"]
        b2 = await local_browser.connect(cdp_url=ws)
        assert (await (await b2.context.active_page()).title()) == "Sign up"
        await b2.close()
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()


async def test_connect_fails_at_once_without_the_extension_and_on_bad_urls() -> None:
    proc, url, _ = _chromium_with_port(False)
    try:
        t = time.monotonic()
        e = await failure(local_browser.connect(cdp_url=url))
        assert e.code == "EXTENSION_MISSING" and "no Deckhand extension" in e.message
        assert time.monotonic() - t < 5
    finally:
        os.killpg(proc.pid, 9)
        proc.wait()
    e = await failure(local_browser.connect(cdp_url="ftp://127.0.0.1:1"))
    assert e.code == "INVALID_ARGUMENT" and "cdp_url" in e.message
    e = await failure(local_browser.connect(cdp_url="http://127.0.0.1:1"))
    assert e.code == "BROWSER_CLOSED" and "cannot reach" in e.message
