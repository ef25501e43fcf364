// early_socket.js: a served page asks for its document while the browser is still loading BokehJS.
//
// Why: BokehJS opens the page's websocket only once it has loaded and the page's own scripts have
// run, and only then pulls the document (PULL-DOC-REQ); the page can build nothing until the
// answer is back. On a cold load that is 60-90 ms of a 0.9 s load here, with the browser idle
// and the server's answer already made (a spare page's answer is made ahead: app/spare_pages.py).
//
// So the page's head opens the same websocket (BokehJS's URL and subprotocols: "bokeh" and the
// session's token) before BokehJS loads, and asks for the document as soon as the server has
// acknowledged the connection. When BokehJS makes its websocket, it is given this one: it sees
// the frames in the order they came, the answer is handed over when BokehJS asks for the
// document (under BokehJS's own request id, the request itself is not sent again), and from then
// on the socket is plain. The server sees one connection and one PULL-DOC-REQ, as before.
//
// A socket BokehJS does not ask for (another URL or token), or an early one that failed or closed
// before BokehJS asked, leaves BokehJS to open its own as usual.
var AEEarlySocket = (typeof globalThis !== "undefined" && globalThis.AEEarlySocket) || (function () {
  "use strict";

  // BokehJS 3.10's websocket URL for a page with no app_path or absolute_url (embed/server.ts
  // _get_ws_url), with the query ClientConnection.connect adds.
  function ws_url(loc) {
    var args = loc.search.substring(1);
    return (loc.protocol === "https:" ? "wss:" : "ws:") + "//" + loc.host + loc.pathname.replace(/\/+$/, "") + "/ws" +
      (args.length > 0 ? "?" + args : "");
  }

  // Bokeh's wire format: a message is a header, metadata and content (text frames), then a
  // header and a payload per buffer (header.num_buffers of them).
  function frames_after_header(header) { return 2 + 2 * (Number(header.num_buffers) || 0); }

  function start(token, win) {
    win = win || window;
    var Native = win.WebSocket;
    if (typeof Native !== "function" || typeof token !== "string" || !token) return null;
    var url = ws_url(win.location), ws;
    try { ws = new Native(url, ["bokeh", token]); } catch (e) { return null; }
    ws.binaryType = "arraybuffer";
    var my_id = "ae-early-" + Math.random().toString(36).slice(2);
    var st = {
      adopted: false, opened: false, failed: false, live: false,
      queue: [],          // frames not yet handed to BokehJS: {event, reply} (reply: part of our answer)
      message: null,      // the message being received: {header, left}
      reply_done: false,  // our answer is all in the queue
      asked: null,        // BokehJS's PULL-DOC-REQ id, once it has asked
      swallow: 0,         // frames of BokehJS's request still to keep from the server
      handlers: {},       // BokehJS's onopen, onmessage, onclose, onerror
    };
    var send = function (data) { return Native.prototype.send.call(ws, data); };

    function note(event) {  // a frame came: {event, reply: part of our answer, first, last}
      var m = st.message, first = false;
      if (m == null) {
        var h = null;
        try { h = typeof event.data === "string" ? JSON.parse(event.data) : null; } catch (e) { h = null; }
        if (h == null || typeof h !== "object") return { event: event, reply: false };  // not a header: pass it on
        m = st.message = { header: h, left: frames_after_header(h) };
        first = true;
        if (h.msgtype === "ACK") send_request();
      } else {
        m.left -= 1;
      }
      var reply = m.header.reqid === my_id, last = m.left === 0;
      if (last) {
        st.message = null;
        if (reply) st.reply_done = true;
      }
      return { event: event, reply: reply, first: first, last: last };
    }

    var requested = false;
    function send_request() {
      if (requested) return;
      requested = true;
      send(JSON.stringify({ msgid: my_id, msgtype: "PULL-DOC-REQ" }));
      send("{}");
      send("{}");
    }

    // Hand BokehJS what it may have: the frames before our answer; the answer once it has asked
    // (with its request id), then the rest in a later task (BokehJS makes its session from the
    // answer in promises, and applies later patches only once it has one).
    function pump() {
      if (!st.opened || typeof st.handlers.onmessage !== "function") return;
      while (st.queue.length) {
        var f = st.queue[0];
        if (f.reply && (st.asked == null || !st.reply_done)) return;
        st.queue.shift();
        var ev = f.event;
        if (f.reply && f.first) {
          var h = JSON.parse(ev.data);
          h.reqid = st.asked;
          ev = { data: JSON.stringify(h), type: "message", target: ws };
        }
        st.handlers.onmessage.call(ws, ev);
        if (f.reply && f.last) { setTimeout(pump, 0); return; }
      }
      if (st.asked != null && st.reply_done) st.live = true;
    }

    ws.addEventListener("message", function (event) {
      if (st.live && !st.queue.length) {
        if (typeof st.handlers.onmessage === "function") st.handlers.onmessage.call(ws, event);
        return;
      }
      st.queue.push(note(event));
      pump();
    });
    ws.addEventListener("open", function (event) {
      if (st.adopted && !st.opened) opened(event);
    });
    ws.addEventListener("error", function (event) {
      if (!st.adopted) { st.failed = true; return; }
      if (typeof st.handlers.onerror === "function") st.handlers.onerror.call(ws, event);
    });
    ws.addEventListener("close", function (event) {
      if (!st.adopted) return;  // a closed socket is not handed to BokehJS (Early checks readyState)
      pump();
      if (typeof st.handlers.onclose === "function") st.handlers.onclose.call(ws, event);
    });

    // BokehJS sets these on its socket: keep them here, and call them from the listeners above.
    ["onopen", "onmessage", "onclose", "onerror"].forEach(function (k) {
      Object.defineProperty(ws, k, {
        configurable: true,
        get: function () { return st.handlers[k] || null; },
        set: function (fn) { st.handlers[k] = fn; },
      });
    });
    // BokehJS's first message is its PULL-DOC-REQ: answered here, not sent.
    ws.send = function (data) {
      if (st.swallow > 0) { st.swallow -= 1; return undefined; }
      if (st.asked == null && requested && typeof data === "string") {
        var h = null;
        try { h = JSON.parse(data); } catch (e) { h = null; }
        if (h && h.msgtype === "PULL-DOC-REQ" && typeof h.msgid === "string") {
          st.asked = h.msgid;
          st.swallow = frames_after_header(h);
          setTimeout(pump, 0);
          return undefined;
        }
      }
      return send(data);
    };

    // BokehJS hears of the open socket first (it then waits for the ACK), then gets the frames.
    function opened(event) {
      st.opened = true;
      if (typeof st.handlers.onopen === "function") st.handlers.onopen.call(ws, event);
      pump();
    }
    function adopt() {
      st.adopted = true;
      setTimeout(function () { if (ws.readyState === 1 && !st.opened) opened({ type: "open", target: ws }); }, 0);
    }

    function Early(u, protocols) {
      if (!st.adopted && !st.failed && ws.readyState <= 1 && u === url && Array.isArray(protocols) &&
          protocols.length === 2 && protocols[0] === "bokeh" && protocols[1] === token) {
        adopt();
        return ws;
      }
      return arguments.length > 1 ? new Native(u, protocols) : new Native(u);
    }
    Early.prototype = Native.prototype;
    ["CONNECTING", "OPEN", "CLOSING", "CLOSED"].forEach(function (k) {
      Object.defineProperty(Early, k, { value: Native[k] });
    });
    win.WebSocket = Early;
    api.page = { socket: ws, state: st, url: url, request_id: my_id };  // for the tests
    return api.page;
  }

  var api = { start: start, ws_url: ws_url, frames_after_header: frames_after_header, page: null };
  if (typeof globalThis !== "undefined") globalThis.AEEarlySocket = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = AEEarlySocket;
