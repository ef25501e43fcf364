"""What the worked plate declares to the checks every plate passes and to the SCORM export
(docs/adding-a-plate.md says what a contract holds)."""

from __future__ import annotations

import numpy as np

from app.plates.registry import Click

# The SCORM package (app/delivery/scorm.py): when this page counts as done, and the gesture
# tests/browser/test_scorm.py makes to complete it.
SCORM_DONE = ("pressed Step or Back, chosen a preset, typed a vector, made a guess, moved the length slider, "
              "or dragged the query")
SCORM_GESTURE = Click("step_next", "button")


def state_checks(s) -> dict[str, bool]:
    """What a state the page can show satisfies, by name (every value True)."""
    from app.plates.worked.inputs import MAX_DK, MAX_DV, MAX_ENTRY, MAX_KEYS
    from app.plates.worked.presets import PRESETS
    from app.plates.worked.state import STAGES

    q, K, V = s.arrays  # (d_k,), (m, d_k), (m, d_v)
    return {
        "preset one of the presets": s.preset in PRESETS,
        "scaled a bool": isinstance(s.scaled, bool),
        "step within the stages": 0 <= s.step <= len(STAGES),
        "the shapes within their limits": 1 <= q.size <= MAX_DK and 1 <= K.shape[0] <= MAX_KEYS and 1 <= V.shape[1] <= MAX_DV,
        "every entry finite and within its limit": all(bool(np.all(np.isfinite(a))) and bool(np.all(np.abs(a) <= MAX_ENTRY))
                                                       for a in (q, K, V)),
        "weights summing to 1": abs(s.steps().weight.sum() - 1.0) < 1e-12,
    }


def url_text(f, name: str) -> str | None:
    """A link's text for the field `name` (None: the shared checks' own, by the field's type)."""
    if name in ("query", "keys", "values"):
        rows = 1 if name == "query" else int(f.rng.integers(1, 8))
        return f.vector_text(rows, int(f.rng.integers(1, 6)), sep_row=f.pick([";", "\n"]), sep=f.pick([",", " ", ", "]))
    return None


def browser_case(f, p) -> None:
    """One thing a served page can send (`f`: tests/app/test_state_properties.py's Fuzz)."""
    from app.plates.worked.presets import PRESETS

    r = f.rng.random()
    if r < 0.3:
        w = [p.query_w, p.keys_w, p.values_w][int(f.rng.integers(3))]
        text = f.field("keys") if f.rng.random() < 0.8 else f.hostile_text()
        f.set(w, "value_input", text if len(text) < 10**5 else text[:10**5])
    elif r < 0.4:
        f.set(p.length_w, "value", f.number())
    elif r < 0.5:
        f.set(p.stage_w, "active", f.active(5, False))
    elif r < 0.55:
        f.set(p.preset_w, "value", str(f.pick(list(PRESETS) + ["nope", ""])))
    elif r < 0.6:
        f.set(p.scaled_w, "active", f.active(1, True))
    elif r < 0.68:
        f.set(p.guess_key_w, "value", str(f.pick(["k1", "k9", "", "<script>", "x" * 300])))
        f.set(p.guess_out_w, "value_input", str(f.pick(f.HOSTILE_TEXT[:40] + ["1, 2", "0.5"])))
    elif r < 0.88:  # the end of a drag: the sources' vectors, then the plot's tags
        src = [p.query_src, p.keys_src, p.values_src][int(f.rng.integers(3))]
        data = {k: list(v) for k, v in src.data.items()}
        if data.get("vec"):
            j = int(f.rng.integers(0, len(data["vec"])))
            vec = list(data["vec"][j])
            vec[int(f.rng.integers(0, len(vec)))] = f.number()
            data["vec"][j] = vec if f.rng.random() < 0.9 else vec + [1.0]
        f.set(src, "data", data)
        f.set(p.sync, "tags", [str(f.rng.integers(1e9))])
    else:
        s = p.state
        try:
            if f.rng.random() < 0.5:
                s.set_length(f.number())
            else:
                d_k, m = int(f.rng.integers(1, 6)), int(f.rng.integers(1, 8))
                s.set_inputs(f.rng.normal(size=d_k) * f.pick([1, 100]), f.rng.normal(size=(m, d_k)),
                             f.rng.normal(size=(m, int(f.rng.integers(1, 4)))))
        except ValueError:
            pass  # refused by name; the state keeps its last good numbers
