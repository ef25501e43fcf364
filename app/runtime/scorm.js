// scorm.js (AEScorm): the SCORM 1.2 bridge of the LMS package (app/delivery/scorm.py writes it
// into the package's pages only, as <script src="_static/scorm.js" data-done="...">; the served
// pages, the exported files and the static site never load it).
//
// Opened by an LMS's SCORM player, the page finds the player's API (SCORM 1.2's own discovery:
// `window.API` on this window or up to 7 parents, then the same from window.opener), calls
// LMSInitialize, sets cmi.core.lesson_status to "incomplete" (unless an earlier visit completed
// it) and commits; once the student has made a change it sets "completed" and commits again;
// when the page goes (pagehide, unload) it records the session time and calls LMSFinish.
// "A change" is app/runtime/sync.js's "ae-changed" event (AESync.commit, the end of every
// gesture of every plate; learn's Train says it when it starts), counted only after the
// student's own pointer or key input on the page, so that nothing the page does by itself at
// load (a link's settings applied) completes a plate. data-done="open" (the index, which has
// nothing to change) completes the page as soon as it opens.
//
// With no API (the package's files opened from disk, an LMS without a SCORM runtime) the file
// does nothing else: the plate works as in any exported page. AEScorm tells tests what happened.
(function () {
  "use strict";
  if (typeof window === "undefined") return;
  var script = document.currentScript;
  var when_done = (script && script.getAttribute("data-done")) || "change";
  var state = { found: false, initialized: false, status: null, done: false, finished: false, commits: 0 };
  window.AEScorm = state;

  // The player's API on `win`, or null (a frame of another origin throws on reading it).
  function api_of(win) {
    try {
      var api = win.API;
      return api && typeof api.LMSInitialize === "function" ? api : null;
    } catch (err) {
      return null;
    }
  }
  // SCORM 1.2's discovery (ADL's findAPI): this window, then up to 7 parents.
  function find_api(win) {
    for (var tries = 0; win && tries <= 7; tries++) {
      var api = api_of(win);
      if (api) return api;
      var up = null;
      try { up = win.parent; } catch (err) { return null; }
      if (!up || up === win) return null;
      win = up;
    }
    return null;
  }
  var api = find_api(window);
  if (!api) {
    try { if (window.opener) api = find_api(window.opener); } catch (err) { api = null; }
  }
  if (!api) return;  // no LMS runtime: nothing to report to
  state.found = true;
  if (String(api.LMSInitialize("")) !== "true") return;  // the LMS refused: the plate works on, untracked
  state.initialized = true;
  var started = Date.now();

  function commit() {
    api.LMSCommit("");
    state.commits += 1;
  }
  function set_status(status) {
    api.LMSSetValue("cmi.core.lesson_status", status);
    state.status = status;
  }
  function complete() {
    if (state.done || state.finished) return;
    state.done = true;
    set_status("completed");
    commit();
  }

  // A status an earlier visit left is kept: opening a completed plate again does not undo it.
  var before = String(api.LMSGetValue("cmi.core.lesson_status") || "");
  if (["completed", "passed", "failed"].indexOf(before) >= 0) {
    state.status = before;
    state.done = true;
  } else {
    set_status("incomplete");
    commit();
  }

  // The student's own input (isTrusted: not a script's event), seen before any change counts.
  var touched = false;
  function input(ev) { if (ev.isTrusted) touched = true; }
  window.addEventListener("pointerdown", input, true);
  window.addEventListener("keydown", input, true);
  window.addEventListener("ae-changed", function () { if (touched) complete(); });
  if (when_done === "open") complete();

  // CMITimespan, HH:MM:SS.SS (hours have two to four digits).
  function timespan(ms) {
    var cs = Math.max(0, Math.round(ms / 10)), h = Math.min(9999, Math.floor(cs / 360000)), m = Math.floor(cs / 6000) % 60;
    var s = ((cs % 6000) / 100).toFixed(2);
    return (h < 10 ? "0" : "") + h + ":" + (m < 10 ? "0" : "") + m + ":" + (s.length < 5 ? "0" : "") + s;
  }
  function finish() {
    if (state.finished) return;
    state.finished = true;
    try {
      api.LMSSetValue("cmi.core.session_time", timespan(Date.now() - started));
      // "suspend" keeps an unfinished plate's status for the next visit; "" is a normal exit.
      api.LMSSetValue("cmi.core.exit", state.done ? "" : "suspend");
      commit();
    } finally {
      api.LMSFinish("");
    }
  }
  // pagehide where there is one: Chromium deprecates unload listeners (and may refuse them).
  window.addEventListener("onpagehide" in window ? "pagehide" : "unload", finish);
})();
