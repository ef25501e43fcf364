"""The multi-head plate's state (d_model, h, n), its choices and bounds, and the rule every pair
must keep: h divides d_model (`split_problem`; multi_head.js's split_problem writes the same)."""

from __future__ import annotations

import param

import attention_core as ac
from app.shared.state import PlateState

D_CHOICES = [4, 8, 16, 512]
MAP_WIDTHS = (4, 8, 16)  # widths the heat maps are computed at
MAX_MAP_WIDTH = 16  # d_model = 512 keeps the heat maps at this width
H_CHOICES = [1, 2, 4, 8]
N_MIN, N_MAX = 2, 8
SEED = 0
PAPER = (512, 8)  # the transformer paper's d_model and h


def map_width(d_model: int) -> int:
    """The width the heat maps are computed at: d_model itself, or 16 for the paper's 512."""
    return d_model if d_model in MAP_WIDTHS else MAX_MAP_WIDTH


def split_problem(d_model: int, h: int) -> str:
    """The refusal shown when h does not divide d_model ('' when it does)."""
    if d_model % h == 0:
        return ""
    fits = [str(k) for k in H_CHOICES if d_model % k == 0]
    ok = ", ".join(fits[:-1]) + " or " + fits[-1] if len(fits) > 1 else fits[0]
    return (f"{h} heads cannot share d_model = {d_model}: each head would be {d_model / h:g} wide. "
            f"With d_model = {d_model} choose {ok} heads.")


class SplitRefused(ValueError):
    """A (d_model, h) pair where h does not divide d_model; its text is split_problem's."""


class MultiHeadState(PlateState):
    """What the multi-head plate shows; d_model, h and n round-trip through the URL."""

    d_model = param.Selector(default=8, objects=D_CHOICES,
                             doc="Model width. 4, 8 and 16 are computed in the heat maps; 512 (the paper's) "
                                 "is shown by the counter and the divisors while the maps stay at 16.")
    h = param.Selector(default=2, objects=H_CHOICES, doc="Number of heads; must divide d_model.")
    n = param.Integer(5, bounds=(N_MIN, N_MAX), doc="Number of tokens (rows of X).")
    message = param.String("", doc="Why the last request was refused ('' when nothing was).")
    slide = param.Boolean(False, doc="The page shows the plate as slides (its link asks for present=1 or embed=1: "
                                     "app/shared/scenes.py), not the student's choice: the head maps are then "
                                     "placed for a slide (layout.py). Set by apply_url.")

    url_fields = ("d_model", "h", "n")

    def __init__(self, **params):
        super().__init__(**params)
        problem = split_problem(self.d_model, self.h)
        if problem:
            raise ValueError(problem)
        self.param.watch(self._keep_split, ["d_model", "h"])

    def _keep_split(self, *events) -> None:
        """Refuse a d_model / h pair where h does not divide d_model: put back what changed."""
        problem = split_problem(self.d_model, self.h)
        if not problem:
            self.message = ""
            return
        with param.parameterized.discard_events(self):
            self.param.update({e.name: e.old for e in events})
        self.message = problem

    # --- derived numbers -------------------------------------------------------------------
    @property
    def width(self) -> int:
        return map_width(self.d_model)

    @property
    def d_k(self) -> int:
        return ac.head_width(self.d_model, self.h)

    def inputs(self):
        """(X (n, w), Wq, Wk, Wv, Wo (w, w)) at the heat maps' width w, from the seeded recipe."""
        return ac.multi_head_recipe(self.n, self.width, SEED)

    def result(self):
        """attention_core's (output (n, w), weights (h, n, n), concat (n, w)) at the maps' width."""
        return ac.multi_head_attention(*self.inputs(), self.h)

    def counts(self) -> dict:
        return ac.param_counts(self.d_model, self.h)

    # --- URL -------------------------------------------------------------------------------
    def apply_url(self, args) -> list[str]:
        self.message = ""
        # The page's settings that show scenes (app/runtime/scenes.js starts them on the same test).
        self.slide = args.get("present") == "1" or args.get("embed") == "1"
        notices = super().apply_url(args)
        if self.message:
            notices.append(f"ignored the combination: {self.message.rstrip('.')}")
            self.message = ""  # said once, in the link notice
        return notices
