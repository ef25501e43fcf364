"""What every plate's view shares: its state, pushing data only when it changed, notebook access."""

from __future__ import annotations

import panel as pn
import param

from app.runtime.scripts import share_library
from app.shared.state import PlateState


def same_data(old: dict, new: dict, tol: float = 1e-12) -> bool:
    """True when two ColumnDataSource dicts hold the same columns and values (floats to `tol`)."""
    if old.keys() != new.keys():
        return False
    for name, column in new.items():
        a, b = list(old[name]), list(column)
        if len(a) != len(b):
            return False
        for x, y in zip(a, b):
            if isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
                if abs(float(x) - float(y)) > tol:
                    return False
            elif x != y:
                return False
    return True


def push(source, data: dict, force: bool = False) -> bool:
    """Replace `source.data` with a new dict (the only change that reaches the browser) if it differs."""
    if force or not same_data(source.data, data):
        source.data = data
        return True
    return False


def set_if_changed(model, attr: str, value, tol: float | None = None) -> None:
    """Set a model property only when it differs, so no needless message reaches the browser."""
    old = getattr(model, attr)
    if tol is not None and isinstance(old, (int, float)) and abs(float(old) - float(value)) <= tol:
        return
    if old != value:
        setattr(model, attr, value)


def as_the_browser_left_it(model, **props) -> None:
    """Set `props` on Python's copy of `model` without sending them to the browser being served.

    For values a plate's glue has already set in the browser, quietly, before telling Python why
    (a new preset resets the stage). Sent back, they would reach the browser after whatever the
    student did meanwhile and undo it: Bokeh's sync lets the last message win on each side, so
    the page would show the reset while Python holds the student's change. Bokeh does not echo a
    change to the connection whose message is being applied when the change names that
    connection's session as its setter; outside a served session this is a plain set.
    """
    doc = model.document
    context = getattr(doc, "session_context", None) if doc is not None else None
    session = getattr(context, "session", None)
    for name, value in props.items():
        if getattr(model, name) == value:
            continue
        if session is None:
            setattr(model, name, value)
        else:
            model.set_from_json(name, value, setter=session)


def live_layer(figure, *sources) -> int:
    """Draw what the live path changes on `figure`'s overlay canvas; returns how many parts moved.

    BokehJS paints a figure on two canvases: the primary one (background, grids, axes with their
    measured tick labels, glyphs, annotations) and an overlay. A change to a renderer of the
    primary level repaints all of the primary canvas, axes included; a change to one on the
    overlay repaints only the overlay. So every renderer and annotation fed by one of `sources`
    (the ColumnDataSources the browser rewrites at each move) goes to the overlay: on the lookup
    plate a move then costs about 5 ms of painting instead of 25 (benchmarks/profile_live.py).
    They are still drawn above the grids and axes, in the order they were added.
    """
    moved = 0
    for r in [*figure.renderers, *figure.center]:
        src = getattr(r, "data_source", None) or getattr(r, "source", None)
        if src is not None and any(src is s for s in sources):
            r.level = "overlay"
            moved += 1
    return moved


class PlateViewer(pn.viewable.Viewer):
    """Base of the plates: holds a PlateState and exposes its URL fields as attributes.

    In a notebook `plate.angle = 40` sets the state, and the view follows through the state's
    watchers. Subclasses set `state_class`, `slug`, `title`, and implement `_build` and `_render`.
    """

    state_class: type[PlateState] = PlateState
    slug = ""
    title = ""
    summary = ""

    state = param.ClassSelector(class_=PlateState, doc="The plate's state; every URL field lives here.")

    def __init__(self, **params):
        fields = {k: params.pop(k) for k in list(params) if k in self.state_class.url_fields}
        if params.get("state") is None:
            params["state"] = self.state_class(**fields)
        elif fields:
            params["state"].param.update(fields)
        super().__init__(**params)
        self._build()
        self.js_libraries = share_library(self.bokeh_models())
        self._render()
        self.state.param.watch(lambda *_: self._render(), list(self.state_class.url_fields))

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for name in getattr(cls.state_class, "url_fields", ()):
            if not hasattr(cls, name):
                setattr(cls, name, property(
                    lambda self, n=name: getattr(self.state, n),
                    lambda self, v, n=name: setattr(self.state, n, v),
                    doc=f"The state's {name} (see {cls.state_class.__name__}).",
                ))

    def bokeh_models(self) -> list:
        """The Bokeh models the plate's view wraps (its figures, widgets and sources)."""
        view = self.__panel__()
        panes = view.select(pn.pane.Bokeh) if hasattr(view, "select") else []
        return [p.object for p in panes if p.object is not None]

    def _build(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _render(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError
