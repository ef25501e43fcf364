"""A few hostile links per plate in a real Chromium, served and exported.

Python reads every hostile link of tests/hostile_links.py (tests/app/test_hostile_links.py) and
an exported page's script reads each of them in node (tests/core/test_hostile_links_node.py).
What only a browser shows is checked here, on two links per plate and mode (one tab each):
markup in every field, page setting and key name, on both (on an exported page its first field
holds the 10⁶-character value instead: a served page is turned away by the server before a page
exists, checked over HTTP); every setting given twice (the server hands the page each value:
app.delivery.page.session_args) on a served page; and on an exported page, every field far below
its range (the plate is clamped and redrawn by its own script: a smaller n, vectors at their
bounds). A served page far below its ranges, or given a mix of garbage values, is Python's
document (tests/app/test_hostile_links.py builds the state of every link and checks its numbers
and that its notices come back as text) drawn by the same glue as the exported one; markup is
garbage to every field, so the markup link's served page shows Python's notices of garbage
values as the browser renders them. For each load:
- no page error, console error or dialog, nothing in the server's log (conftest's
  server_log_clean), and an exported page asks nothing of the network;
- no element injected anywhere, shadow roots included (an <img src=x>, an inline handler), and no
  injected script ran (the payloads set window.__ae_pwned);
- the notice shows Python's notices word for word, as text (the Div's HTML and what it renders);
- the plate still works: it holds its data, every number of every data source is finite (a
  blocked masking score is −∞ by design), and no text on the page or in a source says NaN,
  Infinity or undefined (the notice quotes the link's own text and is checked above).
"""

from __future__ import annotations

import html
import http.client
import re
import urllib.request

import pytest

from app.plates import registry
from helpers import TWO_FRAMES, wait_synced
from hostile_links import FAR_BELOW, INJECTION, LONG, LONG_LINK, PWNED, TWICE, all_links, python_notices, query

pytestmark = pytest.mark.browser

SERVED_SEED, EXPORTED_SEED = 0, 6  # tests/hostile_links.py's SEEDS: other values per plate in each mode
SERVED = (INJECTION, TWICE)
EXPORTED = (INJECTION, FAR_BELOW)


def chosen(slug: str, seed: int, which) -> list[list[tuple[str, str]]]:
    mine = [pairs for s, pairs in all_links(seed) if s == slug]
    return [mine[i] for i in which]


def markup_and_long(slug: str, seed: int) -> list[tuple[str, str]]:
    """The markup link (INJECTION) with the 10⁶-character link's value (LONG_LINK: the first
    field) in place of its first field's markup: one page load reads both, field by field as
    each alone; every other field, page setting and key name still holds markup."""
    injection, long_link = chosen(slug, seed, (INJECTION, LONG_LINK))
    assert len(long_link) == 1 and long_link[0][0] == injection[0][0], (injection[0][0], long_link[0][0])
    return long_link + injection[1:]


# The page is ready when the plate's script has run (the library is loaded by the ready script,
# which applies an exported page's link) and the document holds the plate's data.
READY = r"""() => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length || document.readyState !== "complete") return false;
  const d = Bokeh.documents[0];
  if (d.get_model_by_name("ae-notices") == null || d.is_idle === false) return false;
  if (!globalThis.__ae_loaded || !Object.keys(globalThis.__ae_loaded).length) return false;
  let filled = 0;
  for (const m of d.all_models) if (m.type === "ColumnDataSource" && m.name !== "sync") {
    const cols = Object.keys(m.data);
    if (cols.length && m.data[cols[0]].length) filled += 1;
  }
  return filled >= 3;
}"""

# tests/app/test_state_properties.py's NOT_A_NUMBER_TEXT ("No NaN anywhere", "not NaN": the plates' own words).
WORDS = r"(?<!No )(?<!not )\bNaN\b|\bnan\b|Infinity|undefined|\binf\b"

READ = r"""([slug, pwned, words]) => {
  const d = Bokeh.documents[0], bad = [], said = [], re = new RegExp(words);
  for (const m of d.all_models) {
    if (m.type !== "ColumnDataSource") continue;
    for (const [col, values] of Object.entries(m.data)) {
      const flat = [];
      for (const v of Array.from(values)) {
        if (Array.isArray(v) || ArrayBuffer.isView(v)) flat.push(...Array.from(v)); else flat.push(v);
      }
      for (const v of flat) {
        if (typeof v === "string" && re.test(v)) said.push([m.name, col, v.slice(0, 80)]);
        if (typeof v !== "number" || Number.isFinite(v)) continue;
        if (slug === "masking" && m.name === "scores" && v === -Infinity) continue;
        bad.push([m.name, col, String(v)]);
      }
    }
  }
  // The page's text and elements, through every shadow root; the notice's own text apart.
  const nm = d.get_model_by_name("ae-notices"), nv = Bokeh.index.find_one(nm);
  const host = nv ? nv.el : null;
  let text = "", notice = "";
  const injected = [];
  (function walk(root, in_notice) {
    const tw = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = tw.nextNode(); n; n = tw.nextNode()) {
      const p = n.parentElement;
      if (p && /^(SCRIPT|STYLE|NOSCRIPT)$/.test(p.tagName)) continue;
      if (in_notice) notice += n.data; else text += n.data + "\n";
    }
    for (const el of root.querySelectorAll("*")) {
      if (el.matches("img[src='x'], svg[onload], [onerror], [onload], [onmouseover]"))
        injected.push(el.outerHTML.slice(0, 200));
      if (el.shadowRoot) walk(el.shadowRoot, in_notice || el === host);
    }
  })(document, false);
  const words_shown = text.match(new RegExp(words, "g")) || [];
  return {bad: bad.slice(0, 5), said: said.slice(0, 5), words: words_shown.slice(0, 5), injected,
          pwned: window[pwned] || 0, notice_html: nm.text || "", notice_text: notice.trim(), visible: nm.visible,
          sources: Array.from(d.all_models).filter((m) => m.type === "ColumnDataSource").length};
}"""


def shown_notices(text: str) -> tuple[str, ...]:
    """The notices in the ae-notices Div's HTML, as plain text (() when none is shown)."""
    m = re.fullmatch(r"<div class='ae-notice' role='status'>Link settings: (.*)\.</div>", text, re.S)
    assert m or text == "", text[:300]
    return tuple(html.unescape(m.group(1)).split("; ")) if m else ()


def watch_dialogs(tab) -> list:
    dialogs: list = []

    def on_dialog(d):
        dialogs.append(d.message)
        d.dismiss()

    tab.page.on("dialog", on_dialog)
    return dialogs


def check_page(tab, url: str, slug: str, pairs, dialogs: list) -> None:
    """Open `url` (the link `pairs`) and check the page (see the module's doc)."""
    due = python_notices(slug, pairs)
    page = tab.page
    page.goto(url, wait_until="load", timeout=120_000)
    page.wait_for_function(READY, timeout=120_000, polling=25)
    if due:  # an exported page shows its notices once the plate has painted the link's values
        page.wait_for_function("() => (Bokeh.documents[0].get_model_by_name('ae-notices').text || '').length > 0",
                               timeout=60_000, polling=25)
    wait_synced(page, timeout=30_000)  # nothing left "busy"; a served page's messages answered
    page.evaluate(TWO_FRAMES)
    got = page.evaluate(READ, [slug, PWNED, WORDS])
    where = f"{slug} {url[:160]}"
    assert not tab.page_errors and not tab.console_errors and not dialogs, (
        where, tab.page_errors, tab.console_errors, dialogs)
    assert not got["injected"] and got["pwned"] == 0, (where, got["injected"])
    assert shown_notices(got["notice_html"]) == due, (where, got["notice_html"][:300], due)
    if due:  # rendered as text: what the reader sees is the notices themselves, markup and all
        shown = "Link settings: " + "; ".join(due) + "."
        assert got["visible"] and got["notice_text"] == shown, (where, got["notice_text"][:300])
    assert got["sources"] >= 3 and not got["bad"], (where, got["bad"])
    assert not got["said"] and not got["words"], (where, got["said"], got["words"])


@pytest.mark.parametrize("slug", registry.slugs())
def test_hostile_links_on_a_served_page(new_tab, server, slug):
    """The server reads the link in Python (apply_url); server_log_clean fails the test if a
    traceback or an error reaches the server's log meanwhile."""
    tab = new_tab()
    dialogs = watch_dialogs(tab)
    for pairs in chosen(slug, SERVED_SEED, SERVED):
        check_page(tab, f"{server.url}/{slug}?{query(pairs)}", slug, pairs, dialogs)


@pytest.mark.parametrize("slug", registry.slugs())
def test_hostile_links_on_an_exported_page(new_tab, export_plate, slug):
    """page.js reads the link in the browser (link.js and the plate's glue); the network is cut off."""
    tab = new_tab()
    tab.block_network()
    dialogs = watch_dialogs(tab)
    markup, far_below = chosen(slug, EXPORTED_SEED, EXPORTED)
    links = [markup_and_long(slug, EXPORTED_SEED), far_below]
    assert any(v == LONG for pairs in links for _, v in pairs)
    for pairs in links:
        check_page(tab, f"{export_plate(slug).as_uri()}?{query(pairs)}", slug, pairs, dialogs)
    tab.assert_offline()


def test_a_huge_link_is_refused_cleanly_by_the_server(server):
    """A 10⁶-character link is larger than the server reads (Tornado's header limit): every
    plate's route must turn it away with a 4xx, not crash or hang, and the server goes on serving."""
    host, port = server.url.removeprefix("http://").split(":")
    for slug in registry.slugs():
        pairs = chosen(slug, SERVED_SEED, (LONG_LINK,))[0]
        conn = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            conn.request("GET", f"/{slug}?{query(pairs)}")
            status = conn.getresponse().status
        except (ConnectionError, http.client.HTTPException):
            status = None  # the connection was closed on us: refused
        finally:
            conn.close()
        assert status is None or 400 <= status < 500, (slug, status)
    with urllib.request.urlopen(f"{server.url}/liveness", timeout=10) as r:
        assert r.status == 200
