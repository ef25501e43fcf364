"""The page around a plate (header, navigation, explanation, notices) and the index of plates."""

from __future__ import annotations

import html
import json
import markdown
import panel as pn
from bokeh.models import CustomJS, Div, InlineStyleSheet

from app import workarounds
from app.plates import registry
from app.runtime.scripts import custom_js_code, library_model
from app.shared import scenes as scene_rules
from app.shared.state import LinkArgs, link_args, page_param_notices
from app.shared.theme import CSS, PAGE_CSS, page_theme_options

pn.extension(raw_css=[CSS], design=None, notifications=False)


def href(slug: str | None, static: bool) -> str:
    """Where a plate lives: '/lookup' when served, 'lookup.html' in an exported site."""
    if slug is None:
        return "index.html" if static else "/"
    return f"{slug}.html" if static else f"/{slug}"


def header(plate_cls, static: bool = False) -> pn.pane.HTML:
    order = registry.slugs()
    number = order.index(plate_cls.slug) + 1
    prev, nxt = registry.neighbours(plate_cls.slug)
    links = [f"<a href='{href(None, static)}'>All plates</a>"]
    if prev:
        links.append(f"<a href='{href(prev, static)}' rel='prev'>← {html.escape(registry.plate_class(prev).title)}</a>")
    if nxt:
        links.append(f"<a href='{href(nxt, static)}' rel='next'>{html.escape(registry.plate_class(nxt).title)} →</a>")
    return named_html(
        "ae-header",
        f"<header class='ae-header'><h1>{html.escape(plate_cls.title)}</h1>"
        f"<span class='ae-kicker'>Plate {number} of {len(order)} · the arithmetic of attention</span></header>"
        f"<nav class='ae-nav' aria-label='plates'>{' · '.join(links)}</nav>"
        "<div class='ae-share'><button type='button' class='ae-copy'>Copy link to this state</button>"
        "<button type='button' class='ae-copy ae-embed'>Copy embed code</button>"
        "<span class='ae-copied' role='status'></span></div>" + scene_links(plate_cls, static),
    )


def scene_links(plate_cls, static: bool = False) -> str:
    """The plate's scenes, each a link to it in present mode (page.js adds the state on screen
    when one is followed, so the lecture opens where the page is)."""
    scenes = getattr(plate_cls, "scenes", ())
    if not scenes:
        return ""
    page = href(plate_cls.slug, static)
    items = "".join(f"<li><a class='ae-scene-link' href='{page}?present=1&amp;scene={s.name}' data-scene='{s.name}'>"
                    f"{i}. {html.escape(s.title)}</a></li>" for i, s in enumerate(scenes, 1))
    return f"<nav class='ae-scenes' aria-label='scenes for a lecture'>For a lecture: <ol>{items}</ol></nav>"


def named_html(name: str, text: str, visible: bool = True):
    """HTML in a Bokeh Div that carries `name`, so page.js can find it (embed mode hides it)."""
    return pn.pane.Bokeh(Div(name=name, text=text, visible=visible, sizing_mode="stretch_width",
                             stylesheets=[InlineStyleSheet(css=PAGE_CSS)]), sizing_mode="stretch_width")


def prose(name: str, md: str):
    """Markdown rendered to HTML here (no Markdown engine needed in the browser)."""
    return named_html(name, f"<div class='ae-prose'>{markdown.markdown(md)}</div>")


def notices_pane(notices: list[str]) -> pn.pane.HTML:
    """The link-settings notice; always on the page (hidden when empty) so page.js can fill it."""
    items = "; ".join(html.escape(n) for n in notices)
    text = f"<div class='ae-notice' role='status'>Link settings: {items}.</div>" if notices else ""
    return named_html("ae-notices", text, visible=bool(notices))


def ready_script(plate, notices_model, served: bool) -> CustomJS:
    """The page's document_ready callback: page.js (embed, hide, present, theme) and, in an
    exported page, the link read by link.js and applied by the plate's glue (url_apply); then
    the glue's on_ready (keyboard handles and such)."""
    models = {**(getattr(plate, "js_models", {}) or {}), "sync": plate.sync, "link": plate.state.url_spec()}
    glue = getattr(plate, "glue", None) or "page.js"
    live = getattr(plate, "live", None) or "undefined"
    names = [*models, "notices"]
    cls = type(plate)
    scenes = {"scenes": scene_rules.spec(getattr(cls, "scenes", ())), "scene_type": scene_rules.page_options(),
              "title": cls.title, "still": getattr(cls, "still", {})}
    call = (
        f"var L = (typeof {live} !== 'undefined') ? {live} : null;\n"
        "AEPage.init(notices.document, {served: " + ("true" if served else "false")
        + ", theme: " + json.dumps(page_theme_options()) + ", hideable: " + json.dumps(hideable_names(plate))
        + ", " + json.dumps(scenes)[1:-1]
        + ", workarounds_off: " + json.dumps(workarounds.js_switched_off() or []) + "},"
        " (L && L.url_apply) ? function (p) { return AELink.apply_plate(a, p, L); } : null);\n"
        "if (L && L.on_ready) L.on_ready(a);"
    )
    cb = CustomJS(args={**models, "notices": notices_model}, code=custom_js_code(glue, call, names))
    lib = (getattr(plate, "js_libraries", None) or {}).get(glue) or library_model(glue)
    cb.args = {**cb.args, "ae_lib": lib}
    return cb


# The page's own parts that ?hide= may name besides the plate's (embed mode hides the first three).
PAGE_PARTS = ("ae-header", "ae-lead", "ae-explanation", "ae-notices")


def hideable_names(plate) -> list[str]:
    """The names ?hide= can use on `plate`'s page: its named models that can be hidden (figures,
    widgets, Divs; not its data sources), and the page's parts. Python's notices and page.js's
    both check a link against this list."""
    from bokeh.model.util import collect_models

    cls = type(plate)
    cached = _HIDEABLE.get(cls)
    if cached is None:
        named = {m.name for m in collect_models(*plate.bokeh_models())
                 if m.name and "visible" in m.properties() and not m.name.startswith("ae-lib-")}
        parts = [p for p in PAGE_PARTS if p != "ae-lead" or getattr(cls, "lead", "")]
        cached = _HIDEABLE[cls] = sorted(named | set(parts))
    return cached


_HIDEABLE: dict[type, list[str]] = {}  # the names are the class's: the same for every page of it


def plate_page(slug: str, args: LinkArgs | None = None, static: bool = False):
    """A whole page for one plate; `args` are URL parameters applied to its state.

    The page's `ready_js` (a CustomJS) must be attached to the document's document_ready
    event: the server does it per session, export does it before saving.
    """
    cls = registry.plate_class(slug)
    plate = cls()
    scene_names = [s.name for s in getattr(cls, "scenes", ())]
    notices = (plate.state.apply_url(dict(args)) + page_param_notices(args, hideable_names(plate), scene_names)) if args else []
    notice = notices_pane(notices)
    # Filled and shown by app/runtime/scenes.js on a present page: the scene's title and buttons.
    parts = [named_html("ae-scene-bar", "", visible=False), header(cls, static), notice]
    lead = getattr(cls, "lead", "")
    if lead:
        parts.append(prose("ae-lead", lead))
    parts += [plate, prose("ae-explanation", cls.explanation)]
    page = pn.Column(*parts, sizing_mode="stretch_width", margin=(0, 8))
    page.plate = plate  # for tests and the CLI
    page.notice_pane = notice
    return page


def index_ready_script(anchor, served: bool) -> CustomJS:
    """The index's document_ready callback: page.js's modes (?theme=dark, ?present=1, ?embed=1)
    as on a plate page; `anchor` is any model of the page (page.js reaches the document from it)."""
    call = ("AEPage.init(anchor.document, {served: " + ("true" if served else "false")
            + ", theme: " + json.dumps(page_theme_options()) + ", hideable: " + json.dumps(list(INDEX_PARTS))
            + ", workarounds_off: " + json.dumps(workarounds.js_switched_off() or []) + "}, null);")
    cb = CustomJS(args={"anchor": anchor}, code=custom_js_code("page.js", call, ["anchor"]))
    cb.args = {**cb.args, "ae_lib": library_model("page.js")}
    return cb


def attach_ready(page, doc, served: bool) -> None:
    """Run page.js when `doc` is ready in the browser: a plate's page needs its notice pane's model
    in `doc`, the index its header's."""
    plate = getattr(page, "plate", None)
    model = next((m for m in doc.select({"name": "ae-notices" if plate is not None else "ae-header"})), None)
    if model is None:
        return
    script = ready_script(plate, model, served) if plate is not None else index_ready_script(model, served)
    doc.js_on_event("document_ready", script)


INDEX_PARTS = ("ae-header", "ae-index", "ae-notices")  # what ?hide= can name on the index


def index_page(static: bool = False, args: LinkArgs | None = None):
    """The index of plates; `args` (a served page's URL parameters) get the same notices as on a
    plate's page when a page setting cannot be used (theme=blue)."""
    notice = notices_pane(page_param_notices(args, INDEX_PARTS) if args else [])
    cards = []
    for i, slug in enumerate(registry.slugs(), 1):
        cls = registry.plate_class(slug)
        img = f"<img src='{'assets/' if static else '/assets/'}screenshots/{slug}.png' alt='' loading='lazy'>"
        scenes = " · ".join(f"<a href='{href(slug, static)}?present=1&amp;scene={s.name}'>{html.escape(s.title)}</a>"
                            for s in getattr(cls, "scenes", ()))
        cards.append(
            f"<div class='ae-card-box'><a class='ae-card' href='{href(slug, static)}'>{img}<h2>{i}. {html.escape(cls.title)}</h2>"
            f"<p>{html.escape(cls.summary)}</p></a>"
            + (f"<p class='ae-card-scenes'>For a lecture: {scenes}</p>" if scenes else "") + "</div>"
        )
    page = pn.Column(
        named_html(
            "ae-header",
            "<header class='ae-header'><h1>The arithmetic of attention</h1>"
            "<span class='ae-kicker'>Interactive plates: drag the vectors, watch every number move</span></header>",
        ),
        notice,
        named_html("ae-index", f"<main><nav class='ae-cards' aria-label='plates'>{''.join(cards)}</nav></main>"),
        sizing_mode="stretch_width",
    )
    page.notice_pane = notice
    return page


def session_args() -> dict[str, str | list[str]]:
    """The current served session's URL parameters, decoded leniently, as app.shared.state.link_args
    gives them: a setting given more than once keeps every value, so its notice can say so."""
    return link_args((k, v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v))
                     for k, values in (pn.state.session_args or {}).items() for v in values)
