"""The earlier agent interface, `deckhand.agent(...).execute(...)` (src/client/agent-options.ts in
Python): the model it runs with, its tools wrapped so the worker can call them, and the
agent.run request, which the worker checks."""

from __future__ import annotations

import json
import uuid
from typing import Any, Mapping, Sequence

from pydantic import BaseModel, ValidationError

from . import _wire
from ._checks import given, json_schema_of, known_keys, run_user
from .errors import InvalidArgumentError, type_error
from .options import AgentOptions, AgentTool, ApprovalHandler, ApprovalPolicy, CallbackModel
from .page import parse_answer

#: execute()'s options, and their names in agent.run.
_EXECUTE = {"instruction": "instruction", "max_steps": "maxSteps", "auto_screenshot": "autoScreenshot", "wait_between_actions": "waitBetweenActions",
            "context": "context"}  # fmt: skip


def agent_model(
    model: str | CallbackModel | None, options: AgentOptions | Mapping[str, Any] | None, provider: str | None, integrations: Sequence[Any] | None
) -> Any:
    """The model spec an agent runs with (None: the instance's), or a typed error."""
    if provider is not None and provider not in ("openai", "anthropic"):
        raise InvalidArgumentError(None, f"agent provider must be 'openai' or 'anthropic', got {provider!r}")
    if integrations:
        raise InvalidArgumentError(None, "integrations (MCP servers) are not supported by the Python client yet: pass tools= instead")
    o = known_keys("agent", {k: v for k, v in (options or {}).items() if v is not None}, ("api_key", "base_url", "organization"))
    if callable(model) and not isinstance(model, str):
        if o:
            raise InvalidArgumentError(None, "a callback model cannot also take api_key, base_url or organization: the callback makes its own requests")
        return model
    if model is None:
        return None
    if not isinstance(model, str):
        raise type_error("agent model must be a model name or a generation callback")
    name = f"{provider}/{model}" if provider and "/" not in model else model
    if not o:
        return name
    org = {"OpenAI-Organization": o["organization"]} if o.get("organization") else None
    return given(modelName=name, apiKey=o.get("api_key") or None, baseURL=o.get("base_url") or None, headers=org)


def agent_tools(tools: Mapping[str, AgentTool] | None) -> dict[str, Any]:
    """Each tool's description, JSON Schema, and `run`, which the worker's tool.call reaches."""
    out: dict[str, Any] = {}
    for name, t in (tools or {}).items():
        if not isinstance(t, Mapping) or not callable(t.get("execute")):
            raise InvalidArgumentError(None, f"tool '{name}' needs 'execute' (a function) and 'input_schema'")
        schema = t.get("input_schema", t.get("inputSchema", {"type": "object"}))
        model = schema if isinstance(schema, type) and issubclass(schema, BaseModel) else None
        execute = t["execute"]

        async def run(raw: Any, _name: str = name, _model: Any = model, _execute: Any = execute) -> str:
            arg = raw
            if _model is not None:
                try:
                    arg = _model.model_validate(raw if raw is not None else {})
                except ValidationError as e:
                    raise InvalidArgumentError(None, f"arguments for tool {_name} do not fit its schema: {e}") from None
            out = await run_user(_execute, arg)
            if isinstance(out, BaseModel):
                out = out.model_dump(mode="json")
            return out if isinstance(out, str) else json.dumps(out, ensure_ascii=False)

        out[name] = {"description": t.get("description") or name, "input_schema": json_schema_of(schema), "run": run}
    return out


class Agent:
    """`deckhand.agent(...)`: `await agent.execute(instruction, max_steps=, auto_screenshot=,
    wait_between_actions=, context=)` runs the autonomous agent on the active page."""

    def __init__(self, owner: Any, model: Any, instructions: str | None, tools: dict[str, dict[str, Any]]) -> None:
        if instructions is not None and not isinstance(instructions, str):
            raise type_error("agent instructions must be a string")
        #: The Deckhand instance: its model, system prompt, approval, tools and calls.
        self._owner = owner
        self._model = model
        self._instructions = instructions
        self._tools = tools

    async def execute(
        self, instruction: str | Mapping[str, Any], *, max_steps: int | None = None, auto_screenshot: bool | None = None,
        wait_between_actions: int | None = None, context: str | None = None, approval: ApprovalPolicy | None = None,
        on_approval: ApprovalHandler | None = None,
    ) -> _wire.AgentResult:
        """Run the agent. With `approval` (or the instance's), a risky step waits for
        `on_approval` (or the instance's, or the side panel): 'skip' tells the agent it was
        skipped and it goes on; 'stop', or no answer in time, raises NotApprovedError."""
        asked: dict[str, Any] = {"max_steps": max_steps, "auto_screenshot": auto_screenshot, "wait_between_actions": wait_between_actions, "context": context}
        if isinstance(instruction, Mapping):
            # The earlier dict form may carry the policy and its handler too (executeOptions.approval).
            asked.update({k: v for k, v in instruction.items() if k not in ("approval", "on_approval")})
            approval = instruction.get("approval") if approval is None else approval
            on_approval = instruction.get("on_approval") if on_approval is None else on_approval
        else:
            asked["instruction"] = instruction
        run = known_keys("execute", {k: v for k, v in asked.items() if v is not None}, tuple(_EXECUTE))
        if not isinstance(run.get("instruction"), str):
            raise type_error(f"execute takes an instruction (a string) or a dict of options, got {type(run.get('instruction')).__name__}")
        o = self._owner
        # agent.run's params in the order the Node client writes them; the worker defaults the rest.
        model = o._model(self._model)
        tools = [{"name": n, "description": t["description"], "inputSchema": t["input_schema"]} for n, t in self._tools.items()]
        op_id = str(uuid.uuid4())
        params = {
            "instruction": run["instruction"], "model": model, "executionModel": model,
            **given(systemPrompt=self._instructions or o._o["system_prompt"] or None, maxSteps=run.get("max_steps")),
            **given(approval=approval or o._o["approval"] or None),
            "opId": op_id, **{_EXECUTE[k]: run[k] for k in ("context", "wait_between_actions", "auto_screenshot") if run.get(k)},
            **given(extraTools=tools or None, allowSchemes=list(o._browser.allow_url_schemes) or None),
        }  # fmt: skip
        o._tools.update({n: t["run"] for n, t in self._tools.items()})
        try:
            r = await o._call_cancellable(op_id, "agent.run", params, on_approval)
        finally:
            for n in self._tools:
                o._tools.pop(n, None)
        return parse_answer(_wire.AgentRunResult, r, "agent.run").result
