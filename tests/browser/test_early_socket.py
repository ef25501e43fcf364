"""A served page pulls its document before BokehJS has loaded (app/early_socket.py), in Chromium.

The page's head opens the websocket and asks for the document; BokehJS is handed that socket and
that answer, and the page works on it as on its own: the seed's numbers, then a key press that
Python answers. When the early socket fails, BokehJS connects by itself as before.
tests/app/test_early_socket.py drives the script's every order of events in node.
"""

from __future__ import annotations

import json

import pytest

from helpers import angle_slider_handle, assert_matches_core, core_state, read_state, wait_ready, wait_synced

pytestmark = pytest.mark.browser

# Before the page's scripts: the first websocket the page makes is closed at once.
CLOSE_FIRST = r"""(() => {
  const N = window.WebSocket;
  let first = true;
  function Closing(...args) {
    const ws = new N(...args);
    if (first) { first = false; ws.close(); }
    return ws;
  }
  Closing.prototype = N.prototype;
  for (const k of ["CONNECTING", "OPEN", "CLOSING", "CLOSED"]) Object.defineProperty(Closing, k, {value: N[k]});
  window.WebSocket = Closing;
})();"""

STATE = """() => { const p = AEEarlySocket.page; return p && {adopted: p.state.adopted, live: p.state.live,
  queued: p.state.queue.length, id: p.request_id}; }"""


def record_frames(page) -> dict:
    """Every websocket the page opens and every frame it sends, as Chromium saw them."""
    seen = {"sockets": [], "sent": []}

    def on_ws(ws):
        seen["sockets"].append(ws.url)
        ws.on("framesent", lambda payload: seen["sent"].append(payload))

    page.on("websocket", on_ws)
    return seen


def pull_requests(seen: dict) -> list[str]:
    return [json.loads(p)["msgid"] for p in seen["sent"] if isinstance(p, str) and '"PULL-DOC-REQ"' in p]


def press_and_sync(page, angle: float) -> None:
    """One arrow key on the angle slider, answered by Python, and the page equal to attention_core."""
    handle = angle_slider_handle(page)
    handle.focus()
    sent = wait_synced(page)["sent"]
    page.keyboard.press("ArrowRight")
    ws = wait_synced(page, sent_before=sent)
    assert not ws["errors"], ws["errors"]
    assert_matches_core(read_state(page), core_state(angle=angle))


def test_the_page_uses_its_early_socket_and_answer(tab, served_url):
    seen = record_frames(tab.page)
    tab.page.goto(f"{served_url}/lookup")
    wait_ready(tab.page)
    wait_synced(tab.page)
    st = tab.page.evaluate(STATE)
    assert st["adopted"] is True and st["live"] is True and st["queued"] == 0, st
    # One socket, one request for the document: the early one (BokehJS's own was answered in the page).
    assert seen["sockets"] == [f"{served_url.replace('http', 'ws', 1)}/lookup/ws"]
    assert pull_requests(seen) == [st["id"]]
    assert_matches_core(read_state(tab.page), core_state())
    press_and_sync(tab.page, 41.0)
    tab.assert_no_errors()


def test_a_failed_early_socket_leaves_bokeh_to_connect(tab, served_url):
    tab.context.add_init_script(CLOSE_FIRST)
    seen = record_frames(tab.page)
    tab.page.goto(f"{served_url}/lookup?angle=30")
    wait_ready(tab.page)
    wait_synced(tab.page)
    st = tab.page.evaluate(STATE)
    assert st["adopted"] is False, st
    requests = pull_requests(seen)
    assert len(requests) == 1 and not requests[0].startswith("ae-early-"), requests  # BokehJS's own
    assert_matches_core(read_state(tab.page), core_state(angle=30.0))
    press_and_sync(tab.page, 31.0)
    # The closed socket's failure is the only error the page reports (Chromium logs it).
    assert all("WebSocket" in e for e in tab.console_errors), tab.console_errors
    assert not tab.page_errors, tab.page_errors
