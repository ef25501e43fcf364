"""Every plate declares its scenes for a lecture (app/shared/scenes.py), and they hold together.

Each plate of the registry has two or more scenes; a scene shows only parts the plate has (its
named figures, controls and Divs: the names ?hide= can use), its main numbers and sized parts
are among them, every scene has its title in the plate's text.md, and a still picture's words
name parts the plate has. The browser half (tests/browser/test_scenes.py) holds what a scene
looks like in a room.
"""

from __future__ import annotations

import pytest

from app.delivery.page import PAGE_PARTS, hideable_names
from app.plates import registry
from app.shared.scenes import Scene, with_titles


@pytest.mark.parametrize("slug", registry.slugs())
def test_the_plates_scenes_show_its_own_parts(slug):
    cls = registry.plate_class(slug)
    assert len(cls.scenes) >= 2, f"{slug} declares {len(cls.scenes)} scene(s); a plate has two or more"
    parts = set(hideable_names(cls())) - set(PAGE_PARTS)
    for scene in cls.scenes:
        assert scene.title, scene
        unknown = [p for p in scene.parts if p not in parts]
        assert not unknown, f"{slug} scene '{scene.name}' shows parts the plate lacks: {unknown}"
    assert len({s.name for s in cls.scenes}) == len(cls.scenes)
    stray = [name for name in cls.still if name not in parts]
    assert not stray, f"{slug}'s still words name parts it lacks: {stray}"


def test_a_scene_refuses_what_cannot_be_shown():
    with pytest.raises(ValueError, match="not among its parts"):
        Scene("turn", parts=("bars",), main=("readout",))
    with pytest.raises(ValueError, match="fraction"):
        Scene("turn", parts=("bars",), sizes={"bars": (1.5, None)})
    with pytest.raises(ValueError, match="lower-case"):
        Scene("Turn it", parts=("bars",))
    with pytest.raises(ValueError, match="shows nothing"):
        Scene("turn", parts=())
    with pytest.raises(ValueError, match="no title for scene"):
        with_titles((Scene("turn", parts=("bars",)),), {}, "app.plates.x")
    with pytest.raises(ValueError, match="title.s. for no scene: gone"):
        with_titles((Scene("turn", parts=("bars",)),), {"turn": "Turn", "gone": "Gone"}, "app.plates.x")
