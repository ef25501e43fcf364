"""The soft-lookup plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md."""

from app.shared.scenes import Scene

# A still picture's words where the page's ask a hand to act (?still=1, `attention-explorable figure`).
STILL = {"vectors": "The query (◆) and the keys (●)"}

SCENES = (
    Scene("turn", parts=("vectors", "bars", "angle"), main=("bars",),
          sizes={"vectors": (0.48, 1), "bars": (0.5, 0.78), "angle": (0.5, None)}),
    Scene("output", parts=("vectors", "scale", "readout"), main=("readout",),
          sizes={"vectors": (0.48, 1), "scale": (0.5, 0.45), "readout": (0.5, None)}),
    Scene("sharpen", parts=("vectors", "bars", "length"), main=("bars",),
          sizes={"vectors": (0.48, 1), "bars": (0.5, 0.78), "length": (0.5, None)}),
    Scene("width", parts=("bars", "readout", "d_k", "scaled"), main=("bars",),
          sizes={"bars": (1, 0.6), "readout": (1, None)}),
    Scene("numbers", parts=("table", "readout"), main=("readout",),
          sizes={"table": (1, None), "readout": (1, None)}),
)
