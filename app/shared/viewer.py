"""What every plate's view shares: its state, the sync protocol, pushing data only when it changed."""

from __future__ import annotations

from functools import partial

import panel as pn
import param
from bokeh.models import ColumnDataSource, CustomJS

from app.runtime.scripts import custom_js_code, share_library
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
    connection's session as its setter; outside such a message (a timer's fold) the change is
    sent, which is why PlateViewer.followed() waits for the page's commit; outside a served
    session this is a plain set.
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
    """Base of the plates: holds a PlateState, builds the view once, and keeps Python in step with
    the page by one protocol, the same for every plate (its browser half: app/runtime/sync.js).

    The page leads, Python follows. The page computes each change itself (the plate's glue with
    mirror.js) and shows it at once. While a gesture or a run of changes lasts, it marks the
    plate's `sync` source "busy", and Python leaves what the page sends alone; at the end it
    sends what the plate syncs and takes the mark off. Python then reads the page once
    (`read_page`), sets the state, which validates and clamps it, and renders attention_core's
    numbers (`_render`), which replace the page's where they differ. A single change the page
    sends with no mark (one click) is read FOLD_WAIT_MS later, so that the changes of one burst
    are read together; a page that marks itself busy meanwhile is read at the end of its run.

    A plate says what it syncs, not how:
    - `synced()`: the (model, attribute) pairs the page sends;
    - `read_page(changed)`: the state's new values from the page (`changed`: the pairs that
      changed since the last read); raise ValueError (or TypeError, KeyError, IndexError,
      OverflowError) to refuse, and `refused(exc)` puts the page back (a plate may also say why);
    - `_build()` makes the Bokeh models once; `_render(force)` recomputes with attention_core and
      pushes what differs (push, set_if_changed). `js(call)` makes a CustomJS that calls the
      plate's glue with `a`, the models in `js_models` plus `sync` and `link` (the state's
      url_spec, for app/runtime/link.js).

    In a notebook `plate.angle = 40` sets the state, and the view follows through the state's
    watchers. Subclasses set `state_class`, `slug`, `title`, `glue` (their JS file) and `live`
    (the object it defines).
    """

    state_class: type[PlateState] = PlateState
    slug = ""
    title = ""
    summary = ""
    lead = ""
    explanation = ""
    scenes: tuple = ()  # its scenes for a lecture, in teaching order (app/shared/scenes.py)
    still: dict = {}  # words for a still picture, in place of those that ask a hand to act (scenes.STILL)
    glue = ""  # the plate's browser half (app/plates/<package>/<slug>.js)
    live = ""  # the object it defines (LookupLive)
    FOLD_WAIT_MS = 150
    # See followed(). The wait ends early at the commit it waits for; it only bounds how long a
    # stalled page (a slow laptop, a busy machine: 2 s has been seen to pass) can keep Python's answer.
    FOLLOW_WAIT_MS = 5000

    state = param.ClassSelector(class_=PlateState, doc="The plate's state; every URL field lives here.")

    def __init__(self, **params):
        fields = {k: params.pop(k) for k in list(params) if k in self.state_class.url_fields}
        if params.get("state") is None:
            params["state"] = self.state_class(**fields)
        elif fields:
            params["state"].param.update(fields)
        super().__init__(**params)
        self.sync = ColumnDataSource(data={}, name="sync")  # "busy" in its tags while the page leads
        self.js_models: dict = {}
        self._rendering = False
        self._renders = 0
        self._changed: set = set()
        self._pending = None
        self._pending_wait = 0
        self._build()
        self.js_libraries = share_library(self.bokeh_models())
        self.render()
        self.state.param.watch(lambda *_: self.render(), list(self.state_class.url_fields))
        for model, attr in self.synced():
            model.on_change(attr, partial(self._on_page, (model, attr)))
        self.sync.on_change("tags", partial(self._on_page, None))

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for name in getattr(cls.state_class, "url_fields", ()):
            if not hasattr(cls, name):
                setattr(cls, name, property(
                    lambda self, n=name: getattr(self.state, n),
                    lambda self, v, n=name: setattr(self.state, n, v),
                    doc=f"The state's {name} (see {cls.state_class.__name__}).",
                ))

    # --- what a plate declares ----------------------------------------------------------------
    def synced(self) -> list[tuple]:
        """The (model, attribute) pairs the page sends to Python."""
        return []

    def read_page(self, changed: set) -> dict:
        """The state's new values, read from the models the page sent."""
        return {}

    def refused(self, exc: Exception) -> None:
        """What the page sent could not be used: put the page back to the last good state."""
        self.render(force=True)

    def _build(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _render(self, force: bool = False) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    # --- the protocol ---------------------------------------------------------------------------
    def busy(self) -> bool:
        """Whether the page leads a gesture now (Python waits for its end)."""
        return "busy" in (self.sync.tags or [])

    def _on_page(self, pair, attr, old, new) -> None:
        if self._rendering:
            return  # our own echo
        if pair is not None:
            self._changed.add(pair)
        if self.busy():
            return  # read when the gesture ends
        doc = self.sync.document
        if pair is None or doc is None or doc.session_context is None:
            self.fold()  # a gesture's end, or no served page (a notebook, a test): at once
            return
        wait = self.FOLLOW_WAIT_MS if pair in self.followed() else self.FOLD_WAIT_MS
        if self._pending is not None and wait > self._pending_wait:
            self._cancel_pending()
        if self._pending is None:
            self._pending, self._pending_wait = doc.add_timeout_callback(self._wait_over, wait), wait

    def followed(self) -> list[tuple]:
        """The synced pairs whose change the plate's glue always follows with a run of its own
        (marked busy, then one commit): Python waits for that commit, up to FOLLOW_WAIT_MS,
        instead of reading the change alone FOLD_WAIT_MS later. On a loaded machine the mark can
        reach Python later than that, and an answer to the change alone would land after what
        the reader did next (a Step after a new preset) and undo it."""
        return []

    def _cancel_pending(self) -> None:
        pending, self._pending = self._pending, None
        try:
            self.sync.document.remove_timeout_callback(pending)
        except (AttributeError, ValueError):
            pass  # it has just run

    def _wait_over(self) -> None:
        self._pending = None
        if not self.busy():
            self.fold()

    def fold(self) -> None:
        """Read the page into the state once, and answer with attention_core's numbers."""
        if self._pending is not None:
            self._cancel_pending()
        changed, self._changed = self._changed, set()
        try:
            values = self.read_page(changed)
        except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
            self.refused(exc)
            return
        renders = self._renders
        self.state.param.update(values)
        if self._renders == renders:
            self.render()  # unchanged: answer anyway, so the page holds Python's numbers

    def render(self, force: bool = False) -> None:
        """Recompute and push; what the push changes on the page is not read back (an echo)."""
        self._renders += 1
        self._rendering = True
        try:
            self._render(force)
        finally:
            self._rendering = False

    # --- the view -------------------------------------------------------------------------------
    def js(self, call: str, **extra) -> CustomJS:
        """A CustomJS that runs `call` from the plate's glue, with `a` the page's models by name."""
        models = {**self.js_models, "sync": self.sync, "link": self.state.url_spec(), **extra}
        return CustomJS(args=models, code=custom_js_code(self.glue, call, list(models)))

    def bokeh_models(self) -> list:
        """The Bokeh models the plate's view wraps (its figures, widgets and sources)."""
        view = self.__panel__()
        panes = view.select(pn.pane.Bokeh) if hasattr(view, "select") else []
        return [p.object for p in panes if p.object is not None]
