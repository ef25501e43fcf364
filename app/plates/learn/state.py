"""The learn plate's state: the settings of one training run (learning rate, optimiser, d_k,
÷√d_k, how the maps are tied, the initial scale, the seed) and how many steps it has taken.
The state is the link: a run is replayed from its seed, so ?step=300 means "these settings,
300 steps from the seed's start", in Python (attention_core.train) and in learn.js alike.

The stories (PRESETS) are settings of their own; a state whose settings are exactly a story's
shows that story's words (`story()`), whatever its step."""

from __future__ import annotations

import math

import param

import attention_core as ac
from app.shared.state import PlateState

T, D_MODEL = 6, 8  # the toy task: six one-hot tokens in a model of width eight
D_K_CHOICES = [1, 2, 4, 8, 16, 32, 64]
TIES = ["none", "shared", "identity"]  # attention_core.training.TIES
TIE_LABELS = ["W_Q, W_K", "W_Q = W_K", "Q = K = X"]
OPTIMIZERS = ["adam", "gd"]
OPTIMIZER_LABELS = ["Adam", "gradient descent"]
SEEDS = 16  # seeds 0..15: the page carries each seed's normal draws (learn.js has no NumPy generator)
MAX_STEP = 2000  # Python replays a link from its seed: 2000 steps take ~3 s there, 0.2 s in the browser
LR_BOUNDS = (0.0001, 5.0)
INIT_BOUNDS = (0.01, 50.0)

# The stories: settings that tell one thing each (every other setting at its default, step 0).
PRESETS: dict[str, dict] = {
    "one-map": {"tie": "shared"},
    "two-maps": {},
    "saturated": {"init_scale": 30.0, "optimizer": "gd", "lr": 1.0},
    "dk64-scaled": {"d_k": 64, "init_scale": 3.0, "scaled": True},
    "dk64-raw": {"d_k": 64, "init_scale": 3.0, "scaled": False},
}
PRESET_LABELS = {
    "one-map": "One map: symmetric, and it fails",
    "two-maps": "Two maps: the asymmetry is learned",
    "saturated": "Start saturated: the gradient dies",
    "dk64-scaled": "d_k = 64 with ÷√d_k",
    "dk64-raw": "d_k = 64 without ÷√d_k",
}
# What each story shows (seed 0; learn.js's STORIES holds the same words).
STORIES = {
    "one-map": "One matrix serves as W_Q and W_K, so the scores are symmetric, S = Sᵀ: token i pulls on "
               "i + 1 exactly as hard as i + 1 pulls on i. Train: max |S − Sᵀ| stays 0 and the loss stops "
               "near 0.78, far from 0.",
    "two-maps": "Separate W_Q and W_K. Train: the weights leave the uniform 1/6 and settle on the target, "
                "the loss falls toward 0 and max |S − Sᵀ| grows: the head has learned an asymmetric relation.",
    "saturated": "Weights 30 times larger: every row of the softmax starts one-hot, where its Jacobian is ~0. "
                 "The gradient norm is 5e-8 and plain gradient descent does not move: the loss stays at 1.333. "
                 "Switch to Adam, which rescales even a dead gradient, and compare.",
    "dk64-scaled": "d_k = 64 and weights 3 times larger, the scores divided by √64 = 8: they start moderate, "
                   "and Adam learns the shift in about 50 steps.",
    "dk64-raw": "The same head without ÷√64: scores 8 times larger, rows that start near one-hot, and a run "
                "that gets stuck with rows on the wrong token: the loss stalls at 0.22 and, near step 780, "
                "jumps to 0.33.",
}


class LearnState(PlateState):
    """One training run: its settings and its step; every field round-trips through the URL."""

    step = param.Integer(0, bounds=(0, MAX_STEP), doc="Steps taken from the seed's start (0 to 2000).")
    lr = param.Number(0.05, bounds=LR_BOUNDS, doc="Learning rate (0.0001 to 5).")
    optimizer = param.Selector(default="adam", objects=OPTIMIZERS, doc="adam or gd (plain gradient descent).")
    d_k = param.Selector(default=8, objects=D_K_CHOICES,
                         doc="Width of the queries and keys (Q = K = X uses d_model = 8 instead).")
    scaled = param.Boolean(True, doc="Divide the scores by √d_k.")
    tie = param.Selector(default="none", objects=TIES,
                         doc="none: separate W_Q and W_K; shared: W_Q = W_K; identity: Q = K = X.")
    init_scale = param.Number(1.0, bounds=INIT_BOUNDS,
                              doc="Initial weights ~ Normal(0, init_scale² / d_model) (0.01 to 50).")
    seed = param.Integer(0, bounds=(0, SEEDS - 1), doc="Seed of the initial weights (0 to 15).")
    message = param.String("", doc="Why the page's last request was refused ('' when nothing was).")

    url_fields = ("step", "lr", "optimizer", "d_k", "scaled", "tie", "init_scale", "seed")
    SETTINGS = ("lr", "optimizer", "d_k", "scaled", "tie", "init_scale", "seed")

    # --- derived --------------------------------------------------------------------------
    @property
    def width(self) -> int:
        """The d_k the head uses: d_model when Q = K = X (there is no map to make it narrower)."""
        return D_MODEL if self.tie == "identity" else self.d_k

    def settings(self) -> ac.TrainSettings:
        """attention_core's settings for this run."""
        return ac.TrainSettings(T=T, d_model=D_MODEL, d_k=self.width, seed=self.seed, lr=self.lr,
                                optimizer=self.optimizer, scaled=self.scaled, tie=self.tie,
                                init_scale=self.init_scale)

    def story(self) -> str:
        """The story whose settings these are ('' for none)."""
        return story_of({k: getattr(self, k) for k in self.SETTINGS})

    def apply_preset(self, name: str) -> None:
        """A story's settings, from step 0; ValueError for an unknown name."""
        self.param.update(preset_values(name))


def preset_values(name: str) -> dict:
    """Every URL field's value for the story `name` (step 0, the rest at their defaults)."""
    if name not in PRESETS:
        raise ValueError(f"unknown story {name!r}; the stories are {', '.join(PRESETS)}")
    values = {n: LearnState.param[n].default for n in LearnState.url_fields}
    values.update(PRESETS[name])
    values["step"] = 0
    return values


def story_of(settings: dict) -> str:
    """The name of the story with exactly these settings ('' for none)."""
    for name in PRESETS:
        want = preset_values(name)
        if all(settings[k] == want[k] for k in LearnState.SETTINGS):
            return name
    return ""


def round6(x: float) -> float:
    """x to six significant digits, as a link writes it: what a box's value becomes in the state."""
    return float(f"{x:.6g}")


def number_in(value, label: str, lo: float, hi: float) -> float:
    """A typed box's number in [lo, hi] to six significant digits; ValueError with the words the
    page shows otherwise (learn.js's settings() writes the same)."""
    words = f"{label}: type a number from {lo:g} to {hi:g}; the plate keeps what it shows."
    if value is None or isinstance(value, bool):
        raise ValueError(words)
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(words) from None
    if not math.isfinite(x) or not lo <= x <= hi:
        raise ValueError(words)
    return min(max(round6(x), lo), hi)
