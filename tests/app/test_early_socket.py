"""app/early_socket.py and app/static/early_socket.js: a served page pulls its document before
BokehJS has loaded, and BokehJS gets that socket and that answer.

The script is driven in node against a stand-in WebSocket (the browser's event-handler attributes,
which the early socket shadows) and a stand-in for BokehJS's ClientConnection (its framing, its
ACK and PULL-DOC-REQ, and its rule that a PATCH-DOC before the session is dropped).
tests/browser/test_early_socket.py drives the real thing in Chromium.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from app import early_socket as E

from test_html_table import node_or_skip

SCRIPT = Path(__file__).resolve().parents[2] / "app" / "static" / "early_socket.js"
TOKEN = "eyJzZXNzaW9uX2lkIjogImFiYyJ9.sig_-"


# --- the page's HTML ------------------------------------------------------------------------------
def test_the_script_comes_first_in_the_head_with_the_token():
    html = '<!DOCTYPE html>\n<html lang="en">\n  <head data-x="1">\n<script src="bokeh.min.js"></script></head><body></body></html>'
    out = E.with_early_socket(html, TOKEN)
    head_end = out.index('<head data-x="1">') + len('<head data-x="1">')
    script = out.index("<script>", head_end)
    assert script < out.index('src="bokeh.min.js"')
    assert out[head_end:script].strip() == ""
    assert f"AEEarlySocket.start({json.dumps(TOKEN)});" in out
    assert out == html[:head_end] + "\n" + E.early_script(TOKEN) + html[head_end:]


@pytest.mark.parametrize("html, token", [("<html><head></head></html>", None), ("<html><head></head></html>", ""),
                                         ("<html><body>no head</body></html>", TOKEN),
                                         ("<html><header>not a head</header></html>", TOKEN)])
def test_no_token_or_no_head_leaves_the_page_alone(html, token):
    assert E.with_early_socket(html, token) == html


def test_a_token_cannot_end_the_script():
    s = E.early_script("a</script><script>alert(1)//")
    assert s.lower().count("</script") == 1 and s.endswith("</script>\n")


def test_the_wrapper_passes_the_render_items_token(monkeypatch):
    from panel.io import server as ps

    seen = []

    def own(session, resources, title, token=None, template=None, template_variables=None):
        seen.append((session, resources, title, token, template, template_variables))
        return "<html><head></head><body></body></html>"

    own_attr = ps.server_html_page_for_session
    monkeypatch.setattr(ps, "server_html_page_for_session", own)
    assert E.early_socket() is True
    wrapped = ps.server_html_page_for_session
    assert wrapped is not own and E.early_socket() is True and ps.server_html_page_for_session is wrapped

    class Session:
        token = "session-token"

    # Panel passes the visitor's token when it reuses a session's document; otherwise the session's.
    page = wrapped(Session(), "res", "title", token="visitor-token", template="t", template_variables={"a": 1})
    assert seen[-1] == (seen[-1][0], "res", "title", "visitor-token", "t", {"a": 1})
    assert 'AEEarlySocket.start("visitor-token");' in page
    page = wrapped(Session(), "res", "title")
    assert 'AEEarlySocket.start("session-token");' in page
    monkeypatch.setattr(ps, "server_html_page_for_session", own_attr)


# --- the script, in node ----------------------------------------------------------------------------
HARNESS = r"""
const E = require(process.argv[1]);
const TOKEN = process.argv[2];
const tick = () => new Promise((r) => setTimeout(r, 0));

// A browser WebSocket: listeners, and event-handler attributes on the prototype (which an own
// property of the instance shadows, as in a browser).
function fake_window(loc) {
  class WS {
    constructor(url, protocols) {
      this.url = url; this.protocols = protocols; this.readyState = 0; this.binaryType = "blob";
      this.sent = []; this.listeners = {}; this.attrs = {}; WS.made.push(this);
    }
    addEventListener(k, fn) { (this.listeners[k] = this.listeners[k] || []).push(fn); }
    fire(k, ev) {
      if (k === "open") this.readyState = 1;
      if (k === "close") this.readyState = 3;
      ev = ev || {type: k};
      (this.listeners[k] || []).forEach((fn) => fn(ev));
      if (typeof this.attrs[k] === "function") this.attrs[k](ev);
    }
    frame(data) { this.fire("message", {type: "message", data}); }
    close() { this.readyState = 3; }
  }
  WS.prototype.send = function (d) { this.sent.push(d); };
  for (const k of ["open", "message", "close", "error"]) {
    Object.defineProperty(WS.prototype, "on" + k, {get() { return this.attrs[k] || null; }, set(fn) { this.attrs[k] = fn; }});
  }
  WS.made = [];
  WS.OPEN = 1;
  return {WebSocket: WS, Native: WS, location: loc || {protocol: "http:", host: "localhost:5006", pathname: "/masking", search: ""}};
}

// The server's side: Bokeh's messages as frames.
const msg = (header, content, buffers) => {
  const out = [JSON.stringify(header), "{}", JSON.stringify(content || {})];
  (buffers || []).forEach((b, i) => { out.push(JSON.stringify({id: String(i)})); out.push(b); });
  return out;
};
let n = 0;
const ack = () => msg({msgid: "s" + (++n), msgtype: "ACK"});
const reply = (reqid, buffers) => msg({msgid: "s" + (++n), msgtype: "PULL-DOC-REPLY", reqid, num_buffers: (buffers || []).length},
                                       {doc: {title: "t"}}, buffers);
const patch = (k) => msg({msgid: "s" + (++n), msgtype: "PATCH-DOC"}, {events: [k]});
const send_all = (ws, frames) => frames.forEach((f) => ws.frame(f));

// BokehJS 3.10's ClientConnection, reduced to what the early socket meets.
function bokeh(win, url, token, log) {
  const s = new win.WebSocket(url, ["bokeh", token]);
  const me = {socket: s, session: false, id: "BK-" + (++n)};
  let parts = [], need = 3;
  s.binaryType = "arraybuffer";
  s.onopen = () => log.push("open");
  s.onclose = () => log.push("close");
  s.onerror = () => log.push("error");
  s.onmessage = (ev) => {
    if (!log.includes("open")) log.push("message before open");
    parts.push(ev.data);
    if (parts.length === 1) { const h = JSON.parse(ev.data); need = 3 + 2 * (h.num_buffers || 0); }
    if (parts.length < need) return;
    const h = JSON.parse(parts[0]), content = JSON.parse(parts[2]), binary = parts.filter((p) => p instanceof ArrayBuffer).length;
    parts = [];
    if (h.msgtype === "ACK") {
      log.push("ACK");
      s.send(JSON.stringify({msgid: me.id, msgtype: "PULL-DOC-REQ"})); s.send("{}"); s.send("{}");
    } else if (h.reqid === me.id) {
      log.push("reply " + content.doc.title + " buffers " + binary);
      Promise.resolve().then(() => Promise.resolve()).then(() => { me.session = true; log.push("session"); });
    } else if (h.msgtype === "PATCH-DOC") {
      log.push((me.session ? "patch " : "dropped patch ") + content.events[0]);
    } else {
      log.push("other " + h.msgtype + " " + h.reqid);
    }
  };
  return me;
}

const requests = (ws) => ws.sent.filter((d) => typeof d === "string" && d.includes("PULL-DOC-REQ")).map((d) => JSON.parse(d).msgid);

const scenarios = {
  async answer_first() {  // the usual order: the answer is in before BokehJS has loaded
    const win = fake_window(), log = [];
    const early = E.start(TOKEN, win), ws = early.socket;
    const shape = [ws.url, ws.protocols, ws.binaryType];
    ws.fire("open");
    send_all(ws, ack());
    const early_requests = requests(ws);
    send_all(ws, reply(early.request_id, [new ArrayBuffer(4)]));
    send_all(ws, patch("after-reply"));
    await tick();
    const b = bokeh(win, "ws://localhost:5006/masking/ws", TOKEN, log);
    for (let i = 0; i < 4; i++) await tick();
    send_all(ws, patch("live"));
    b.socket.send("client-frame");
    await tick();
    return {shape, early_requests, same: b.socket === ws, made: win.Native.made.length, log, sent: ws.sent, live: early.state.live};
  },
  async bokeh_first() {  // BokehJS asks while the socket is still connecting
    const win = fake_window(), log = [];
    const early = E.start(TOKEN, win), ws = early.socket;
    const b = bokeh(win, "ws://localhost:5006/masking/ws", TOKEN, log);
    await tick();
    const before_open = log.slice();
    ws.fire("open");
    send_all(ws, ack());
    await tick();
    send_all(ws, patch("before-reply"));
    send_all(ws, reply(early.request_id));
    for (let i = 0; i < 4; i++) await tick();
    return {same: b.socket === ws, before_open, log, requests: requests(ws)};
  },
  async patches_around_the_answer() {  // the server patched the document before and after it answered
    const win = fake_window(), log = [];
    const early = E.start(TOKEN, win), ws = early.socket;
    ws.fire("open");
    send_all(ws, ack());
    send_all(ws, patch("before"));
    send_all(ws, reply(early.request_id));
    bokeh(win, "ws://localhost:5006/masking/ws", TOKEN, log);
    send_all(ws, patch("after"));  // at once: before BokehJS has heard that its socket is open
    for (let i = 0; i < 5; i++) await tick();
    return {log};
  },
  async another_socket() {  // another token or URL: a socket of its own
    const win = fake_window();
    const early = E.start(TOKEN, win);
    const a = new win.WebSocket("ws://localhost:5006/masking/ws", ["bokeh", "other-token"]);
    const b = new win.WebSocket("ws://localhost:5006/lookup/ws", ["bokeh", TOKEN]);
    const c = new win.WebSocket("ws://localhost:5006/masking/ws");
    return {fresh: [a, b, c].map((s) => s !== early.socket), made: win.Native.made.length, adopted: early.state.adopted,
            c_protocols: c.protocols === undefined};
  },
  early_socket_failed: (how) => async () => {  // failed or closed before BokehJS came: BokehJS connects as before
    const win = fake_window(), log = [];
    const early = E.start(TOKEN, win);
    how.forEach((k) => early.socket.fire(k));
    const b = bokeh(win, "ws://localhost:5006/masking/ws", TOKEN, log);
    const fresh = b.socket !== early.socket && b.socket instanceof win.WebSocket;
    b.socket.fire("open");
    send_all(b.socket, ack());
    send_all(b.socket, reply(b.id));
    await tick(); await tick();
    return {fresh, log, sent: b.socket.sent.length, made: win.Native.made.length};
  },
  async reconnect_and_close() {  // BokehJS's second socket (a reconnection) is its own; a close reaches BokehJS
    const win = fake_window(), log = [];
    const early = E.start(TOKEN, win), ws = early.socket;
    ws.fire("open");
    send_all(ws, ack());
    send_all(ws, reply(early.request_id));
    bokeh(win, "ws://localhost:5006/masking/ws", TOKEN, log);
    for (let i = 0; i < 4; i++) await tick();
    ws.fire("close", {type: "close", code: 1006});
    const again = new win.WebSocket("ws://localhost:5006/masking/ws", ["bokeh", TOKEN]);
    return {log, fresh: again !== ws, made: win.Native.made.length};
  },
  async urls() {
    const u = (protocol, host, pathname, search) => E.ws_url({protocol, host, pathname, search});
    return [u("http:", "h:1", "/masking", ""), u("https:", "h", "/masking/", "?n=4&theme=dark"), u("http:", "h", "/", ""),
            u("http:", "h", "/a//", "?x")];
  },
  async no_token() {
    const win = fake_window();
    return {none: E.start("", win) === null && E.start(null, win) === null, made: win.Native.made.length};
  },
};

(async () => {
  const out = {};
  const failed = scenarios.early_socket_failed;
  delete scenarios.early_socket_failed;
  for (const how of [["error", "close"], ["close"], ["error"]]) scenarios["early_socket_failed " + how.join("+")] = failed(how);
  for (const [k, fn] of Object.entries(scenarios)) out[k] = await fn();
  process.stdout.write(JSON.stringify(out));
})();
"""


@pytest.fixture(scope="module")
def runs():
    node = node_or_skip()
    proc = subprocess.run([node, "-e", HARNESS, str(SCRIPT), TOKEN], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_page_opens_bokehs_socket_and_asks_once_acknowledged(runs):
    r = runs["answer_first"]
    assert r["shape"] == ["ws://localhost:5006/masking/ws", ["bokeh", TOKEN], "arraybuffer"]
    assert len(r["early_requests"]) == 1 and r["early_requests"][0].startswith("ae-early-")


def test_bokeh_gets_the_socket_and_the_answer_under_its_own_request(runs):
    r = runs["answer_first"]
    assert r["same"] is True and r["made"] == 1
    # open first, then the ACK, the answer (with its buffer), and the patch the server sent after
    # it, applied once BokehJS has its session; then frames as they come.
    assert r["log"] == ["open", "ACK", "reply t buffers 1", "session", "patch after-reply", "patch live"]
    assert r["live"] is True


def test_bokehs_own_request_is_not_sent_again_and_later_frames_are(runs):
    sent = runs["answer_first"]["sent"]
    assert [json.loads(s)["msgtype"] for s in sent[:1]] == ["PULL-DOC-REQ"]
    assert sent[1:] == ["{}", "{}", "client-frame"]


def test_bokeh_may_ask_before_the_socket_is_open_or_the_answer_is_in(runs):
    r = runs["bokeh_first"]
    assert r["same"] is True
    assert r["before_open"] == []
    assert r["log"] == ["open", "ACK", "dropped patch before-reply", "reply t buffers 0", "session"]
    assert len(r["requests"]) == 1


def test_patches_keep_their_place_around_the_answer(runs):
    # Before the answer, a patch is in the answer already (BokehJS drops it); after, it is applied.
    assert runs["patches_around_the_answer"]["log"] == ["open", "ACK", "dropped patch before", "reply t buffers 0",
                                                        "session", "patch after"]


def test_any_other_socket_is_a_plain_one(runs):
    r = runs["another_socket"]
    assert r["fresh"] == [True, True, True] and r["made"] == 4 and r["adopted"] is False and r["c_protocols"] is True


@pytest.mark.parametrize("how", ["error+close", "close", "error"])
def test_a_failed_early_socket_leaves_bokeh_to_connect_as_before(runs, how):
    r = runs["early_socket_failed " + how]
    assert r["fresh"] is True and r["made"] == 2
    assert r["log"] == ["open", "ACK", "reply t buffers 0", "session"]
    assert r["sent"] == 3  # BokehJS's own PULL-DOC-REQ went to the server


def test_a_close_reaches_bokeh_and_a_reconnection_gets_a_new_socket(runs):
    r = runs["reconnect_and_close"]
    assert r["log"] == ["open", "ACK", "reply t buffers 0", "session", "close"]
    assert r["fresh"] is True and r["made"] == 2


def test_the_url_is_bokehs(runs):
    assert runs["urls"] == ["ws://h:1/masking/ws", "wss://h/masking/ws?n=4&theme=dark", "ws://h/ws", "ws://h/a/ws?x"]


def test_no_token_no_socket(runs):
    assert runs["no_token"] == {"none": True, "made": 0}
