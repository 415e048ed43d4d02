"""The earlier agent interface, `deckhand.agent(...).execute(...)` (src/client/agent-options.ts in
Python): its options are checked by pydantic models rather than by hand, its tools wrapped so
the worker can call them, and the agent.run request built from them."""

from __future__ import annotations

import json
from typing import Any, Awaitable, Callable, Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from . import _wire
from ._wire import AGENT_DEFAULTS
from ._checks import approval_handler, approval_option, json_schema_of, run_user
from ._link import check_ms
from .errors import InvalidArgumentError, type_error
from .options import AgentOptions, AgentTool, ApprovalHandler, ApprovalPolicy, CallbackModel

AGENT_MAX_STEPS = AGENT_DEFAULTS["maxSteps"]
AGENT_TOOL_TIMEOUT_MS = AGENT_DEFAULTS["toolTimeoutMs"]


class _Settings(BaseModel):
    """`agent(options=...)`: the provider settings of a model given by name."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, strict=True)
    api_key: str | None = Field(None, alias="apiKey")
    base_url: str | None = Field(None, alias="baseURL")
    organization: str | None = None


class _Execute(BaseModel):
    """`execute(...)`'s options, with the bounds the worker holds them to."""

    model_config = ConfigDict(extra="forbid", strict=True)
    instruction: str = Field(min_length=1)
    max_steps: int = Field(AGENT_MAX_STEPS, ge=1, le=200)
    auto_screenshot: bool | None = None
    wait_between_actions: int = Field(0, ge=0)
    context: str | None = None


def _first_problem(e: ValidationError, what: str) -> InvalidArgumentError:
    err = e.errors()[0]
    where = ".".join(str(p) for p in err["loc"])
    if err["type"] == "extra_forbidden":
        return InvalidArgumentError(None, f"unknown {what} option {where!r}")
    return InvalidArgumentError(None, f"invalid {what} option {where}: {err['msg'].lower()}, got {err.get('input')!r}")


def agent_model(
    model: str | CallbackModel | None,
    options: AgentOptions | Mapping[str, Any] | None,
    provider: str | None,
    integrations: Sequence[Any] | None,
) -> Any:
    """The model spec an agent runs with (None: the instance's), or a typed error."""
    if provider is not None and provider not in ("openai", "anthropic"):
        raise InvalidArgumentError(None, f"agent provider must be 'openai' or 'anthropic', got {provider!r}")
    if integrations:
        raise InvalidArgumentError(None, "integrations (MCP servers) are not supported by the Python client yet: pass tools= instead")
    if options is not None and not isinstance(options, Mapping):
        raise type_error(f"agent options must be a dict (api_key, base_url, organization), got {type(options).__name__}")
    try:
        o = _Settings.model_validate(dict(options or {}))
    except ValidationError as e:
        raise _first_problem(e, "agent") from None
    given = o.api_key or o.base_url or o.organization
    if callable(model) and not isinstance(model, str):
        if given:
            raise InvalidArgumentError(None, "a callback model cannot also take api_key, base_url or organization: the callback makes its own requests")
        return model
    if model is None:
        return None
    if not isinstance(model, str):
        raise type_error("agent model must be a model name or a generation callback")
    name = f"{provider}/{model}" if provider and "/" not in model else model
    if not given:
        return name
    spec: dict[str, Any] = {"modelName": name}
    if o.api_key:
        spec["apiKey"] = o.api_key
    if o.base_url:
        spec["baseURL"] = o.base_url
    if o.organization:
        spec["headers"] = {"OpenAI-Organization": o.organization}
    return spec


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


def agent_run_params(
    run: _Execute,
    resolved: Any,
    system_prompt: str | None,
    tools: dict[str, Any],
    allow_schemes: Sequence[str],
    op_id: str,
    approval: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """agent.run's params, in the order the Node client writes them."""
    params: dict[str, Any] = {"instruction": run.instruction, "mode": "dom", "model": resolved, "executionModel": resolved}
    if system_prompt:
        params["systemPrompt"] = system_prompt
    params.update({"maxSteps": run.max_steps, "toolTimeout": AGENT_TOOL_TIMEOUT_MS, "highlightCursor": False})
    if approval:
        params["approval"] = approval
    params["opId"] = op_id
    if run.context:
        params["context"] = run.context
    if run.wait_between_actions:
        params["waitBetweenActions"] = run.wait_between_actions
    if run.auto_screenshot:
        params["autoScreenshot"] = True
    if tools:
        params["extraTools"] = [{"name": n, "description": t["description"], "inputSchema": t["input_schema"]} for n, t in tools.items()]
    if allow_schemes:
        params["allowSchemes"] = list(allow_schemes)
    return params


def agent_deadline_ms(max_steps: int, cap_ms: float) -> float:
    """How long an agent run may take before the call gives up: every step's tools, bounded."""
    return min(max_steps * (AGENT_TOOL_TIMEOUT_MS * 3 + 10_000), cap_ms)


AgentRunner = Callable[[_Execute, Any, "str | None", dict[str, Any], "dict[str, Any] | None", "ApprovalHandler | None"], Awaitable[_wire.AgentResult]]


class Agent:
    """`deckhand.agent(...)`: `await agent.execute(instruction, max_steps=, auto_screenshot=,
    wait_between_actions=, context=)` runs the autonomous agent on the active page."""

    def __init__(self, runner: AgentRunner, model: Any, instructions: str | None, tools: dict[str, dict[str, Any]]) -> None:
        if instructions is not None and not isinstance(instructions, str):
            raise type_error("agent instructions must be a string")
        self._runner = runner
        self._model = model
        self._instructions = instructions
        self._tools = tools

    async def execute(
        self,
        instruction: str | Mapping[str, Any],
        *,
        max_steps: int | None = None,
        auto_screenshot: bool | None = None,
        wait_between_actions: int | None = None,
        context: str | None = None,
        approval: ApprovalPolicy | None = None,
        on_approval: ApprovalHandler | None = None,
    ) -> _wire.AgentResult:
        """Run the agent. With `approval` (or the instance's), a risky step waits for
        `on_approval` (or the instance's, or the side panel): 'skip' tells the agent it was
        skipped and it goes on; 'stop', or no answer in time, raises NotApprovedError."""
        given: dict[str, Any] = {"max_steps": max_steps, "auto_screenshot": auto_screenshot, "wait_between_actions": wait_between_actions, "context": context}
        if isinstance(instruction, Mapping):
            given.update(instruction)
            # The earlier dict form may carry the policy too (executeOptions.approval).
            in_dict, handler_in_dict = given.pop("approval", None), given.pop("on_approval", None)
            approval = in_dict if approval is None else approval
            on_approval = handler_in_dict if on_approval is None else on_approval
        elif isinstance(instruction, str):
            given["instruction"] = instruction
        else:
            raise type_error(f"execute takes an instruction (a string) or a dict of options, got {type(instruction).__name__}")
        policy = approval_option("execute", approval)
        approval_handler("execute", on_approval)
        if not isinstance(given.get("instruction"), str):
            raise type_error(f"execute: the instruction must be a string, got {type(given.get('instruction')).__name__}")
        if not given["instruction"]:
            raise InvalidArgumentError(None, "invalid agentExecute request: executeOptions.instruction: instruction must not be empty")
        if given.get("wait_between_actions"):
            check_ms("wait_between_actions", given["wait_between_actions"], minimum=0)
        try:
            run = _Execute.model_validate({k: v for k, v in given.items() if v is not None})
        except ValidationError as e:
            raise _first_problem(e, "execute") from None
        return await self._runner(run, self._model, self._instructions, self._tools, policy, on_approval)

