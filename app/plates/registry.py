"""The one list of plates. Adding a plate is one module in app/plates and one line here."""

from __future__ import annotations

from importlib import import_module

# (slug, "module:Class"), in reading order.
PLATES: list[tuple[str, str]] = [
    ("lookup", "app.plates.lookup:LookupPlate"),
    ("worked", "app.plates.worked:WorkedPlate"),
    ("scaling", "app.plates.scaling:ScalingPlate"),
    ("self-attention", "app.plates.self_attention:SelfAttentionPlate"),
    ("masking", "app.plates.masking:MaskingPlate"),
    ("multi-head", "app.plates.multi_head:MultiHeadPlate"),
]


def slugs() -> list[str]:
    return [slug for slug, _ in PLATES]


def plate_class(slug: str):
    """The PlateViewer class registered under `slug`; ValueError for an unknown slug."""
    for s, target in PLATES:
        if s == slug:
            module, _, name = target.partition(":")
            return getattr(import_module(module), name)
    raise ValueError(f"unknown plate '{slug}'; known plates: {', '.join(slugs())}")


def neighbours(slug: str) -> tuple[str | None, str | None]:
    """The previous and next plates' slugs (None at either end)."""
    order = slugs()
    i = order.index(slug)
    return (order[i - 1] if i > 0 else None, order[i + 1] if i + 1 < len(order) else None)
