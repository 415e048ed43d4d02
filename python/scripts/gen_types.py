"""Generate deckhand/_wire.py, pydantic v2 models of every wire shape, from the repository's
JSON Schema (schema/deckhand.schema.json, itself generated from the zod schemas in
src/protocol). Run it after `npm run schema`:

    python python/scripts/gen_types.py

python/tests/test_types.py fails while the generated file is stale.

Rules: every definition becomes a class (objects), a Literal (enums and consts), a Union
(anyOf) or an annotated alias (numbers and strings with bounds). Fields are snake_case with
the wire name as alias (`missReason` -> `miss_reason`); `schema` is `json_schema`, since
pydantic reserves `schema`. Objects that refuse unknown properties (`additionalProperties:
false`, zod's .strict()) forbid extra fields; the others ignore them, as zod does. Inline
objects become classes named after their place (`CacheInfo.tokensSaved` ->
`CacheInfoTokensSaved`).
"""

from __future__ import annotations

import json
import keyword
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schema" / "deckhand.schema.json"
OUT = ROOT / "python" / "src" / "deckhand" / "_wire.py"

RENAMES = {"schema": "json_schema"}
# Shapes a caller writes as dicts (a ModelConfig, an approval policy, a locator): each also gets
# a TypedDict, `<Name>Dict`, with the same fields in snake_case, for type checkers.
TYPED_DICTS = ["GenericModelConfig", "AzureApiKeyModelConfig", "AzureEntraModelConfig", "VertexModelConfig", "ApprovalPolicy", "LocatorSpec"]
# Error classes: the code in PascalCase with Error after it (PROTOCOL_ERROR: ProtocolError), but for
# these names, and with these built-in exceptions as second bases, so `except TimeoutError` works.
ERROR_NAMES = {"TIMEOUT": "DeckhandTimeoutError", "CANCELLED": "OperationCancelledError"}
ERROR_BASES = {
    "INVALID_ARGUMENT": "ValueError",
    "INVALID_SELECTOR": "ValueError",
    "UNSUPPORTED_METHOD": "ValueError",
    "TIMEOUT": "TimeoutError",
    "WORKER_GONE": "ConnectionError",
    "BROWSER_CLOSED": "ConnectionError",
    "BROWSER_UNAVAILABLE": "ConnectionError",
}
RESERVED = {"model_config", "model_fields", "copy", "dict", "json", "validate", "construct", "fields"}


def snake(name: str) -> str:
    if name in RENAMES:
        return RENAMES[name]
    s = re.sub(r"[^A-Za-z0-9_]", "_", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", s).lower()
    if keyword.iskeyword(s) or s in RESERVED:
        s += "_"
    return s


def pascal(name: str) -> str:
    parts = re.split(r"[^A-Za-z0-9]+", name)
    return "".join(p[:1].upper() + p[1:] for p in parts if p)


class Gen:
    def __init__(self, doc: dict) -> None:
        self.defs: dict = doc["definitions"]
        self.classes: list[str] = []  # class source blocks, in order
        self.class_names: list[str] = []
        self.simple_aliases: list[str] = []  # no reference to a class
        self.complex_aliases: list[tuple[str, str, set[str]]] = []  # (name, source, names used)
        self.exported: list[str] = []
        self.dicts: list[str] = []  # TypedDict source blocks, each after those it names
        self.dict_names: list[str] = []
        self.flags: list[str] = doc["x-deckhand"]["chromiumFlags"]
        self.shared_flags: list[str] = doc["x-deckhand"]["sharedChromiumFlags"]
        self.schema_limits: dict = doc["x-deckhand"]["schemaLimits"]
        self.cache_migrations: list[str] = doc["x-deckhand"]["sqliteCacheMigrations"]
        self.provider_env: dict = doc["x-deckhand"]["providerEnv"]
        self.cache_statements: dict = doc["x-deckhand"]["sqliteCacheStatements"]
        self.cache_bounds: dict = doc["x-deckhand"]["cacheBounds"]
        self.defaults: dict = doc["x-deckhand"]["defaults"]
        self.agent_defaults: dict = doc["x-deckhand"]["agentDefaults"]
        self.errors: dict = doc["x-deckhand"]["errors"]
        self.locator_methods: dict = doc["x-deckhand"]["locatorMethods"]
        keys = ("opId", "timeout", "deadline", "instruction")
        self.operations = {m: {k: d[k] for k in keys if k in d} for m, d in doc["x-deckhand"]["methods"].items() if "opId" in d}

    # -- type expressions ---------------------------------------------------------------
    def expr(self, s: dict | bool, ctx: str, used: set[str]) -> str:
        if s is True or s == {}:
            return "Any"
        if "$ref" in s:
            name = s["$ref"].split("/")[-1]
            used.add(name)
            return name
        if "anyOf" in s:
            members = s["anyOf"]
            names = self._member_names(members, ctx)
            parts = [self.expr(m, n, used) for m, n in zip(members, names)]
            return f"Union[{', '.join(dict.fromkeys(parts))}]"
        if "const" in s:
            return f"Literal[{s['const']!r}]"
        if "enum" in s:
            return f"Literal[{', '.join(repr(v) for v in s['enum'])}]"
        t = s.get("type")
        if isinstance(t, list):
            parts = [self.expr({**s, "type": x}, ctx, used) for x in t]
            return f"Union[{', '.join(parts)}]" if len(parts) > 1 else parts[0]
        if t == "object":
            if s.get("properties"):
                self.klass(ctx, s)
                used.add(ctx)
                return ctx
            ap = s.get("additionalProperties", True)
            return f"Dict[str, {self.expr(ap, ctx + 'Value', used) if isinstance(ap, dict) else 'Any'}]"
        if t == "array":
            inner = self.expr(s.get("items", {}), ctx + "Item", used)
            return self._annotated(f"List[{inner}]", s)
        prim = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}.get(t)
        if prim is None:
            return "Any"
        return self._annotated(prim, s)

    def _member_names(self, members: list, ctx: str) -> list[str]:
        if sum(1 for m in members if m.get("type") != "null") == 1:  # T | null: T keeps the place's name
            return [ctx for _ in members]
        names = []
        for i, m in enumerate(members):
            tag = None
            for k, v in (m.get("properties") or {}).items():
                if isinstance(v, dict) and isinstance(v.get("const"), str):
                    tag = pascal(v["const"])
                    break
            names.append(f"{ctx}{tag or i}")
        if len(set(names)) != len(names):
            names = [f"{ctx}{i}" for i in range(len(members))]
        return names

    def _annotated(self, base: str, s: dict) -> str:
        c = self.constraints(s)
        return f"Annotated[{base}, Field({c})]" if c else base

    @staticmethod
    def constraints(s: dict) -> str:
        out = []
        for key, arg in (("minLength", "min_length"), ("maxLength", "max_length"), ("minItems", "min_length"), ("maxItems", "max_length"),
                         ("minimum", "ge"), ("maximum", "le"), ("exclusiveMinimum", "gt"), ("exclusiveMaximum", "lt")):
            if key in s:
                out.append(f"{arg}={s[key]!r}")
        if "pattern" in s:
            out.append(f"pattern={s['pattern']!r}")
        return ", ".join(out)

    # -- classes ------------------------------------------------------------------------
    def klass(self, name: str, s: dict) -> None:
        if name in self.class_names:
            return
        self.class_names.append(name)
        required = set(s.get("required", []))
        extra = "forbid" if s.get("additionalProperties") is False else "ignore"
        lines = [f"class {name}(WireModel):"]
        desc = s.get("description")
        if desc:
            lines.append(f"    {json.dumps(desc)}")
        lines.append(f"    model_config = ConfigDict(extra={extra!r}, populate_by_name=True, protected_namespaces=())")
        lines.append("")
        for prop, ps in s["properties"].items():
            used: set[str] = set()
            t = self.expr(ps, name + pascal(prop), used)
            field = snake(prop)
            args = [f"alias={prop!r}"] if field != prop else []
            if prop in required:
                lines.append(f"    {field}: {t}" + (f" = Field({', '.join(args)})" if args else ""))
            else:
                if isinstance(ps, dict) and "default" in ps:
                    d = ps["default"]
                    if d == []:
                        args.insert(0, "default_factory=list")
                    elif d == {}:  # an empty object: a fresh one per instance, of the field's class
                        args.insert(0, f"default_factory=lambda: {t}()" if self._is_class(ps) else "default_factory=dict")
                    else:
                        args.insert(0, f"default={d!r}")
                else:
                    args.insert(0, "default=None")
                    t = f"Optional[{t}]"
                lines.append(f"    {field}: {t} = Field({', '.join(args)})")
        self.classes.append("\n".join(lines))

    def _is_class(self, s: dict) -> bool:
        """Whether a property's schema becomes a generated class (an object with properties)."""
        if "$ref" in s:
            s = self.defs[s["$ref"].split("/")[-1]]
        return s.get("type") == "object" and bool(s.get("properties"))

    # -- definitions --------------------------------------------------------------------
    def definition(self, name: str, s: dict) -> None:
        self.exported.append(name)
        if s.get("type") == "object" and s.get("properties"):
            self.klass(name, s)
            return
        used: set[str] = set()
        t = self.expr(s, name, used)
        src = f"{name} = {t}"
        if used:
            self.complex_aliases.append((name, src, used))
        else:
            self.simple_aliases.append(src)

    def dict_expr(self, s: dict, ctx: str) -> str:
        """A type for a TypedDict field: objects as TypedDicts (`...Dict`), the rest as in expr()."""
        if "$ref" in s:
            name = s["$ref"].split("/")[-1]
            target = self.defs[name]
            if target.get("type") == "object" and target.get("properties") or "anyOf" in target and all(m.get("properties") for m in target["anyOf"]):
                return self.dict_expr(target, name)
            return self.expr(s, ctx, set())
        if "anyOf" in s and all(m.get("properties") for m in s["anyOf"]):
            return f"Union[{', '.join(self.dict_expr(m, f'{ctx}{i}') for i, m in enumerate(s['anyOf']))}]"
        if s.get("type") == "object" and s.get("properties"):
            name = f"{ctx}Dict"
            if name not in self.dict_names:
                self.dict_names.append(name)
                required = set(s.get("required", []))
                lines = [f"class {name}(TypedDict, total=False):"]
                if s.get("description"):
                    lines.append(f"    {json.dumps(s['description'])}")
                for prop, ps in s["properties"].items():
                    t = self.dict_expr(ps, ctx + pascal(prop))
                    lines.append(f"    {snake(prop)}: {f'Required[{t}]' if prop in required else t}")
                self.dicts.append("\n".join(lines))
            return name
        return self.expr(s, ctx, set())

    def locator_actions(self) -> str:
        """Locator's methods that send one action (x-deckhand.locatorMethods), for Locator to inherit."""
        lines = [
            "class LocatorActions:",
            '    """The methods of a Locator that send one action (locator.act); Locator has them."""',
            "",
            "    async def _run(self, method: str, args: List[str], timeout: Optional[float]) -> None:",
            "        raise NotImplementedError",
        ]
        for name, m in self.locator_methods.items():
            arg, kind = m.get("arg"), "Union[str, Sequence[str]]" if m.get("list") else "str"
            params = f"{arg}: {kind}, *, timeout" if arg else "*, timeout"
            value = (f"[{arg}] if isinstance({arg}, str) else list({arg})" if m.get("list") else f"[{arg}]") if arg else "[]"
            lines += ["", f"    async def {snake(name)}(self, {params}: Optional[float] = None) -> None:"]
            lines += [f"        {json.dumps(m['doc'][0].upper() + m['doc'][1:] + '.', ensure_ascii=False)}"]
            lines += [f"        await self._run({m['action']!r}, {value}, timeout)"]
        return "\n".join(lines)

    def error_classes(self) -> list[str]:
        """One exception class per error code, its docstring the code's meaning."""
        out, names = [], []
        for code, e in self.errors.items():
            name = ERROR_NAMES.get(code) or pascal(code.lower()).removesuffix("Error") + "Error"
            base = ERROR_BASES.get(code)
            doc = e["doc"] + (f" Also a {base}." if base else "")
            bases = "DeckhandError" + (f", {base}" if base else "")
            out.append(f'class {name}({bases}, code={code!r}):\n    {json.dumps(doc, ensure_ascii=False)}')
            names.append(name)
        out.append("# `from ._wire import *` (deckhand.errors) gives the error classes.")
        out.append(f"__all__ = {json.dumps(names)}")
        return out

    def render(self) -> str:
        for name in sorted(self.defs):
            self.definition(name, self.defs[name])
        # Aliases that name classes or other aliases: after the classes, in dependency order.
        ordered: list[str] = []
        pending = list(self.complex_aliases)
        done = set(self.class_names)
        alias_names = {n for n, _, _ in self.complex_aliases}
        while pending:
            for item in pending:
                n, src, used = item
                if all(u in done or u not in alias_names for u in used):
                    ordered.append(src)
                    done.add(n)
                    pending.remove(item)
                    break
            else:
                raise SystemExit(f"circular aliases: {[p[0] for p in pending]}")
        head = '''"""Pydantic models of Deckhand's wire shapes.

Generated by python/scripts/gen_types.py from schema/deckhand.schema.json (itself generated
from the zod schemas in src/protocol). Do not edit: run `npm run schema`, then
`python python/scripts/gen_types.py`. Fields are snake_case; each keeps its wire name as its
alias, and `to_wire()` gives the wire form back.
"""
# ruff: noqa
from __future__ import annotations

from typing import Annotated, Any, Dict, List, Literal, Optional, Required, Sequence, TypedDict, Union

from pydantic import BaseModel, ConfigDict, Field

from ._error_base import DeckhandError


class WireModel(BaseModel):
    """Base of every generated model: snake_case fields, wire names as aliases."""

    model_config = ConfigDict(populate_by_name=True, protected_namespaces=())

    def to_wire(self) -> Dict[str, Any]:
        """The wire form: the fields that were set, under their wire names."""
        return self.model_dump(by_alias=True, exclude_unset=True, mode="json")
'''
        body = [head, "", *self.simple_aliases, "", ""]
        body.append("\n\n\n".join(self.classes))
        body += ["", "", *ordered, "", ""]
        body.append("_MODELS: List[type[WireModel]] = [" + ", ".join(self.class_names) + "]")
        body.append("for _m in _MODELS:\n    _m.model_rebuild()")
        body.append("")
        body.append(f"DEFINITIONS = {json.dumps(sorted(self.exported))}")
        for name in TYPED_DICTS:
            self.dict_expr(self.defs[name], name)
        body += ["", "", "\n\n\n".join(self.dicts), ""]
        body.append("")
        body.append("# The Chromium switches a launcher passes to a Chromium it starts itself (x-deckhand.chromiumFlags).")
        body.append(f"CHROMIUM_FLAGS = {json.dumps(self.flags)}")
        body.append("")
        body.append("# The part of them every launcher passes, a Selenium Grid launcher too (x-deckhand.sharedChromiumFlags).")
        body.append(f"SHARED_CHROMIUM_FLAGS = {json.dumps(self.shared_flags)}")
        body.append("")
        body.append("# How deep (JSON nesting) and large (values) a schema for extract may be (x-deckhand.schemaLimits).")
        body.append(f"SCHEMA_LIMITS = {json.dumps(self.schema_limits)}")
        body.append("")
        body.append("# The result cache's SQLite migrations, in order (x-deckhand.sqliteCacheMigrations).")
        body.append(f"SQLITE_CACHE_MIGRATIONS = {json.dumps(self.cache_migrations, indent=4)}")
        body.append("")
        body.append("# The statements a cache store runs, with their positional parameters, and how many entries a tenant keeps")
        body.append("# (x-deckhand.sqliteCacheStatements, cacheBounds).")
        body.append(f"SQLITE_CACHE_STATEMENTS: dict[str, dict[str, Any]] = {json.dumps(self.cache_statements, indent=4)}")
        body.append(f"CACHE_BOUNDS: dict[str, int] = {json.dumps(self.cache_bounds)}")
        body.append("")
        body.append("# Where a provider's key (first set wins) and endpoint are read from the operator's environment, every variable")
        body.append("# its model reads (sent along with a NamedModel), and the default model by the first key set (x-deckhand.providerEnv).")
        body.append(f"PROVIDER_ENV_KEYS: dict[str, list[str]] = {json.dumps(self.provider_env['keys'])}")
        body.append(f"PROVIDER_ENV_BASE_URLS: dict[str, str] = {json.dumps(self.provider_env['baseUrls'])}")
        body.append(f"PROVIDER_ENV_NAMES: dict[str, list[str]] = {json.dumps(self.provider_env['names'])}")
        body.append(f"PROVIDER_DEFAULT_MODELS: list[list[str]] = {json.dumps(self.provider_env['defaults'])}")
        body.append("")
        body.append("# The default deadlines and bounds every client and the worker share (x-deckhand.defaults, agentDefaults).")
        body.append(f"DEFAULTS: dict[str, int] = {json.dumps(self.defaults)}")
        body.append(f"AGENT_DEFAULTS: dict[str, int] = {json.dumps(self.agent_defaults)}")
        body.append("")
        body.append("# The methods that are operations: where their opId and timeout sit (dotted paths), and which")
        body.append("# deadline applies without a timeout (x-deckhand.methods).")
        body.append(f"OPERATIONS: dict[str, dict[str, str]] = {json.dumps(self.operations, indent=4)}")
        body.append("")
        body.append("")
        body.append("# The methods that send one action, declared once (x-deckhand.locatorMethods).")
        body.append(self.locator_actions())
        body.append("")
        body.append("")
        body.append("# The error codes' classes (x-deckhand.errors), each registered with its code by DeckhandError.")
        body.append("\n\n\n".join(self.error_classes()[:-2]))
        body.append("")
        body.append("")
        body += self.error_classes()[-2:]
        body.append("")
        return "\n".join(body)


def generate() -> str:
    return Gen(json.loads(SCHEMA.read_text())).render()


if __name__ == "__main__":
    text = generate()
    if "--check" in sys.argv:
        sys.exit(0 if OUT.exists() and OUT.read_text() == text else 1)
    OUT.write_text(text)
    print(f"wrote {OUT.relative_to(ROOT)}")
