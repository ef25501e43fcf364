"""The one list of plates. A plate is a package of app/plates plus one line here (docs/adding-a-plate.md)."""

from __future__ import annotations

from importlib import import_module

# (slug, "package:Class"), in reading order; each package exports its plate class.
PLATES: list[tuple[str, str]] = [
    ("lookup", "app.plates.lookup:LookupPlate"),
    ("worked", "app.plates.worked:WorkedPlate"),
    ("scaling", "app.plates.scaling:ScalingPlate"),
    ("self-attention", "app.plates.self_attention:SelfAttentionPlate"),
    ("masking", "app.plates.masking:MaskingPlate"),
    ("multi-head", "app.plates.multi_head:MultiHeadPlate"),
    ("learn", "app.plates.learn:LearnPlate"),
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


def package(slug: str) -> str:
    """The plate's package, e.g. "app.plates.self_attention" (its files: docs/adding-a-plate.md)."""
    return plate_class(slug).__module__.rpartition(".")[0]


def neighbours(slug: str) -> tuple[str | None, str | None]:
    """The previous and next plates' slugs (None at either end)."""
    order = slugs()
    i = order.index(slug)
    return (order[i - 1] if i > 0 else None, order[i + 1] if i + 1 < len(order) else None)
