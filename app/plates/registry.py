"""The one list of plates. A plate is a package of app/plates plus one line here (docs/adding-a-plate.md).

Besides its plate class, each package holds contract.py: what the plate declares to the checks
that apply to every plate (tests/app/test_state_properties.py, tests/browser/test_scorm.py) and
to the SCORM export (app/delivery/scorm.py). `contract(slug)` returns it; `Click` and `Drag` are
the gestures it can name.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from types import ModuleType

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


def contract(slug: str) -> ModuleType:
    """The plate's contract.py (e.g. app.plates.lookup.contract); docs/adding-a-plate.md says what it holds."""
    return import_module(package(slug) + ".contract")


@dataclass(frozen=True)
class Click:
    """A real mouse click on the element matching `selector` inside the view of the model named
    `name`. `holds`, when given, is (model name, property, value): true when the page has just
    reported "completed" (learn: Train reads "Pause", so completion came before training stopped)."""

    name: str
    selector: str
    holds: tuple[str, str, object] | None = None


@dataclass(frozen=True)
class Drag:
    """A real mouse drag in the plot named `plot`, from the first point (x, y) of the source named
    `source` to `to`, in the plot's data coordinates."""

    plot: str
    source: str
    to: tuple[float, float]


def neighbours(slug: str) -> tuple[str | None, str | None]:
    """The previous and next plates' slugs (None at either end)."""
    order = slugs()
    i = order.index(slug)
    return (order[i - 1] if i > 0 else None, order[i + 1] if i + 1 < len(order) else None)
