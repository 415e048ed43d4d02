"""The shared test vectors (test/vectors/*.json), also run by the Node client's unit tests
(test/unit/vectors.test.ts): the same call sends byte-for-byte the same frame, answers are read
the same way, and the worker's calls to the client are answered with the same bytes. Every
frame is also checked against the generated JSON Schema."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel

from deckhand import Deckhand
from deckhand._rpc import dumps
from deckhand._rpc import RpcPeer
from deckhand.browser import Browser
from deckhand.errors import ERROR_CLASSES, DeckhandError, InternalError

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python" / "scripts"))
from gen_types import snake  # noqa: E402

VECTORS = ROOT / "test" / "vectors"
CALLS = json.loads((VECTORS / "calls.json").read_text())
ERRORS = json.loads((VECTORS / "errors.json").read_text())
CLIENT = json.loads((VECTORS / "client-calls.json").read_text())
SCHEMA = json.loads((ROOT / "schema" / "deckhand.schema.json").read_text())


class FakeLink:
    """A link to no worker: records each frame and answers it with what the vector says."""

    extension_id = "fake"
    is_connected = True

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.replies: list[str] = []
        self.answer: Any = None
        self.error: Any = None
        self.peer = RpcPeer(self._send, "fake worker")

    def _send(self, raw: str, rid: int | None) -> None:
        if rid is None:
            self.replies.append(raw)
            return
        method = json.loads(raw)["method"]
        if method != "engine.ping":
            self.frames.append(raw)
        if method == "engine.ping":
            reply = {"kind": "res", "id": rid, "result": {"version": "0.1.0", "extensionId": "fake"}}
        elif self.error is not None:
            reply = {"kind": "err", "id": rid, "error": self.error}
        else:
            reply = {"kind": "res", "id": rid, "result": self.answer}
        asyncio.get_running_loop().call_soon(self.peer.receive, json.dumps(reply))

    async def call(self, method: str, params: Any) -> Any:
        return await self.peer.request(method, params)

    def serve(self, method: str, handler: Any) -> None:
        self.peer.handle(method, handler)

    async def close(self, reason: Any = None) -> None:
        pass


def generate(request):  # the vectors' "generate" callback
    return CLIENT["generate"]


def kwargs(options: dict[str, Any] | None) -> dict[str, Any]:
    return {snake(k): v for k, v in (options or {}).items()}


def create_kwargs(o: dict[str, Any] | None) -> dict[str, Any]:
    out = kwargs(o)
    m = out.get("model")
    if isinstance(m, dict) and m.get("callback") == "generate":
        rest = {k: v for k, v in m.items() if k != "callback"}
        out["model"] = generate
        if "apiKey" in rest:
            out["model_api_key"] = rest.pop("apiKey")
        if "headers" in rest:
            out["model_headers"] = rest.pop("headers")
        assert not rest
    return out


async def setup(create: dict[str, Any] | None = None) -> tuple[FakeLink, Browser, Deckhand]:
    link = FakeLink()
    browser = Browser(link, type("Conn", (), {"closed": False})(), None, None, [])  # type: ignore[arg-type]
    dh = await Deckhand.create(browser=browser, **create_kwargs(create))
    return link, browser, dh


async def run(dh: Deckhand, browser: Browser, c: dict[str, Any]) -> Any:
    """A vector's call with the Python client's own API (snake_case, keyword options)."""
    args = list(c["args"])
    kw = kwargs(c.get("options"))
    page = browser.context.page(7)
    on, method = c["on"], snake(c["method"])
    if on == "deckhand":
        if method == "experimental_batch" and "page" in kw:
            kw["page"] = browser.context.page(kw["page"])
        return await getattr(dh, method)(*args, **kw)
    if on == "page":
        return await getattr(page, method)(*args, **kw)
    if on == "locator":
        loc = page.locator(c["locator"]["selector"])
        if c["locator"].get("nth") is not None:
            loc = loc.nth(c["locator"]["nth"])
        return await getattr(loc, method)(*args, **kw)
    if on == "context":
        return await getattr(browser.context, method)(*args, **kw)
    if on == "flows":
        # The place is `where=` in Python for each of them (Node's `from` for get and delete).
        if "from_" in kw:
            kw["where"] = kw.pop("from_")
        return await getattr(dh.flows, method)(*args, **kw)
    if on == "agent":
        agent = dh.agent(**kwargs(c["agent"]))
        x = args[0]
        return await agent.execute(kwargs(x) if isinstance(x, dict) else x)
    raise AssertionError(on)


# The worker's own rule (src/protocol/resolve-model.ts) for a named model: what it makes of one.
RESOLVE = """
import { ModelParamSchema } from './src/protocol/resolve-model.ts';
let s = '';
process.stdin.on('data', (d) => (s += d)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(s).map((m) => ModelParamSchema.parse(m)))));
"""


def resolved_by_the_worker(frame: str) -> str:
    """The frame as the worker reads it: the named models this client sends resolved there, so a
    frame compares with the Node client's, which resolves them itself."""
    msg = json.loads(frame)
    found: list[dict[str, Any]] = []

    def walk(v: Any) -> None:
        for k, x in (v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else []):
            if isinstance(x, dict) and x.get("kind") == "named":
                found.append({"at": (v, k), "model": x})
            else:
                walk(x)

    walk(msg)
    if not found:
        return frame
    out = subprocess.run(["node", "--import", "tsx", "--input-type=module", "-e", RESOLVE], input=json.dumps([f["model"] for f in found]),
                         cwd=ROOT, capture_output=True, text=True, check=True).stdout  # fmt: skip
    for f, resolved in zip(found, json.loads(out)):
        f["at"][0][f["at"][1]] = resolved
    return dumps(msg)


def normalise(frame: str) -> str:
    frame = resolved_by_the_worker(frame)
    frame = re.sub(r'^\{"kind":"req","id":\d+,', '{"kind":"req","id":%ID%,', frame)
    frame = re.sub(r'"opId":"[0-9a-f-]{36}"', '"opId":"%OPID%"', frame)
    return re.sub(r'"callbackId":"[0-9a-f-]{36}"', '"callbackId":"%CALLBACK%"', frame)


def at(value: Any, path: str) -> Any:
    """Follow a wire-name path: snake_case attributes of typed results, keys of plain data."""
    for seg in path.split(".") if path else []:
        if isinstance(value, list):
            value = value[int(seg)]
        elif isinstance(value, dict):
            value = value[snake(seg)] if snake(seg) in value else value[seg]
        elif isinstance(value, BaseModel):
            value = getattr(value, snake(seg))
        else:
            raise AssertionError(f"cannot follow {seg!r} into {value!r}")
    return value


def plain(v: Any) -> Any:
    if isinstance(v, BaseModel):
        return v.to_wire() if hasattr(v, "to_wire") else v.model_dump()
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


@pytest.fixture(autouse=True)
def no_provider_keys(monkeypatch):
    for k in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY"):
        monkeypatch.delenv(k, raising=False)


@pytest.mark.parametrize("case", CALLS["cases"], ids=[c["name"] for c in CALLS["cases"]])
async def test_calls(case) -> None:
    link, browser, dh = await setup(case.get("create"))
    link.answer = case["answer"]
    value = await run(dh, browser, case["call"])
    assert [normalise(f) for f in link.frames] == [case["frame"]]
    for path, expected in (case.get("checks") or {}).items():
        assert plain(at(value, path)) == expected, path


@pytest.mark.parametrize("case", ERRORS["received"], ids=[c["name"] for c in ERRORS["received"]])
async def test_received_errors(case) -> None:
    link, _, dh = await setup()
    link.error = case["error"]
    with pytest.raises(DeckhandError) as e:
        await dh.metrics()
    assert e.value.code == case["code"]
    assert isinstance(e.value, ERROR_CLASSES.get(case["code"], InternalError))
    assert e.value.message == case["error"]["message"]
    assert e.value.data == case["error"].get("data")


@pytest.mark.parametrize("case", ERRORS["invalidAnswers"], ids=[c["name"] for c in ERRORS["invalidAnswers"]])
async def test_invalid_answers(case) -> None:
    link, browser, dh = await setup()
    link.answer = case["answer"]
    with pytest.raises(DeckhandError) as e:
        await run(dh, browser, case["call"])
    assert e.value.code == case["code"]


@pytest.mark.parametrize("case", ERRORS["rejected"], ids=[c["name"] for c in ERRORS["rejected"]])
async def test_rejected(case) -> None:
    link = FakeLink()
    fake = Browser(link, type("Conn", (), {"closed": False})(), None, None, [])  # type: ignore[arg-type]
    try:
        dh = await Deckhand.create(browser=fake, **create_kwargs(case.get("create")))
        if "call" in case:
            await run(dh, fake, case["call"])
    except DeckhandError as e:
        assert e.code == case["code"], e.message
        assert link.frames == []
        return
    # A model sent by name, for the worker to refuse at the first call (test_named_models_rejected_by_the_worker).
    assert "call" not in case and case["name"] in NAMED_REJECTED, case


#: The rejected cases of a model this client sends by name: the worker resolves it and refuses it.
NAMED_REJECTED = ["create: an unknown provider", "create: a provider model with no key anywhere"]


@pytest.mark.parametrize("name", NAMED_REJECTED)
async def test_named_models_rejected_by_the_worker(name, browser) -> None:
    case = next(c for c in ERRORS["rejected"] if c["name"] == name)
    async with await Deckhand.create(browser=browser, **create_kwargs(case["create"])) as dh:
        with pytest.raises(DeckhandError) as e:
            await dh.extract()
    assert e.value.code == case["code"], e.value.message


@pytest.mark.parametrize("case", CLIENT["cases"], ids=[c["name"] for c in CLIENT["cases"]])
async def test_client_calls(case) -> None:
    link, _, dh = await setup(case["create"])
    callback_id = ""
    if "%CALLBACK%" in json.dumps(case["exchanges"]):
        link.answer = CALLS["cases"][0]["answer"]
        await dh.act("click the Multi button")
        callback_id = re.search(r'"callbackId":"([^"]+)"', link.frames[-1]).group(1)
    for incoming, reply in case["exchanges"]:
        link.replies.clear()
        link.peer.receive(incoming.replace("%CALLBACK%", callback_id))
        for _ in range(200):
            if link.replies:
                break
            await asyncio.sleep(0.005)
        assert link.replies == [reply]


# -- every frame against the generated JSON Schema ---------------------------------------------
def validator(name: str) -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator({"definitions": SCHEMA["definitions"], "$ref": f"#/definitions/{name}"})


def definition(ref: str) -> str:
    return ref.split("/")[-1]


def test_every_vector_frame_fits_the_json_schema() -> None:
    tables = SCHEMA["x-deckhand"]
    frame_v = validator("RpcMessage")
    for c in CALLS["cases"]:
        frame = json.loads(c["frame"].replace("%ID%", "1").replace("%OPID%", "o").replace("%CALLBACK%", "c"))
        frame_v.validate(frame)
        t = tables["methods"][frame["method"]]
        validator(definition(t["params"])).validate(frame["params"])
        validator(definition(t["result"])).validate(c["answer"])
    for e in ERRORS["received"]:
        frame_v.validate({"kind": "err", "id": 1, "error": e["error"]})
    for e in ERRORS["invalidAnswers"]:
        method = {"act": "act", "metrics": "metrics"}[e["call"]["method"]]
        assert not validator(definition(tables["methods"][method]["result"])).is_valid(e["answer"])
    for c in CLIENT["cases"]:
        for incoming, reply in c["exchanges"]:
            req, res = json.loads(incoming), json.loads(reply)
            frame_v.validate(req)
            frame_v.validate(res)
            t = tables["clientMethods"].get(req["method"])
            if t is None:
                continue
            v = validator(definition(t["params"]))
            if req["params"].get("callbackId") != "not-registered":
                v.validate(req["params"])
            if res["kind"] == "res":
                validator(definition(t["result"])).validate(res["result"])


def test_the_frames_are_written_as_json_stringify_writes_them() -> None:
    for c in CALLS["cases"]:
        frame = json.loads(c["frame"].replace("%ID%", "1"))
        assert dumps(frame).replace('"id":1,', '"id":%ID%,', 1) == c["frame"]
