"""What the learn plate declares to the checks every plate passes and to the SCORM export
(docs/adding-a-plate.md says what a contract holds)."""

from __future__ import annotations

from app.plates.registry import Click

# The SCORM package (app/delivery/scorm.py): when this page counts as done, and the gesture
# tests/browser/test_scorm.py makes to complete it. Train completes when training starts, long
# before its commit at Pause: the button still reads Pause when the page reports completed.
SCORM_DONE = ("pressed Train (counted when training starts; its commit waits for Pause), One step or Reset, "
              "chosen a story, or changed a setting")
SCORM_GESTURE = Click("train", "button", holds=("train", "label", "Pause"))

# A render replays the run in NumPy up to the link's step (2000 at most, about a second): the
# state check renders the first 25 distinct states links reach, then every 250th.
RENDER_CADENCE = (25, 250)


def state_checks(s) -> dict[str, bool]:
    """What a state the page can show satisfies, by name (every value True)."""
    from app.plates.learn.state import D_K_CHOICES, INIT_BOUNDS, LR_BOUNDS, MAX_STEP, OPTIMIZERS, SEEDS, TIES

    s.settings()  # attention_core takes it (it raises otherwise)
    return {
        "step a whole number within its bounds": type(s.step) is int and 0 <= s.step <= MAX_STEP,
        "seed a whole number among the seeds": type(s.seed) is int and 0 <= s.seed < SEEDS,
        "lr within its bounds": LR_BOUNDS[0] <= s.lr <= LR_BOUNDS[1],
        "init_scale within its bounds": INIT_BOUNDS[0] <= s.init_scale <= INIT_BOUNDS[1],
        "d_k, tie and optimizer among their choices": s.d_k in D_K_CHOICES and s.tie in TIES and s.optimizer in OPTIMIZERS,
        "scaled a bool": isinstance(s.scaled, bool),
    }


def browser_case(f, p) -> None:
    """What learn.js sends when training stops (a commit: the widgets and the step under a "busy"
    mark), or one widget's change alone (a hostile page may send anything)."""
    r = f.rng.random()
    if r < 0.4:  # a commit: the step and one box, as the page sends them
        p.sync.tags = ["busy"]
        step = f.number() if f.rng.random() < 0.3 else int(f.rng.integers(-5, 400))
        f.set(p.srcs["run"], "data", {"step": [step]} if f.rng.random() < 0.9 else {"step": [1, 2]})
        box = [p.lr_w, p.init_w, p.seed_w][int(f.rng.integers(3))]
        f.set(box, "value", f.number() if f.rng.random() < 0.5 else float(f.rng.uniform(0, 3)))
        p.sync.tags = []
    elif r < 0.6:
        f.set(p.dk_w, "value", str(f.pick(["1", "8", "64", "3", "nan", "", "1e9"])))
    elif r < 0.8:
        w = [p.tie_w, p.optimizer_w, p.speed_w][int(f.rng.integers(3))]
        f.set(w, "active", f.active(3, False))
    else:
        f.set(p.scaled_w, "active", f.active(1, True))
