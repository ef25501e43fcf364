"""Scenes: the slide-sized views a plate offers a lecture, in teaching order.

A lecture is a 16:9 slide seen from the back of a hall, not a window: there a plate shows one
point at a time, in type the back row reads, and nothing scrolls. Each plate declares a few
scenes in its own package (`scenes.py`): which of its named models a scene shows (a figure or
two, the control that moves them, the numbers that matter) and which of those carry its main
numbers. Their titles are words, kept with the plate's other words in its text.md
(`## Scenes`: one `- name: Title` line each).

A plate may also give `STILL` words: for a still picture (`?still=1`, the figure command) the
words of a part that ask a hand to act ("Drag the query…") are replaced by these, and controls go.

`?scene=NAME` in a link selects one. With `?present=1` the page shows one scene at a time,
filling the screen, and the presenter's keys step through them (app/runtime/scenes.js); with
`?embed=1` a frame shows one scene (the first unless the link names another). The plate's
state is the same in every scene: stepping on keeps what the previous scene set.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Type on a slide, in CSS pixels at a 960×540 frame, and scaled with the frame's size (a 1280×720
# present page is the same scene, larger): no text under MIN_PX, the scene's main numbers at
# MAIN_PX or more. An embedded frame without present mode keeps its type at PLAIN_MIN_PX or more.
SLIDE_WIDTH, SLIDE_HEIGHT = 960, 540
MIN_PX = 18
MAIN_PX = 24
PLAIN_MIN_PX = 14


@dataclass(frozen=True)
class Scene:
    """One slide-sized view of a plate.

    name   what `?scene=` says (a short lower-case word or two joined by '-');
    parts  the plate's named models the scene shows (figures, widgets, Divs); every other named
           model of the plate is hidden while it is on screen;
    main   the parts whose text is the scene's main numbers (bar labels, the output's readout):
           MAIN_PX or more on a slide;
    sizes  {part: (width, height)}: the share of the slide a part takes, each a fraction of the
           frame (height below the present page's bar) or None to leave that size to the part; the
           plate's own layout places the parts (its rows and columns), and the fit then corrects
           what the type makes too large. A figure tagged "ae-keep-shape" gets a square frame as
           large as its share holds;
    title  the scene's title, from the plate's text.md (filled in by `with_titles`).
    """

    name: str
    parts: tuple[str, ...]
    main: tuple[str, ...] = ()
    sizes: dict = field(default_factory=dict)
    title: str = ""

    def __post_init__(self):
        if not self.name or not all(c.isalnum() or c == "-" for c in self.name) or self.name != self.name.lower():
            raise ValueError(f"a scene's name is lower-case letters, digits and '-': got {self.name!r}")
        if not self.parts:
            raise ValueError(f"scene {self.name!r} shows nothing: give it parts")
        stray = [m for m in [*self.main, *self.sizes] if m not in self.parts]
        if stray:
            raise ValueError(f"scene {self.name!r}: {stray} are not among its parts {list(self.parts)}")
        for part, share in self.sizes.items():
            if len(share) != 2 or not all(x is None or 0 < x <= 1 for x in share):
                raise ValueError(f"scene {self.name!r}: the size of {part!r} is (width, height), each a fraction "
                                 f"of the slide in (0, 1] or None; got {share!r}")


def with_titles(scenes: tuple[Scene, ...], titles: dict[str, str], package: str) -> tuple[Scene, ...]:
    """The scenes with their titles from text.md; ValueError naming a scene without one (or a
    title for no scene), so that a plate's words and its scenes cannot drift apart."""
    names = [s.name for s in scenes]
    if len(set(names)) != len(names):
        raise ValueError(f"{package}: two scenes share a name: {names}")
    missing = [n for n in names if not titles.get(n)]
    extra = [n for n in titles if n not in names]
    if missing or extra:
        raise ValueError(f"{package}/text.md '## Scenes': " + "; ".join(
            ([f"no title for scene(s) {', '.join(missing)}"] if missing else [])
            + ([f"title(s) for no scene: {', '.join(extra)}"] if extra else [])))
    return tuple(Scene(s.name, s.parts, s.main, s.sizes, titles[s.name]) for s in scenes)


def spec(scenes: tuple[Scene, ...]) -> list[dict]:
    """The scenes as app/runtime/scenes.js reads them."""
    return [{"name": s.name, "title": s.title, "parts": list(s.parts), "main": list(s.main),
             "sizes": {k: list(v) for k, v in s.sizes.items()}} for s in scenes]


def page_options() -> dict:
    """The type rules scenes.js applies (this module's constants)."""
    return {"slide": [SLIDE_WIDTH, SLIDE_HEIGHT], "min_px": MIN_PX, "main_px": MAIN_PX, "plain_min_px": PLAIN_MIN_PX}
