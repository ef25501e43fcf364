// learn.js: the "A head that learns" plate's browser half. The page trains the head itself, with
// mirror.js's train_step (attention_core/training.py's arithmetic), and repaints every chart at
// each animation frame, served or exported (no Python needed). Its start comes from each seed's
// normal draws, which the page carries (a.normals: NumPy's generator cannot be reproduced here):
// init_state's weights are exactly those draws times init_scale / √d_model, W_Q then W_K.
//
// The state is the settings and the step count (the widgets and a.run): whatever changes, the
// page shows the run of those settings replayed from the seed to that step. Training leads the
// sync protocol (AESync.lead); Pause, One step, Reset, a story or a setting ends with a commit of
// the settings and the step, and Python replays the same steps with attention_core and answers
// with its numbers ("rendered" names the state they are for; a late one is painted over).
// `a` holds the plate's Bokeh models by name (see view.py), a.sync and a.link.
var LearnLive = (typeof globalThis !== "undefined" && globalThis.LearnLive) || (function () {
  "use strict";
  var M = AttentionMirror;
  var T = 6, D_MODEL = 8, MAX_WIDTH = 64;
  var TIES = ["none", "shared", "identity"], OPTIMIZERS = ["adam", "gd"], D_K = [1, 2, 4, 8, 16, 32, 64];
  var PARAMS = { none: ["W_Q", "W_K"], shared: ["W_QK"], identity: [] };
  var MINUS = "\u2212";
  var DEFAULTS = { lr: 0.05, optimizer: "adam", d_k: 8, scaled: true, tie: "none", init_scale: 1.0, seed: 0 };
  var SETTINGS = ["lr", "optimizer", "d_k", "scaled", "tie", "init_scale", "seed"];
  // state.py's PRESETS, PRESET_LABELS and STORIES (tests/app/plates/test_learn_state.py holds them equal).
  var PRESETS = {
    "one-map": { tie: "shared" },
    "two-maps": {},
    "saturated": { init_scale: 30.0, optimizer: "gd", lr: 1.0 },
    "dk64-scaled": { d_k: 64, init_scale: 3.0, scaled: true },
    "dk64-raw": { d_k: 64, init_scale: 3.0, scaled: false },
  };
  var PRESET_LABELS = {
    "one-map": "One map: symmetric, and it fails",
    "two-maps": "Two maps: the asymmetry is learned",
    "saturated": "Start saturated: the gradient dies",
    "dk64-scaled": "d_k = 64 with ÷√d_k",
    "dk64-raw": "d_k = 64 without ÷√d_k",
  };
  var STORIES = {
    "one-map": "One matrix serves as W_Q and W_K, so the scores are symmetric, S = Sᵀ: token i pulls on " +
               "i + 1 exactly as hard as i + 1 pulls on i. Train: max |S − Sᵀ| stays 0 and the loss stops " +
               "near 0.78, far from 0.",
    "two-maps": "Separate W_Q and W_K. Train: the weights leave the uniform 1/6 and settle on the target, " +
                "the loss falls toward 0 and max |S − Sᵀ| grows: the head has learned an asymmetric relation.",
    "saturated": "Weights 30 times larger: every row of the softmax starts one-hot, where its Jacobian is ~0. " +
                 "The gradient norm is 5e-8 and plain gradient descent does not move: the loss stays at 1.333. " +
                 "Switch to Adam, which rescales even a dead gradient, and compare.",
    "dk64-scaled": "d_k = 64 and weights 3 times larger, the scores divided by √64 = 8: they start moderate, " +
                   "and Adam learns the shift in about 50 steps.",
    "dk64-raw": "The same head without ÷√64: scores 8 times larger, rows that start near one-hot, and a run " +
                "that gets stuck with rows on the wrong token: the loss stalls at 0.22 and, near step 780, " +
                "jumps to 0.33.",
  };

  var fix = AEPage.fix, sci = AEPage.sci;
  var quiet = AESync.quiet, quiet_text = AESync.text;
  function now() { return (typeof performance !== "undefined" ? performance : Date).now(); }

  // --- numbers as written (data.py's short, cell_text) ------------------------------------
  function short(x) {
    x = Number(x);
    if (x === 0) return "0";
    var s = Math.abs(x) >= 0.01 ? fix(x, 3) : sci(x, 1);
    return s.charAt(0) === "-" ? MINUS + s.slice(1) : s;
  }
  function cell_text(w) { return fix(w, 2); }
  function round6(x) { return Number(Number(x).toPrecision(6)); }

  // --- the state: the widgets and the step ---------------------------------------------------
  // {lr, optimizer, d_k, scaled, tie, init_scale, seed, width, step}, or {error} for a box that
  // cannot be read (LearnState's number_in and whole_number word the same).
  function settings(a) {
    var L = a.limits;
    function number(v, label, b) {
      if (v == null || typeof v === "boolean" || !Number.isFinite(Number(v)) || Number(v) < b[0] || Number(v) > b[1]) {
        throw new Error(label + ": type a number from " + AELink.g6(b[0]) + " to " + AELink.g6(b[1]) +
                        "; the plate keeps what it shows.");
      }
      return Math.min(Math.max(round6(Number(v)), b[0]), b[1]);
    }
    function whole(v, label, lo, hi) {
      if (v == null || typeof v === "boolean" || !Number.isFinite(Number(v)) || Number(v) !== Math.round(Number(v)) ||
          Number(v) < lo || Number(v) > hi) {
        throw new Error(label + ": type a whole number from " + lo + " to " + hi + "; the plate keeps what it shows.");
      }
      return Number(v);
    }
    try {
      var st = {
        lr: number(a.lr.value, "Learning rate", L.lr),
        init_scale: number(a.init_scale.value, "Initial scale", L.init_scale),
        seed: whole(a.seed.value, "Seed", 0, L.seeds - 1),
        step: whole(a.run.data.step ? a.run.data.step[0] : null, "Step", 0, L.max_step),
        d_k: Number(a.d_k.value),
        optimizer: OPTIMIZERS[a.optimizer.active],
        tie: TIES[a.tie.active],
        scaled: Array.from(a.scaled.active).indexOf(0) >= 0,
      };
    } catch (err) {
      return { error: err.message };
    }
    if (D_K.indexOf(st.d_k) < 0) return { error: "Head width d_k: choose one of " + D_K.join(", ") + "." };
    if (st.optimizer == null || st.tie == null) return { error: "choose one of the buttons" };
    st.width = st.tie === "identity" ? D_MODEL : st.d_k;
    return st;
  }
  function key(st) { return SETTINGS.map(function (k) { return String(st[k]); }).join("|"); }

  function story_of(st) {
    var names = Object.keys(PRESETS);
    for (var i = 0; i < names.length; i++) {
      var want = Object.assign({}, DEFAULTS, PRESETS[names[i]]);
      if (SETTINGS.every(function (k) { return st[k] === want[k]; })) return names[i];
    }
    return "";
  }

  // --- the run --------------------------------------------------------------------------------
  // attention_core's init_state: each map Normal(0, init_scale² / d_model) from default_rng(seed),
  // i.e. the seed's standard normal draws times init_scale / √d_model, W_Q first, row by row.
  function start_state(a, st) {
    var z = a.normals.data["s" + st.seed], std = st.init_scale / Math.sqrt(D_MODEL), w = st.width;
    var out = { params: {}, m: {}, v: {}, step: 0 };
    PARAMS[st.tie].forEach(function (name, k) {
      var W = [], Z = [], Z2 = [];
      for (var r = 0; r < D_MODEL; r++) {
        var row = new Array(w);
        for (var c = 0; c < w; c++) row[c] = std * z[k * D_MODEL * w + r * w + c];
        W.push(row); Z.push(new Array(w).fill(0)); Z2.push(new Array(w).fill(0));
      }
      out.params[name] = W; out.m[name] = Z; out.v[name] = Z2;
    });
    return out;
  }
  function core_settings(st) {
    return { T: T, d_model: D_MODEL, d_k: st.width, lr: st.lr, optimizer: st.optimizer, scaled: st.scaled, tie: st.tie };
  }
  // The loss and the score maps' gradient norm at a state (head_readout's loss and grad_norm).
  function measure(run) {
    var lg = M.loss_and_grads(run.cs, run.state.params), sq = 0;
    Object.keys(lg.grads).forEach(function (n) { lg.grads[n].forEach(function (r) { r.forEach(function (g) { sq += g * g; }); }); });
    var g = Math.sqrt(sq);
    if (!Number.isFinite(lg.loss) || !Number.isFinite(g)) throw new Error("not finite");
    run.loss.push(lg.loss);
    run.grad.push(g);
  }
  function all_finite(d) {
    return Object.keys(d).every(function (n) { return d[n].every(function (r) { return r.every(Number.isFinite); }); });
  }
  function new_run(a, st) {
    var run = { st: st, key: key(st), cs: core_settings(st), state: start_state(a, st), loss: [], grad: [], stopped: "",
                running: false, raf: null, owed: 0, t_last: 0 };
    measure(run);
    return run;
  }
  // n more steps, unless a step overflows float64 (the run stops there and says so, as data.py's replay).
  function advance(run, n) {
    for (var k = 0; k < n && !run.stopped; k++) {
      var before = run.state;
      try {
        run.state = M.train_step(run.cs, before);
        if (!all_finite(run.state.params) || !all_finite(run.state.v)) throw new Error("not finite");
        measure(run);
      } catch (err) {
        run.state = before;
        run.loss.length = run.grad.length = before.step + 1;
        run.stopped = "step " + (before.step + 1) + " overflows float64: the run stops at step " + before.step;
      }
    }
  }
  // The page's run, made to match the widgets and the step (a new run, or more steps of this one).
  function run_of(a) { return a.run.__ae_run || null; }
  function ensure(a, st) {
    st = st || settings(a);
    if (st.error) return null;
    var run = run_of(a);
    if (run && run.key === key(st) && run.state.step === st.step) return run;
    if (!run || run.key !== key(st) || run.state.step > st.step) {
      var running = run ? run.running : false;
      if (run) { run.running = false; if (run.raf != null) cancelAnimationFrame(run.raf); }
      run = a.run.__ae_run = new_run(a, st);
      if (running) start_frames(a, run);
    }
    advance(run, st.step - run.state.step);
    run.st = st;
    return run;
  }

  // --- drawing ---------------------------------------------------------------------------------
  function maps_of(run) {
    var p = run.state.params;
    if (run.st.tie === "none") return [p.W_Q, p.W_K];
    if (run.st.tie === "shared") return [p.W_QK, p.W_QK];
    var I = M.one_hot_tokens(D_MODEL, D_MODEL);
    return [I, I];
  }
  function matrix_data(m) {
    var out = { r: [], c: [], value: [] };
    m.forEach(function (row, r) { row.forEach(function (v, c) { out.r.push(r); out.c.push(c); out.value.push(v); }); });
    return out;
  }
  function pattern_data(w) {
    var d = matrix_data(w);
    return { i: d.r, j: d.c, weight: d.value, text: d.value.map(cell_text) };
  }
  function history_data(values, name, floor) {
    var out = { step: values.map(function (_, k) { return k; }), y: values.map(function (v) { return Math.max(v, floor); }) };
    out[name] = values.slice();
    return out;
  }
  // The optimiser's state, every map's cells in turn (data.py's state_data).
  function state_data(run) {
    var out = { name: [], r: [], c: [], param: [], m: [], v: [] }, S = run.state;
    PARAMS[run.st.tie].forEach(function (name) {
      S.params[name].forEach(function (row, r) {
        row.forEach(function (x, c) {
          out.name.push(name); out.r.push(r); out.c.push(c); out.param.push(x);
          out.m.push(S.m[name][r][c]); out.v.push(S.v[name][r][c]);
        });
      });
    });
    return out;
  }
  // Python's answer as the page's run: its optimiser's state and its history (a served page trains
  // on from attention_core's numbers, which a long run may have parted from the page's by more
  // than rounding: see text.md).
  function adopt(a, run) {
    var d = a.train_state.data, names = PARAMS[run.st.tie], w = run.st.width, n = run.state.step;
    var loss = a.loss.data.loss, grad = a.grad.data.value;
    if (!d || !d.name || d.name.length !== names.length * D_MODEL * w || !loss || loss.length !== n + 1 ||
        !grad || grad.length !== n + 1) return false;
    var S = { params: {}, m: {}, v: {}, step: n };
    names.forEach(function (name) {
      ["params", "m", "v"].forEach(function (part) {
        S[part][name] = [];
        for (var r = 0; r < D_MODEL; r++) S[part][name].push(new Array(w).fill(0));
      });
    });
    for (var i = 0; i < d.name.length; i++) {
      var name = d.name[i], r = d.r[i], c = d.c[i];
      if (!S.params[name] || !S.params[name][r] || c >= w) return false;
      S.params[name][r][c] = d.param[i]; S.m[name][r][c] = d.m[i]; S.v[name][r][c] = d.v[i];
    }
    if (!all_finite(S.params) || !all_finite(S.m) || !all_finite(S.v)) return false;
    run.state = S;
    run.loss = Array.from(loss, Number);
    run.grad = Array.from(grad, Number);
    return true;
  }
  // A log axis's range: whole powers of ten around the values, two decades at least (data.py's decades).
  function decades(values, floor) {
    var lo = Infinity, hi = -Infinity;
    values.forEach(function (v) { v = Math.max(v, floor); lo = Math.min(lo, v); hi = Math.max(hi, v); });
    var a = Math.floor(Math.log10(lo) + 1e-9), b = Math.ceil(Math.log10(hi) - 1e-9);
    // from text (Math.pow(10, -5) is not 1e-5), with a margin so the end ticks are drawn
    return [Number("1e" + a) / 1.4, Number("1e" + Math.max(b, a + 2)) * 1.4];
  }
  // The end of the curves' step axis (data.py's steps_shown): 10, 20, 50, 100, 200, 500, ...
  function steps_shown(last) {
    var end = 10;
    while (end < last) end = String(end)[0] === "2" ? end * 5 / 2 : end * 2;
    return end;
  }
  function largest(ms) {
    var top = 0;
    ms.forEach(function (m) { m.forEach(function (r) { r.forEach(function (v) { top = Math.max(top, Math.abs(v)); }); }); });
    return top > 0 ? top : 1;
  }

  function readout_html(step, loss, grad, asym, worst, tie, note, max_step) {  // data.py's readout_html
    var sym;
    if (tie === "identity") sym = "Q = K = X: no weights to learn, and S = X Xᵀ is symmetric";
    else if (asym === 0) sym = "max |S − Sᵀ| = 0: the scores are symmetric, so i → i+1 weighs what i+1 → i weighs";
    else sym = "max |S − Sᵀ| = " + short(asym) + ": the scores are not symmetric";
    var big = "step " + step + (step >= max_step ? " (the last step)" : "") + " · loss " + short(loss) +
      " · gradient norm " + short(grad);
    var sub = sym + " · the worst row puts " + fix(100 * worst, 1) + "% on its target";
    if (note) sub += " · " + note;
    return "<div class='ae-learn-readout'><span class='ae-big'>" + big + "</span><span class='ae-sub'>" + sub +
      "</span></div>";
  }
  function story_html(name, stall) {  // data.py's story_html
    if (name) return "<div class='ae-story'><b>" + PRESET_LABELS[name] + ".</b> " + STORIES[name] + "</div>";
    if (stall) return "<div class='ae-story'>" + stall + "</div>";
    return "<div class='ae-story'>Press <b>Train</b>, or pick a story above. Every setting replays the run " +
      "from its seed to the same step.</div>";
  }
  // data.py's STALL: why a stalled run (M.stalled, attention_core's stalled) no longer moves.
  var STALL = "<b>Training has stalled: the softmax saturated.</b> Every row of the weights is one-hot (one " +
    "weight near 1, the rest near 0), and some rows sit on the wrong token. A one-hot softmax hardly " +
    "changes when its scores change, so the gradient that reaches W_Q and W_K has vanished (the " +
    "gradient norm above) and no step moves them. Scores this large come from a large initial scale, " +
    "or from a learning rate that throws them there in a few steps: lower it, and the run replays " +
    "from its start.";
  function message_html(text) { return text ? "<div class='ae-learn-message' role='alert'>" + text + "</div>" : ""; }

  // Every source and text of the run as data.py's sources() and texts() build them.
  function frame_data(a, run) {
    var r = M.head_readout(run.cs, run.state), mp = maps_of(run), worst = Math.min.apply(null, r.target_mass);
    return {
      sources: {
        loss: history_data(run.loss, "loss", a.limits.floor),
        grad: history_data(run.grad, "value", a.limits.floor),
        weights: pattern_data(r.weights),
        w_q: matrix_data(mp[0]), w_k: matrix_data(mp[1]), qk: matrix_data(r.qk),
        readout: { step: [run.state.step], loss: [r.loss], grad_norm: [r.grad_norm], asymmetry: [r.asymmetry],
                   min_target_mass: [worst] },
        train_state: state_data(run),
      },
      maps_limit: largest(mp), qk_limit: largest([r.qk]),
      loss_range: decades(run.loss, a.limits.floor), grad_range: decades(run.grad, a.limits.floor),
      steps_end: steps_shown(run.loss.length - 1),
      readout_div: readout_html(run.state.step, r.loss, r.grad_norm, r.asymmetry, worst, run.st.tie,
                                run.state.step < run.st.step ? run.stopped : "", a.limits.max_step),
      story: story_html(story_of(run.st), M.stalled(r) ? STALL : ""),
    };
  }

  var painting = false;
  function paint(a, run, text_now) {
    painting = true;
    try {
      var fd = frame_data(a, run);
      Object.keys(fd.sources).forEach(function (k) {
        if (k !== "train_state" || text_now || !run.running) quiet(a[k], { data: fd.sources[k] });  // read when training stops
      });
      quiet(a.run, { data: { step: [run.state.step] } });
      quiet(a.maps_mapper, { low: -fd.maps_limit, high: fd.maps_limit });
      quiet(a.qk_mapper, { low: -fd.qk_limit, high: fd.qk_limit });
      [[a.loss_y, fd.loss_range], [a.grad_y, fd.grad_range]].forEach(function (p) {
        if (p[0].start !== p[1][0] || p[0].end !== p[1][1]) quiet(p[0], { start: p[1][0], end: p[1][1] });
      });
      [a.loss_x, a.grad_x].forEach(function (r) { if (r.end !== fd.steps_end) quiet(r, { end: fd.steps_end }); });
      if (a.wq_x.end !== run.st.width - 0.5) { quiet(a.wq_x, { end: run.st.width - 0.5 }); quiet(a.wk_x, { end: run.st.width - 0.5 }); }
      if (a.d_k.disabled !== (run.st.tie === "identity")) quiet(a.d_k, { disabled: run.st.tie === "identity" });
      quiet_text(a.story, fd.story);
      // The readout's text lays the page out again: at most ten times a second while training.
      if (text_now || !run.running) quiet_text(a.readout_div, fd.readout_div);
      else AESync.throttle("learn-readout-" + a.readout_div.id, 100, function () { paint_readout(a); });
    } finally {
      painting = false;
    }
    if (a.link && typeof AELink !== "undefined") AELink.follow_plate(a, api);
  }
  function paint_readout(a) {
    var run = run_of(a);
    if (run) quiet_text(a.readout_div, frame_data(a, run).readout_div);
  }
  function say(a, text) { quiet_text(a.message, message_html(text)); }

  // --- the sync: what the page sends, and Python's answers ------------------------------------
  function sends(a) {
    return [[a.lr, { value: a.lr.value }], [a.optimizer, { active: a.optimizer.active }], [a.d_k, { value: a.d_k.value }],
            [a.scaled, { active: Array.from(a.scaled.active) }], [a.tie, { active: a.tie.active }],
            [a.init_scale, { value: a.init_scale.value }], [a.seed, { value: a.seed.value }],
            [a.run, { data: { step: [Number(a.run.data.step[0])] } }]];
  }
  function commit(a) { AESync.commit(a, sends(a)); }

  // Whether "rendered" (the state Python's last answer was for) is the run the page holds.
  function rendered_is(a, run) {
    var r = a.rendered.data;
    if (!r || !r.step || Number(r.step[0]) !== run.state.step) return false;
    return SETTINGS.every(function (k) {
      var v = r[k] ? r[k][0] : undefined;
      return k === "scaled" ? Boolean(v) === run.st.scaled : (typeof run.st[k] === "number" ? Number(v) === run.st[k] : v === run.st[k]);
    });
  }
  // After any change that may be Python's (its answer, or its own change from a notebook): the
  // page's run follows the widgets and the step, and where what is drawn is not for that run
  // (a late answer), the page draws its own. Looked at once the whole message has been applied.
  // When Python's answer for the page's own run ends (its optimiser's state lands last), the page
  // takes that run as its own.
  var answered = false;
  function reconcile(a) {
    var run = run_of(a), took = answered;
    answered = false;
    if (run && run.running) return;  // the next frame draws
    var st = settings(a);
    if (st.error) return;
    run = ensure(a, st);
    if (!run) return;
    if (!rendered_is(a, run)) paint(a, run, true);
    else if (took) adopt(a, run);
  }
  function guard(a) {
    if (a.rendered.__ae_guarded || typeof a.rendered.connect !== "function") return;
    a.rendered.__ae_guarded = true;
    var pending = false;
    var check = function () {
      if (painting || pending) return;
      pending = true;
      Promise.resolve().then(function () { pending = false; reconcile(a); });
    };
    a.rendered.connect(a.train_state.change, function () { if (!painting) { answered = true; check(); } });
    [a.rendered, a.run, a.loss, a.grad, a.weights, a.w_q, a.w_k, a.qk, a.readout, a.maps_mapper, a.qk_mapper,
     a.wq_x, a.loss_y, a.grad_y, a.readout_div].forEach(function (m) { a.rendered.connect(m.change, check); });
  }

  // --- training ----------------------------------------------------------------------------
  function speed(a) { return a.limits.speeds[a.speed.active] || a.limits.speeds[1]; }
  function start_frames(a, run) {
    run.running = true;
    run.owed = 0.5;  // a step is taken once half of one is owed: at 60 a second on a 60 Hz screen, one a frame
    run.t_last = now();
    run.raf = requestAnimationFrame(function (t) { frame(a, run); });
  }
  // One animation frame: the steps owed at this pace since the last frame, then every chart.
  function frame(a, run) {
    if (!run.running || run_of(a) !== run) return;
    var t = now(), dt = Math.min(Math.max(t - run.t_last, 0), 250);
    run.t_last = t;
    run.owed += dt / 1000 * speed(a);
    var n = Math.min(Math.floor(run.owed), a.limits.max_step - run.state.step);
    run.owed -= Math.floor(run.owed);
    if (n > 0) {
      advance(run, n);
      run.st = Object.assign({}, run.st, { step: run.state.step });
      paint(a, run);
    }
    if (run.state.step >= a.limits.max_step || run.stopped) {
      stop(a, run);
      commit(a);
      return;
    }
    run.raf = requestAnimationFrame(function () { frame(a, run); });
  }
  function stop(a, run) {
    run.running = false;
    if (run.raf != null) cancelAnimationFrame(run.raf);
    run.raf = null;
    quiet(a.train, { label: "Train" });
    paint(a, run, true);
  }
  function start(a, run) {
    guard(a);
    AESync.lead(a);
    AESync.changed();  // the student's change (Train, a story), though its commit waits for Pause
    quiet(a.train, { label: "Pause" });
    start_frames(a, run);
  }

  // Train / Pause.
  function on_train(a) {
    guard(a);
    var st = settings(a);
    if (st.error) { say(a, st.error); return; }
    var run = run_of(a);
    if (run && run.running) { stop(a, run); commit(a); return; }
    run = ensure(a, st);
    say(a, "");
    if (run.state.step >= a.limits.max_step || run.stopped) {
      say(a, run.stopped ? "The run cannot go further: " + run.stopped + ". Press Reset to start again." :
        "The run is at its last step, " + a.limits.max_step + ": press Reset to start again.");
      return;
    }
    start(a, run);
  }
  function on_one_step(a) {
    guard(a);
    var st = settings(a);
    if (st.error) { say(a, st.error); return; }
    var run = ensure(a, st);
    say(a, "");
    AESync.lead(a);
    if (run.running) stop(a, run);
    if (run.state.step < a.limits.max_step) advance(run, 1);
    run.st = Object.assign({}, run.st, { step: run.state.step });
    paint(a, run, true);
    commit(a);
  }
  function on_reset(a) {
    guard(a);
    var st = settings(a);
    if (st.error) { say(a, st.error); return; }
    var old = run_of(a);
    if (old && old.running) stop(a, old);
    AESync.lead(a);
    st.step = 0;
    quiet(a.run, { data: { step: [0] } });
    var run = a.run.__ae_run = new_run(a, st);
    say(a, "");
    paint(a, run, true);
    commit(a);
  }
  // Set the widgets (quietly: the commit sends them) and the step to `v`'s values.
  function set_widgets(a, v) {
    if (v.lr !== undefined) quiet(a.lr, { value: v.lr });
    if (v.optimizer !== undefined) quiet(a.optimizer, { active: OPTIMIZERS.indexOf(v.optimizer) });
    if (v.d_k !== undefined) quiet(a.d_k, { value: String(v.d_k) });
    if (v.scaled !== undefined) quiet(a.scaled, { active: v.scaled ? [0] : [] });
    if (v.tie !== undefined) quiet(a.tie, { active: TIES.indexOf(v.tie) });
    if (v.init_scale !== undefined) quiet(a.init_scale, { value: v.init_scale });
    if (v.seed !== undefined) quiet(a.seed, { value: v.seed });
    if (v.step !== undefined) quiet(a.run, { data: { step: [v.step] } });
  }
  // A story: its settings from step 0, and training starts.
  function on_story(a, name) {
    guard(a);
    var old = run_of(a);
    if (old && old.running) stop(a, old);
    AESync.lead(a);
    set_widgets(a, Object.assign({}, DEFAULTS, PRESETS[name], { step: 0 }));
    var run = ensure(a);
    say(a, "");
    paint(a, run, true);
    start(a, run);
  }
  // A setting changed (a box, a button, a select; or Python changed it): the same step of the
  // new settings' run, at once; while training, training goes on from there.
  function on_widget(a) {
    guard(a);
    var st = settings(a), run = run_of(a);
    if (st.error) {
      say(a, st.error);
      if (run) put_back(a, run.st);  // the box shows the last good value again (and Python is told)
      return;
    }
    var same = run && run.key === key(st);
    if (same && (run.running || run.state.step === st.step)) {
      if (st.lr !== a.lr.value || st.init_scale !== a.init_scale.value) round_boxes(a, st);
      return;  // nothing new: this file set the widgets itself, or Python's answer did
    }
    if (run && run.running) {
      st.step = run.state.step;
      run = ensure(a, st);  // a new run at the same step; it goes on training
      say(a, "");
      paint(a, run);
      return;
    }
    run = ensure(a, st);
    say(a, "");
    round_boxes(a, st);
    paint(a, run, true);
    AESync.until_still(a, function () { return sends(a); });
  }
  // The boxes hold their numbers to six digits, as a link writes them.
  function round_boxes(a, st) {
    if (a.lr.value !== st.lr) quiet(a.lr, { value: st.lr });
    if (a.init_scale.value !== st.init_scale) quiet(a.init_scale, { value: st.init_scale });
  }
  function put_back(a, st) {  // a plain setv is sent, as the student's own change was
    if (a.lr.value == null) a.lr.setv({ value: st.lr });
    if (a.init_scale.value == null) a.init_scale.setv({ value: st.init_scale });
    if (a.seed.value == null) a.seed.setv({ value: st.seed });
  }

  // --- the link (app/runtime/link.js) ------------------------------------------------------
  function url_values(a) {
    var st = settings(a);
    if (st.error) { var run = run_of(a); st = run ? run.st : null; }
    if (!st) return {};
    var out = {};
    ["step"].concat(SETTINGS).forEach(function (k) { out[k] = st[k]; });
    return out;
  }
  // An exported page's link (no Python): the widgets and the step, then the run replayed to it.
  function url_apply(a, v) {
    guard(a);
    set_widgets(a, v);
    var run = ensure(a);
    if (run) paint(a, run, true);
  }

  // --- keyboard and screen readers (a11y.js) -------------------------------------------------
  // Every control is a Bokeh widget, reached with Tab; the live region reads the readout.
  function speak_text(a) { return AEA11y.text_of(a.readout_div.text); }
  function on_ready(a) {
    guard(a);
    var run = ensure(a);  // the run the page shows (Python's numbers, or the link's replay), ready to go on
    if (run && rendered_is(a, run)) adopt(a, run);  // a served page: Python's run (an exported one: its own)
    if (typeof document === "undefined") return;
    AEA11y.init(a, function () { return speak_text(a); });
  }

  var api = {
    short: short, cell_text: cell_text, round6: round6, settings: settings, key: key, story_of: story_of,
    start_state: start_state, new_run: new_run, advance: advance, ensure: ensure, frame_data: frame_data,
    readout_html: readout_html, story_html: story_html, message_html: message_html, paint: paint, sends: sends,
    adopt: adopt, state_data: state_data, reconcile: reconcile,
    on_train: on_train, on_one_step: on_one_step, on_reset: on_reset, on_story: on_story, on_widget: on_widget,
    on_ready: on_ready, url_values: url_values, url_apply: url_apply, speak_text: speak_text,
    PRESETS: PRESETS, PRESET_LABELS: PRESET_LABELS, STORIES: STORIES, DEFAULTS: DEFAULTS,
    run_of: run_of, speed: speed,
  };
  if (typeof globalThis !== "undefined") globalThis.LearnLive = api;
  return api;
})();
if (typeof module !== "undefined" && module.exports) module.exports = LearnLive;
