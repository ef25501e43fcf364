"""The base of every plate's state: a param.Parameterized whose URL fields round-trip through the address.

Each plate lists the parameters that belong in a link in `url_fields`. `to_url()` writes them
(only those that differ from the default, so a fresh plate has a clean address), and
`apply_url()` reads them back forgivingly: an unknown name is ignored, a value out of bounds
is clamped (an angle wrapped), a value that cannot be read is ignored, a setting given twice is
read once (the first), and each of these returns a short notice for the page to show. Nothing a
URL says can make the state invalid, and nothing it says is changed or dropped without a word.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable, Mapping, Sequence

import param

from app.shared.formatting import fix

MAX_URL_VALUE = 200  # characters; longer values are ignored unread
# Page settings that are not a plate's state (read by app/runtime/page.js).
PAGE_PARAMS = ("embed", "theme", "hide", "present", "scene", "still", "plate", "workarounds")
# The values page.js acts on; any other value leaves the page as it is, and says so.
PAGE_CHOICES = {"embed": ("0", "1"), "present": ("0", "1"), "still": ("0", "1"), "theme": ("light", "dark")}
CONTROL_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,39}", re.ASCII)  # what ?hide= can name (fullmatch)
# A plain decimal number; the same pattern as the browser's (app/runtime/ and app/plates/*/*.js), so a link
# means the same thing served and exported ('nan', 'inf', '0x10', '1_000' are refused).
NUMBER = re.compile(r"^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$", re.ASCII)


class PlateState(param.Parameterized):
    """Common behaviour of the plates' states (subclasses declare the parameters)."""

    url_fields: tuple[str, ...] = ()
    # Number fields whose range is a circle (an angle in degrees): a link's value outside it is
    # the same direction, wrapped into it (-30 -> 330), not moved to the nearest end.
    url_wrapped: tuple[str, ...] = ()

    def reset(self) -> None:
        """Every URL field back to its default."""
        self.param.update({n: self.param[n].default for n in self.url_fields})

    # --- writing -------------------------------------------------------------------------
    def url_value(self, name: str) -> str:
        v = getattr(self, name)
        p = self.param[name]
        if isinstance(p, param.Boolean):
            return "1" if v else "0"
        if isinstance(p, param.Number) and not isinstance(p, param.Integer):
            return f"{v:.6g}"
        return str(v)

    def to_url(self) -> dict[str, str]:
        """The URL fields that differ from their defaults, as strings."""
        out = {}
        for name in self.url_fields:
            value = self.url_value(name)
            if value != self._default_url_value(name):
                out[name] = value
        return out

    def _default_url_value(self, name: str) -> str:
        current = getattr(self, name)
        try:
            with param.parameterized.discard_events(self):
                setattr(self, name, self.param[name].default)
                return self.url_value(name)
        finally:
            with param.parameterized.discard_events(self):
                setattr(self, name, current)

    # --- reading -------------------------------------------------------------------------
    def url_spec(self) -> dict:
        """How to read and write this state's link without Python: app/runtime/link.js follows
        apply_url's and to_url's rules with it. Fields that are not a boolean, a selector or a
        number are "custom": the plate's glue parses and writes them."""
        fields = {}
        for name in self.url_fields:
            p = self.param[name]
            if isinstance(p, param.Boolean):
                fields[name] = {"type": "bool"}
            elif isinstance(p, param.Selector):
                fields[name] = {"type": "select", "objects": list(p.objects)}
            elif isinstance(p, param.Number):
                kind = "integer" if isinstance(p, param.Integer) else "number"
                fields[name] = {"type": kind, "bounds": list(p.bounds) if p.bounds else None}
                if name in self.url_wrapped:
                    fields[name]["wrap"] = True
            else:
                fields[name] = {"type": "custom"}
            fields[name]["default"] = self.url_default(name)
        return {"fields": fields, "max_value": MAX_URL_VALUE, "page_params": list(PAGE_PARAMS)}

    def url_default(self, name: str):
        """The default of `name` as JSON (link.js leaves a field at its default out of the address)."""
        d = self.param[name].default
        return d.tolist() if hasattr(d, "tolist") else d

    def parse_url_value(self, name: str, text: str):
        """Turn `text` into a valid value for `name`; raise ValueError with a reason if it can't be."""
        p = self.param[name]
        if isinstance(p, param.Boolean):
            t = text.strip().lower()
            if t in ("1", "true", "yes", "on"):
                return True
            if t in ("0", "false", "no", "off"):
                return False
            raise ValueError("expected 0 or 1")
        if isinstance(p, param.Selector):
            for obj in p.objects:
                if str(obj) == text.strip():
                    return obj
            raise ValueError("expected one of " + ", ".join(map(str, p.objects)))
        if isinstance(p, param.Number):
            if not NUMBER.match(text):
                raise ValueError("not a number")
            x = float(text)
            if not math.isfinite(x):
                raise ValueError("not a finite number")
            lo, hi = p.bounds or (None, None)
            if name in self.url_wrapped and lo is not None and hi is not None and not lo <= x <= hi:
                return wrapped(x, lo, hi)
            if lo is not None and x < lo:
                x = lo
            if hi is not None and x > hi:
                x = hi
            return int(round(x)) if isinstance(p, param.Integer) else x
        raise ValueError("this field cannot be set from a link")

    def apply_url(self, args: LinkArgs) -> list[str]:
        """Set the URL fields found in `args`; return a notice for each one ignored or changed."""
        updates, notices = self.read_url(args)
        if updates:
            self.param.update(updates)
        return notices

    def read_url(self, args: LinkArgs) -> tuple[dict, list[str]]:
        """The URL fields' values found in `args` (read, clamped, not yet set) and a notice for
        each one ignored or changed: the one reading of a link, which a plate's apply_url may
        then set in an order of its own. `args` maps a name to its text, or to its texts in
        order when the link gives it more than once (link_args): the first is read."""
        notices: list[str] = []
        updates = {}
        for name, given in args.items():
            texts = as_texts(given)
            if not texts:
                continue
            text = texts[0]
            if name not in self.url_fields:
                if name not in PAGE_PARAMS:
                    notices.append(f"ignored unknown setting '{_short(name)}'")
                continue
            if len(texts) > 1:
                notices.append(repeated_notice(name, texts))
            if len(text) > MAX_URL_VALUE:
                notices.append(f"ignored '{name}': value too long")
                continue
            try:
                value = self.parse_url_value(name, text)
            except (ValueError, TypeError, OverflowError) as exc:
                notices.append(f"ignored '{name}={_short(text)}': {exc}")
                continue
            if self._was_clamped(name, text, value):
                notices.append(self.clamp_notice(name, value))
            elif name in self.url_wrapped and float(text) != value:
                notices.append(wrap_notice(name, text, value))
            updates[name] = value
        return updates, notices

    def _was_clamped(self, name: str, text: str, value) -> bool:
        p = self.param[name]
        if isinstance(p, param.Number) and not isinstance(p, param.Boolean) and name not in self.url_wrapped:
            try:
                return abs(float(text) - float(value)) > 1e-9
            except ValueError:
                return False
        return False

    def clamp_notice(self, name: str, value) -> str:
        """The notice for a value moved into its bounds (plates word their own fields)."""
        return f"'{name}' set to {self._show(value)}, the nearest allowed value"

    @staticmethod
    def _show(value) -> str:
        return f"{value:.6g}" if isinstance(value, float) else str(value)


def wrap_notice(name: str, text: str, value: float) -> str:
    """The notice for an angle a link gave outside its circle (link.js's wrap_notice words it the same)."""
    return f"'{name}' set to {fix(value, 2, trim=True)}°, the same direction as {_short(text.strip())}°"


# --- a link's settings -------------------------------------------------------------------------
# A link may give a setting more than once (?angle=90&angle=10). Its settings are read as a
# mapping from each name, in the order the link first gives it, to its text, or to the list of
# its texts when there are several: the first is read, and a notice says which.
LinkArgs = Mapping[str, str | Sequence[str]]


def link_args(pairs: Iterable[tuple[str, str]]) -> dict[str, str | list[str]]:
    """A link's (name, text) pairs, in order, as apply_url and page_param_notices read them."""
    out: dict[str, list[str]] = {}
    for name, text in pairs:
        out.setdefault(name, []).append(text)
    return {name: texts[0] if len(texts) == 1 else texts for name, texts in out.items()}


def as_texts(given) -> list[str]:
    """A setting's texts as a link gave them: one, or each of a repeated setting's in order."""
    return [given] if isinstance(given, str) else [str(t) for t in given]


def first_texts(args: LinkArgs) -> dict[str, str]:
    """Each setting's first text (the one that is read)."""
    return {name: texts[0] for name, texts in ((n, as_texts(g)) for n, g in args.items()) if texts}


def repeated_notice(name: str, texts: Sequence[str]) -> str:
    """The notice for a setting a link gives more than once (link.js's repeated_notice words it the same)."""
    return f"'{_short(name)}' given {len(texts)} times: only the first, '{_short(texts[0])}', is read"


def wrapped(x: float, lo: float, hi: float) -> float:
    """`x` wrapped into [lo, hi), as link.js's wrapped() does it, operation for operation."""
    span = hi - lo
    r = math.fmod(x - lo, span)
    if r < 0:
        r += span
    if r >= span:
        r -= span
    return lo + r


def whole_number(value, label: str, lo: int, hi: int) -> int:
    """A widget's number as a whole number in [lo, hi]; ValueError with the message the page shows
    otherwise. A box the student typed in (a Spinner) or a value a page sent may be anything: empty
    (None), a fraction, NaN, out of range; the plate refuses it with these words and keeps the last
    good state (self_attention.js's settings() writes the same words)."""
    if value is None or isinstance(value, bool):
        raise ValueError(f"{label}: type a whole number from {lo} to {hi}; the plate keeps what it shows.")
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{label}: type a whole number from {lo} to {hi}; the plate keeps what it shows.") from None
    if not math.isfinite(x) or x != round(x) or not lo <= x <= hi:
        raise ValueError(f"{label}: {value!r} is not a whole number from {lo} to {hi}; the plate keeps what it shows.")
    return int(x)


def page_param_notices(args: LinkArgs, hideable: Collection[str] | None = None,
                       scenes: Collection[str] | None = None) -> list[str]:
    """A notice for each page setting whose value page.js will not act on (theme=blue, embed=yes,
    hide=<b>, or with `hideable`, the names ?hide= can use on this page: a name not among them;
    with `scenes`, a ?scene= that names none of them): the page stays as it is; and for one given
    more than once (page.js reads the first).
    app/runtime/link.js's page_notices words them the same."""
    notices = []
    for name, given in args.items():
        texts = as_texts(given)
        if not texts:
            continue
        text = texts[0]
        if name in PAGE_PARAMS and len(texts) > 1:
            notices.append(repeated_notice(name, texts))
        if name in PAGE_CHOICES and text not in PAGE_CHOICES[name]:
            notices.append(f"ignored '{name}={_short(text)}': expected {' or '.join(PAGE_CHOICES[name])}")
        elif name == "scene" and scenes is not None and text not in scenes:
            notices.append(f"ignored 'scene={_short(text)}': this page's scenes are {', '.join(scenes) or 'none'}")
        elif name == "hide":
            names = [n.strip(" \t") for n in text.split(",")]  # the same trimming in JS and Python
            bad = [n for n in names if n and not CONTROL_NAME.fullmatch(n)]
            unknown = [n for n in names if n and hideable is not None and n not in hideable]
            if bad:
                notices.append(f"ignored 'hide={_short(bad[0])}': not a control's name")
            elif unknown:
                notices.append(f"ignored 'hide={_short(unknown[0])}': no control of that name on this page")
    return notices


def _short(text: str, n: int = 24) -> str:
    """`text` cut to n characters for a notice (notices are shown as text, never as HTML)."""
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= n else text[: n - 1] + "…"
