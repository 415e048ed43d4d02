"""The Python client's public API as Markdown, from the package itself: its exported names
(`__all__` of `deckhand` and of `deckhand.sync`), their signatures and docstrings. Run by
scripts/gen-reference.ts with the project's Python and PYTHONPATH=python/src.

`python_api.py` prints the page body; `python_api.py --errors` prints JSON mapping each error
code to its exception class and docstring, for the error-code page.
"""

from __future__ import annotations

import enum
import importlib
import inspect
import json
import re
import sys
import textwrap
import typing
from typing import Any

PACKAGE = "deckhand"
# A table cell ends at `|`; f-strings cannot hold the backslash.
PIPE, ESCAPED_PIPE = "|", "\\|"


def prose(text: str) -> str:
    """Docstring text set in Markdown: `<` outside code spans would open an HTML tag."""
    parts = re.split(r"(`[^`]*`)", text)
    return "".join(p if i % 2 else p.replace("<", "&lt;") for i, p in enumerate(parts))


def doc_of(obj: Any) -> str:
    doc = obj.__doc__ if isinstance(obj, (type, property)) or callable(obj) or inspect.ismodule(obj) else None
    if not doc:
        return ""
    # A module's docstring is written flush left; cleandoc would also strip its examples' indent.
    return fence_examples(doc.strip("\n") if inspect.ismodule(obj) else inspect.cleandoc(doc))


def fence_examples(doc: str) -> str:
    """Prose through prose(); an indented run after a blank line (an example) as a Python code block."""
    out: list[str] = []
    example: list[str] = []
    previous_blank = True

    def flush() -> None:
        if example:
            while example and not example[-1].strip():
                example.pop()
            out.extend(["```python", *textwrap.dedent("\n".join(example)).split("\n"), "```"])
            example.clear()

    for line in doc.split("\n"):
        indented = line.startswith("    ") and line.strip()
        if example and (indented or not line.strip()):
            example.append(line)
        elif indented and previous_blank:
            example.append(line)
        else:
            flush()
            if out and out[-1] == "```" and line.strip():
                out.append("")
            out.append(prose(line))
        previous_blank = not line.strip()
    flush()
    return "\n".join(out)


def first_paragraph(text: str) -> str:
    """The part of a docstring a table cell has room for: up to its first blank line, on one line."""
    return " ".join(text.strip().split("\n\n")[0].split()).replace("|", "\\|")


def fmt_type(t: Any) -> str:
    """A runtime annotation (a pydantic field's) as source-like text, without Annotated's constraints."""
    origin, args = typing.get_origin(t), typing.get_args(t)
    if origin is typing.Annotated:
        return fmt_type(args[0])
    if origin is typing.Union or type(t).__name__ == "UnionType":
        return " | ".join(fmt_type(a) for a in args)
    if origin is typing.Literal:
        return f"Literal[{', '.join(repr(a) for a in args)}]"
    if origin is not None:
        name = getattr(origin, "__name__", None) or type_text(origin)
        return f"{name}[{', '.join(fmt_type(a) for a in args)}]" if args else name
    if t is type(None):
        return "None"
    if isinstance(t, type):
        return t.__name__
    return type_text(t)


def type_text(t: Any) -> str:
    """A readable annotation: `list[Action]` rather than `typing.List[deckhand._wire.Action]`."""
    text = t if isinstance(t, str) else (t.__name__ if isinstance(t, type) else repr(t))
    text = re.sub(r"\b(typing|typing_extensions|collections\.abc)\.", "", text)
    text = re.sub(r"\bdeckhand\.(?:[_a-z]+\.)*", "", text)
    text = re.sub(r"(?<![\w.])_[a-z_]+\.", "", text)  # the package's private modules (_wire.Action)
    if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]  # a forward reference: "Deckhand"
    return text.replace("NoneType", "None")


class _Raw:
    """An annotation kept as source text: str(Signature) would print a string annotation quoted."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _raw(annotation: Any) -> Any:
    if annotation is inspect.Parameter.empty:
        return annotation
    return _Raw(type_text(annotation))


def signature(obj: Any, drop_first: bool) -> str:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return "(...)"
    params = [p.replace(annotation=_raw(p.annotation)) for p in sig.parameters.values()]
    if drop_first and params and params[0].name in ("self", "cls"):
        params = params[1:]
    return str(sig.replace(parameters=params, return_annotation=_raw(sig.return_annotation)))


def own_module(obj: Any) -> bool:
    return (getattr(obj, "__module__", "") or "").split(".")[0] == PACKAGE


def code(lines: list[str]) -> list[str]:
    return ["```python", *lines, "```", ""]


def members(cls: type) -> list[tuple[str, Any]]:
    """Public attributes a class defines or inherits from the package's own classes, in definition order."""
    seen: dict[str, Any] = {}
    for base in cls.__mro__:
        if base is not cls and not own_module(base):
            continue
        for name, value in vars(base).items():
            if name.startswith("_") or name in seen:
                continue
            seen[name] = value
    return list(seen.items())


def render_method(owner: str, name: str, value: Any, out: list[str]) -> None:
    if isinstance(value, property):
        returned = type_text(inspect.signature(value.fget).return_annotation) if value.fget else "Any"
        out += [f"#### {owner}.{name}", "", *code([f"{name}: {returned}  # property"])]
    elif isinstance(value, (classmethod, staticmethod)):
        fn = value.__func__
        prefix = "async def" if inspect.iscoroutinefunction(fn) else "def"
        deco = "@classmethod" if isinstance(value, classmethod) else "@staticmethod"
        out += [f"#### {owner}.{name}", "", *code([deco, f"{prefix} {name}{signature(fn, isinstance(value, classmethod))}"])]
        value = fn
    elif inspect.isfunction(value):
        prefix = "async def" if inspect.iscoroutinefunction(value) else "def"
        out += [f"#### {owner}.{name}", "", *code([f"{prefix} {name}{signature(value, True)}"])]
    else:
        return
    doc = doc_of(value)
    if doc:
        out += [doc, ""]


def render_fields(cls: type, out: list[str]) -> None:
    """A pydantic model's fields (with their wire names) or a TypedDict's keys, as a table."""
    rows: list[str] = []
    model_fields = getattr(cls, "model_fields", None)
    if isinstance(model_fields, dict) and model_fields:
        for name, f in model_fields.items():
            wire = f" (`{f.alias}`)" if f.alias and f.alias != name else ""
            desc = (f.description or "").replace("\n", " ").replace("|", "\\|")
            rows.append(f"| `{name}`{wire} | `{fmt_type(f.annotation).replace(PIPE, ESCAPED_PIPE)}` | {'yes' if f.is_required() else ''} | {prose(desc)} |")
    elif typing.is_typeddict(cls):
        required = getattr(cls, "__required_keys__", frozenset())
        for name, ann in getattr(cls, "__annotations__", {}).items():
            # With postponed annotations the keys' types are ForwardRefs, and NotRequired[...] in
            # them is not seen by __required_keys__: read the source text.
            text = type_text(getattr(ann, "__forward_arg__", ann))
            is_required = name in required
            m = re.fullmatch(r"(NotRequired|Required)\[(.*)\]", text)
            if m:
                is_required, text = m.group(1) == "Required", m.group(2)
            ann_text = text.replace("|", "\\|")
            rows.append(f"| `{name}` | `{ann_text}` | {'yes' if is_required else ''} | |")
    if rows:
        out += ["| field | type | required | description |", "|---|---|---|---|", *rows, ""]


def is_error_leaf(obj: Any) -> bool:
    """An exception subclass that only names a code: listed in a table, not each under a heading."""
    if not (isinstance(obj, type) and issubclass(obj, BaseException) and isinstance(getattr(obj, "code", None), str)):
        return False
    own = [n for n in vars(obj) if not n.startswith("_") and n != "code"]
    return not own and obj.__name__ != "DeckhandError"


def render_class(name: str, cls: type, out: list[str]) -> None:
    bases = [b.__name__ for b in cls.__bases__ if b is not object]
    head = f"class {name}({', '.join(bases)})" if bases else f"class {name}"
    out += [f"### {name}", "", *code([head])]
    doc = doc_of(cls)
    if doc:
        out += [doc, ""]
    render_fields(cls, out)
    if getattr(cls, "model_fields", None) is not None or typing.is_typeddict(cls):
        return
    if issubclass(cls, enum.Enum):
        out += code([f"{m.name} = {m.value!r}" for m in cls])
        return
    for member_name, value in members(cls):
        render_method(name, member_name, value, out)


def render_name(module: Any, name: str, out: list[str]) -> None:
    obj = getattr(module, name)
    if inspect.ismodule(obj):
        return  # modules get a section of their own
    if isinstance(obj, type):
        render_class(name, obj, out)
    elif inspect.isfunction(obj):
        prefix = "async def" if inspect.iscoroutinefunction(obj) else "def"
        out += [f"### {name}", "", *code([f"{prefix} {name}{signature(obj, False)}"])]
        doc = doc_of(obj)
        if doc:
            out += [doc, ""]
    elif own_module(type(obj)) and not isinstance(obj, (str, int, float, bool)):
        # An object with methods (local_browser): its methods, as `name.method`.
        out += [f"### {name}", ""]
        doc = doc_of(type(obj))
        if doc:
            out += [doc, ""]
        for member_name, value in members(type(obj)):
            render_method(name, member_name, value, out)
    elif isinstance(obj, (str, int, float, bool)):
        out += [f"### {name}", "", *code([f"{name} = {obj!r}"])]
    else:
        # A type alias (a Union, a Literal, ...).
        out += [f"### {name}", "", *code([f"{name} = {type_text(obj)}"])]


def render_module(module: Any, out: list[str]) -> None:
    out += [f"## {module.__name__}", ""]
    doc = doc_of(module)
    if doc:
        out += [doc, ""]
    names = list(getattr(module, "__all__", []))
    leaves = [n for n in names if is_error_leaf(getattr(module, n))]
    for name in names:
        if name not in leaves:
            render_name(module, name, out)
    if leaves:
        out += ["### One class per code", "", "| class | code | meaning |", "|---|---|---|"]
        for name in leaves:
            cls = getattr(module, name)
            out.append(f"| `{name}` | `{cls.code}` | {first_paragraph(doc_of(cls))} |")
        out.append("")


def errors_json() -> str:
    errors = importlib.import_module(f"{PACKAGE}.errors")
    # ERROR_CLASSES: the class each code is raised as.
    table = {code: {"class": cls.__name__, "doc": first_paragraph(inspect.cleandoc(cls.__doc__ or ""))} for code, cls in errors.ERROR_CLASSES.items()}
    return json.dumps(table)


def main() -> None:
    if sys.argv[1:] == ["--errors"]:
        print(errors_json())
        return
    root = importlib.import_module(PACKAGE)
    out = [
        f"The `{PACKAGE}` package, version {getattr(root, '__version__', '?')}: every name it exports (`{PACKAGE}.__all__`), "
        "the modules among them, then the blocking API (`deckhand.sync`).",
        "",
    ]
    render_module(root, out)
    for name in root.__all__:
        obj = getattr(root, name)
        if inspect.ismodule(obj):
            render_module(obj, out)
    render_module(importlib.import_module(f"{PACKAGE}.sync"), out)
    print("\n".join(out))


if __name__ == "__main__":
    main()
