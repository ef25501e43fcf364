"""A plate's words, kept in its package's text.md so that they can be read, edited and translated
apart from the code: a `# Title` line, then `## Summary`, `## Lead` and `## Explanation` sections
(Markdown; the lead may be empty), and `## Scenes`: one `- name: Title` line for each of the plate's
scenes (app/shared/scenes.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

SECTIONS = ("summary", "lead", "explanation", "scenes")
SCENE_LINE = re.compile(r"^- ([a-z0-9-]+): (.+)$")


@dataclass(frozen=True)
class PlateText:
    title: str
    summary: str
    lead: str
    explanation: str
    scenes: dict[str, str]  # scene name -> its title


def plate_text(package: str) -> PlateText:
    """The text.md of `package` (e.g. "app.plates.lookup"); ValueError naming what is missing."""
    source = files(package).joinpath("text.md").read_text(encoding="utf-8")
    title = re.search(r"^# (.+)$", source, re.MULTILINE)
    if title is None:
        raise ValueError(f"{package}/text.md has no '# Title' line")
    parts = dict.fromkeys(SECTIONS, None)
    for m in re.finditer(r"^## (\w+)\n(.*?)(?=^## |\Z)", source, re.MULTILINE | re.DOTALL):
        name = m.group(1).lower()
        if name not in parts:
            raise ValueError(f"{package}/text.md: unknown section '## {m.group(1)}' (expected {', '.join(SECTIONS)})")
        parts[name] = m.group(2).strip()
    missing = [n for n in ("summary", "explanation") if not parts[n]]
    if missing:
        raise ValueError(f"{package}/text.md lacks the section(s) {', '.join(missing)}")
    scenes = {}
    for line in (parts["scenes"] or "").splitlines():
        m = SCENE_LINE.match(line.strip())
        if m is None:
            raise ValueError(f"{package}/text.md '## Scenes': expected '- name: Title', got {line.strip()!r}")
        scenes[m.group(1)] = m.group(2).strip()
    return PlateText(title.group(1).strip(), parts["summary"], parts["lead"] or "", parts["explanation"], scenes)
