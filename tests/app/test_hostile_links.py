"""Every hostile link (tests/hostile_links.py), for every plate, read by a served page in Python.

A served page is built from its link (app.delivery.server.fill_document, as a session does):
plate_page applies the link to a fresh plate (`state.apply_url`, then the plate renders the state
it got), words the notices (`page_param_notices` for the page settings) and puts them in the
ae-notices Div, escaped. So a link changes the document only through two things: the state it
leaves and its notices. Here
- every link's notices are put in the Div as a served page does (app.delivery.page.notices_pane)
  and must come back as text, word for word, with no markup left in the HTML;
- for every state the links lead to, a whole served document is built from a link that leads
  there: it must build, every number of every data source must be finite (but a −∞ the plate's
  contract.py says is meant: a blocked masking score), and its Div must hold that link's notices.
(A document per link took over a minute; the 308 links lead to 25 states.)

tests/core/test_hostile_links_node.py reads the same links in node as an exported page does;
tests/browser/test_hostile_links_browser.py opens a few of them per plate in Chromium.
"""

from __future__ import annotations

import html
import math
import re

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.models import ColumnDataSource
from panel.io.state import set_curdoc

from app.delivery.page import notices_pane
from app.delivery.server import fill_document
from app.plates import registry
from app.shared.state import link_args
from hostile_links import LONG, PAGE_SETTINGS, every_link, python_notices, python_state, silent_changes

LINKS = every_link()


def test_the_links_cover_every_kind_of_hostile_value():
    assert len(LINKS) >= 200, len(LINKS)
    text = "\n".join(v for _, pairs in LINKS for _, v in pairs) + "\n" + "\n".join(k for _, pairs in LINKS for k, _ in pairs)
    for kind, marker in [("garbage", "banana"), ("NaN", "nan"), ("Infinity", "Infinity"), ("out of range", "-1e9"),
                         ("10⁶ characters", LONG), ("unicode", "😀"), ("Arabic-Indic digits", "١٢"),
                         ("a script tag", "<script>"), ("attribute-breaking", '"><img src=x onerror=')]:
        assert marker in text, kind
    for slug in registry.slugs():
        fields = registry.plate_class(slug).state_class.url_fields + PAGE_SETTINGS
        alone = {pairs[0][0] for s, pairs in LINKS if s == slug and len(pairs) == 1}
        assert not [f for f in fields if f not in alone], slug  # every field gets a hostile value of its own
        states = {tuple(sorted(python_state(slug, pairs).to_url().items())) for s, pairs in LINKS if s == slug}
        assert len(states) >= 3, (slug, states)  # and some links move the plate off its defaults (clamped)


def test_nothing_a_link_gives_is_changed_or_dropped_without_a_notice():
    """Issue 54, 5: ?angle=9999 showed 279° and ?angle=90&angle=10 took the first, both without a
    word. Every setting of every hostile link is either what the plate holds or named by a notice
    (tests/core/test_hostile_links_node.py holds an exported page to the same notices)."""
    silent = [(slug, pairs, changes) for slug, pairs in LINKS if (changes := silent_changes(slug, pairs))]
    assert not silent, silent[:5]
    assert any(p[0][0] == p[1][0] for s, p in LINKS if len(p) > 1)  # repeated settings were met


def shown_notices(text: str) -> tuple[str, ...]:
    """The notices in the ae-notices Div's HTML, as plain text (() when none is shown)."""
    m = re.fullmatch(r"<div class='ae-notice' role='status'>Link settings: (.*)\.</div>", text, re.S)
    assert m or text == "", text[:300]
    return tuple(html.unescape(m.group(1)).split("; ")) if m else ()


def bad_numbers(doc, slug: str) -> list:
    """Every non-finite number in the document's sources but the −∞ the plate's contract says is meant."""
    meant = getattr(registry.contract(slug), "INFINITE_BY_DESIGN", set())
    bad = []
    for m in doc.models:
        if not isinstance(m, ColumnDataSource):
            continue
        for col, values in m.data.items():
            for v in values:
                for x in (v if isinstance(v, (list, tuple)) else [v]):
                    if isinstance(x, float) and not math.isfinite(x):
                        if not ((m.name, col) in meant and x == -math.inf):
                            bad.append((m.name, col, x))
    return bad


def no_markup(text: str) -> bool:
    """The Div's HTML holds no element but the notice's own div (the link's markup is escaped)."""
    return re.findall(r"<[a-zA-Z/!]", text) in ([], ["<d", "</"])


def test_markup_left_in_the_notice_would_be_seen():
    assert no_markup("") and no_markup(notices_pane(["ignored 'x=<img src=x>': not a number"]).object.text)
    assert not no_markup("<div class='ae-notice' role='status'>Link settings: 'x=<img src=x>'.</div>")


@pytest.mark.parametrize("slug", registry.slugs())
def test_every_hostile_link_is_shown_as_text_and_every_state_it_leads_to_builds_a_served_page(slug, monkeypatch):
    monkeypatch.setattr(pn.config, "browser_info", False)  # as app.delivery.server.serve sets it
    by_state: dict[tuple, list] = {}
    for s, pairs in LINKS:
        if s != slug:
            continue
        due = python_notices(slug, pairs)
        text = notices_pane(list(due)).object.text
        assert no_markup(text) and shown_notices(text) == due, (slug, str(pairs)[:200], text[:300])
        by_state.setdefault(tuple(sorted(python_state(slug, pairs).to_url().items())), []).append(pairs)
    assert len(by_state) >= 3, by_state.keys()
    for state, group in by_state.items():
        pairs = max(group, key=lambda p: len(python_notices(slug, p)))  # the link with the most to say
        doc = Document()
        with set_curdoc(doc):
            fill_document(doc, slug, link_args(pairs))
        where = f"{slug} {state} {str(pairs)[:200]}"
        assert not bad_numbers(doc, slug), (where, bad_numbers(doc, slug)[:5])
        text = doc.select_one({"name": "ae-notices"}).text
        assert no_markup(text), where
        assert shown_notices(text) == python_notices(slug, pairs), where
        assert doc.select_one({"name": "sync"}) is not None, where  # the plate is in it (its "sync" source)
