"""The page around a plate (header, navigation, explanation, notices) and the index of plates."""

from __future__ import annotations

import html
from collections.abc import Mapping

import panel as pn

from . import registry
from .theme import CSS

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
    return pn.pane.HTML(
        f"<header class='ae-header'><h1>{html.escape(plate_cls.title)}</h1>"
        f"<span class='ae-kicker'>Plate {number} of {len(order)} · the arithmetic of attention</span></header>"
        f"<nav class='ae-nav' aria-label='plates'>{' · '.join(links)}</nav>",
        sizing_mode="stretch_width", margin=0,
    )


def notices_pane(notices: list[str]) -> pn.pane.HTML | None:
    if not notices:
        return None
    items = "; ".join(html.escape(n) for n in notices)
    return pn.pane.HTML(f"<div class='ae-notice' role='status'>Link settings: {items}.</div>", margin=(4, 16))


def plate_page(slug: str, args: Mapping[str, str] | None = None, static: bool = False):
    """A whole page for one plate; `args` are URL parameters applied to its state."""
    cls = registry.plate_class(slug)
    plate = cls()
    notices = plate.state.apply_url(dict(args or {}))
    parts = [header(cls, static)]
    notice = notices_pane(notices)
    if notice is not None:
        parts.append(notice)
    lead = getattr(cls, "lead", "")
    if lead:
        parts.append(pn.pane.Markdown(lead, css_classes=["ae-prose", "ae-lead"], sizing_mode="stretch_width", margin=(0, 10)))
    parts += [
        plate,
        pn.pane.Markdown(cls.explanation, css_classes=["ae-prose"], sizing_mode="stretch_width"),
    ]
    page = pn.Column(*parts, sizing_mode="stretch_width", margin=(0, 8))
    page.plate = plate  # for tests and the CLI
    return page


def index_page(static: bool = False):
    cards = []
    for i, slug in enumerate(registry.slugs(), 1):
        cls = registry.plate_class(slug)
        img = f"<img src='{'assets/' if static else '/assets/'}screenshots/{slug}.png' alt='' loading='lazy'>"
        cards.append(
            f"<a class='ae-card' href='{href(slug, static)}'>{img}<h2>{i}. {html.escape(cls.title)}</h2>"
            f"<p>{html.escape(cls.summary)}</p></a>"
        )
    return pn.Column(
        pn.pane.HTML(
            "<header class='ae-header'><h1>The arithmetic of attention</h1>"
            "<span class='ae-kicker'>Interactive plates: drag the vectors, watch every number move</span></header>",
            sizing_mode="stretch_width", margin=0,
        ),
        pn.pane.HTML(f"<nav class='ae-cards' aria-label='plates'>{''.join(cards)}</nav>", sizing_mode="stretch_width"),
        sizing_mode="stretch_width",
    )


def session_args() -> dict[str, str]:
    """The current served session's URL parameters, first value of each, decoded leniently."""
    out = {}
    for k, values in (pn.state.session_args or {}).items():
        if values:
            v = values[0]
            out[k] = v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
    return out
