"""JSON text exactly as JavaScript's JSON.stringify writes it.

The worker and the Node client write frames with JSON.stringify; this writes the same bytes
for the same values, so the Python client's frames are byte-for-byte the Node client's
(test/vectors checks it): no spaces, non-ASCII characters as they are, numbers in
JavaScript's shortest form (`1` for 1.0, `1e+21`, `1e-7`), lone surrogates escaped.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\ud800-\udfff]')


def _escape(m: re.Match[str]) -> str:
    c = m.group(0)
    return _ESCAPES.get(c) or f"\\u{ord(c):04x}"


def js_string(s: str) -> str:
    return '"' + _NEEDS_ESCAPE.sub(_escape, s) + '"'


def js_number(x: float | int) -> str:
    """A number as JavaScript's Number.prototype.toString writes it (non-finite: null)."""
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        if abs(x) < 10**21:
            return str(x)
        x = float(x)
    if not math.isfinite(x):
        return "null"
    if x == 0:
        return "0"
    r = repr(x)  # the shortest digits that round-trip, as JavaScript picks them
    sign = "-" if r.startswith("-") else ""
    r = r.lstrip("-")
    mant, _, exp = r.partition("e")
    int_part, _, frac = mant.partition(".")
    digits = (int_part + frac).lstrip("0")
    # n: position of the decimal point relative to the digits (ECMAScript's n).
    lead_zeros = len(int_part + frac) - len((int_part + frac).lstrip("0"))
    n = len(int_part) - lead_zeros + (int(exp) if exp else 0)
    digits = digits.rstrip("0") or "0"
    k = len(digits)
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        es = f"e{'+' if e >= 0 else '-'}{abs(e)}"
        out = (digits[0] + ("." + digits[1:] if k > 1 else "")) + es
    return sign + out


def dumps(value: Any) -> str:
    """JSON.stringify(value): dict keys in insertion order; None is null."""
    parts: list[str] = []
    _write(value, parts)
    return "".join(parts)


def _write(v: Any, out: list[str]) -> None:
    if v is None:
        out.append("null")
    elif v is True:
        out.append("true")
    elif v is False:
        out.append("false")
    elif isinstance(v, str):
        out.append(js_string(v))
    elif isinstance(v, (int, float)):
        out.append(js_number(v))
    elif isinstance(v, dict):
        out.append("{")
        first = True
        for k, x in v.items():
            if not first:
                out.append(",")
            first = False
            out.append(js_string(str(k)))
            out.append(":")
            _write(x, out)
        out.append("}")
    elif isinstance(v, (list, tuple)):
        out.append("[")
        for i, x in enumerate(v):
            if i:
                out.append(",")
            _write(x, out)
        out.append("]")
    elif hasattr(v, "to_wire"):
        _write(v.to_wire(), out)
    else:
        raise TypeError(f"a {type(v).__name__} cannot be sent as JSON")


def loads(text: str) -> Any:
    return json.loads(text)
