// sends_later.js: see the comment below. A workaround of BokehJS (app/workarounds/js/registry.js).
(function (W) {
  "use strict";
  var view_of = W.view_of, first_view = W.first_view, owner_of = W.owner_of, bokeh_class = W.bokeh_class,
    figure_views = W.figure_views;
  // A served page tells Python of every change the reader makes (a slider key sets `value` and
  // `value_throttled`, and the first key of a run marks a model "busy"). BokehJS 3.10's
  // ClientSession sends each change as it happens, inside the task that made it and so before the
  // frame that shows it: it builds a patch (a map of a reference for every model of the document,
  // then the serialised event) and writes it to the WebSocket, two or three times per key. Now
  // a session collects the changes and sends them, in the order made, as one PATCH-DOC once the
  // frame that shows them has been painted (a task after the frame; at the latest after
  // SEND_WAIT_MS, for a page whose frames do not run, as a hidden tab's), and at once before
  // BokehJS asks the server for a round trip or the page goes. The patch is BokehJS's own (its
  // `_document_changed` with the changes as one batch). Patched once per page, on the class every
  // session shares, before the page's session exists (`early`).
  var SEND_WAIT_MS = 100;
  var unsent = typeof Set !== "undefined" ? new Set() : null;  // sessions holding changes not yet sent
  function sends_after_paint(proto) {  // proto: ClientSession's class
    if (!proto || typeof proto._document_changed !== "function" || typeof proto.request_server_info !== "function")
      return false;
    if (proto.__ae_sends_later) return true;
    var Batch = null;
    try { Batch = Bokeh.require("document/events").DocumentEventBatch; } catch (e) { Batch = null; }
    if (typeof Batch !== "function") return false;
    var own = proto._document_changed, ask = proto.request_server_info;
    proto._document_changed = function (event) {
      var events = event instanceof Batch ? (event.sync ? event.events : []) : [event];
      events = events.filter(function (e) { return e.sync; });  // what BokehJS would send
      if (events.length === 0) return;
      var self = this;
      if (this.__ae_unsent == null) {
        this.__ae_unsent = [];
        if (unsent) unsent.add(this);
        var flush = function () { self.__ae_send(); };
        this.__ae_send_timer = setTimeout(flush, SEND_WAIT_MS);
        if (typeof requestAnimationFrame === "function") requestAnimationFrame(function () { setTimeout(flush, 0); });
        if (!this.__ae_pagehide && typeof addEventListener === "function") {
          this.__ae_pagehide = true;
          addEventListener("pagehide", flush);
        }
      }
      Array.prototype.push.apply(this.__ae_unsent, events);
    };
    proto.__ae_send = function () {
      var events = this.__ae_unsent;
      if (events == null) return;
      this.__ae_unsent = null;
      if (unsent) unsent.delete(this);
      clearTimeout(this.__ae_send_timer);
      own.call(this, new Batch(this.document, events));
    };
    proto.request_server_info = function () {  // force_roundtrip's promise: every change sent before it
      this.__ae_send();
      return ask.apply(this, arguments);
    };
    proto.__ae_own_session = { _document_changed: own, request_server_info: ask };  // BokehJS's own, for the tests
    proto.__ae_sends_later = true;
    return true;
  }
  function sends_later(doc) {
    return doc != null && sends_after_paint(bokeh_class("client/session", "ClientSession"));
  }
  function unsent_changes() {  // how many sessions hold changes not yet sent (the tests wait for 0)
    return unsent ? unsent.size : 0;
  }

  W.define("sends_later", {
    bokeh: ["3.10", "3.11"],
    early: function () { return sends_after_paint(bokeh_class("client/session", "ClientSession")); },
    install: sends_later,
  });
})(AEWorkarounds);
