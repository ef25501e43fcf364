"""The browser half of the live path: mirror.js and each plate's glue, joined into CustomJS code.

Every CustomJS of a page gets the same prefix; the files define their objects once per page
(`globalThis.AttentionMirror`, ...) and later callbacks reuse them.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files


@cache
def read_js(name: str) -> str:
    """The text of app/static/NAME."""
    return files("app").joinpath("static", name).read_text(encoding="utf-8")


def custom_js_code(glue: str, call: str, names: list[str]) -> str:
    """Code for a CustomJS: mirror.js, the plate's glue file, then `call` with `a` = the args by name."""
    args = ", ".join(f"{n}: {n}" for n in names)
    return f"{read_js('mirror.js')}\n{read_js(glue)}\nvar a = {{{args}}};\n{call}\n"
