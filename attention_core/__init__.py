"""attention_core: the arithmetic of attention in NumPy, arrays in and arrays out.

It imports NumPy and the standard library only; the app and every test treat it as the
authority for every number the plates show.
"""

from .attention import attention, default_scale, scores
from .geometry import cartesian, polar
from .lookup import LookupSteps, lookup_steps
from .softmax import softmax
from .worked import convex_hull, length_sweep, prediction_error
from .scaling import dot_product_samples, entropy, flat_line, normal_density, score_histogram, softmax_jacobian
from .self_attention import check_perm, cross_attention, permutation_check, self_attention, sinusoidal_positions
from .masking import MaskingSteps, attention_loop, causal_mask, masked_scores, masking_steps, padding_mask, window_mask, zero_after_softmax
from .multi_head import head_divisor, head_scores, head_width, merge_heads, multi_head_attention, multi_head_recipe, param_counts, split_heads
from .backward import attention_grads
from .training import SATURATED, HeadReadout, TrainHistory, TrainSettings, TrainState, head_readout, init_state, loss_and_grads, one_hot_tokens, stalled, target_weights, train, train_step

__all__ = [
    "attention",
    "attention_grads",
    "attention_loop",
    "cartesian",
    "causal_mask",
    "check_perm",
    "convex_hull",
    "cross_attention",
    "default_scale",
    "dot_product_samples",
    "entropy",
    "flat_line",
    "head_divisor",
    "head_readout",
    "head_scores",
    "head_width",
    "HeadReadout",
    "init_state",
    "length_sweep",
    "lookup_steps",
    "LookupSteps",
    "loss_and_grads",
    "masked_scores",
    "masking_steps",
    "MaskingSteps",
    "merge_heads",
    "multi_head_attention",
    "multi_head_recipe",
    "normal_density",
    "one_hot_tokens",
    "padding_mask",
    "param_counts",
    "permutation_check",
    "polar",
    "prediction_error",
    "SATURATED",
    "score_histogram",
    "scores",
    "self_attention",
    "sinusoidal_positions",
    "softmax",
    "softmax_jacobian",
    "split_heads",
    "stalled",
    "target_weights",
    "train",
    "train_step",
    "TrainHistory",
    "TrainSettings",
    "TrainState",
    "window_mask",
    "zero_after_softmax",
]
