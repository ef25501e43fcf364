"""The worked plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md.

In the plate's order: guess which key wins and what the output will be while the table shows
only the keys and values; step through score, scale, exponentiate, normalise and sum, with what
the page says of the guesses beside the table; type your
own numbers (or pick another example) beside the table they change; stretch the query and watch
the largest weight climb. The 2D pictures need an example with 2-number keys, so no scene relies
on them: a scene shows what its first view shows.
"""

from app.shared.scenes import Scene

LEFT, RIGHT = 0.4, 0.58  # the controls' column and what they change, side by side
# A slider's box as tall as its handle, which present mode enlarges with the type: with the
# plate's own height the handle would hang over what lies below it.
SLIDER_HEIGHT = 0.13

SCENES = (
    Scene("guess", parts=("worked_table_view", "guess_key", "guess_output", "guess_error", "feedback"),
          sizes={"worked_table_view": (RIGHT, None), "guess_key": (LEFT, None), "guess_output": (LEFT, None),
                 "guess_error": (LEFT, None), "feedback": (LEFT, None)}),
    # The feedback on the guesses beside the table, where it appears at stages 4 and 5.
    Scene("steps", parts=("step_back", "stage", "step_next", "stage_note", "worked_table_view", "output_view",
                          "feedback"),
          main=("output_view",),
          sizes={"step_back": (0.11, None), "stage": (0.66, None), "step_next": (0.11, None),
                 "stage_note": (1, None), "worked_table_view": (RIGHT, None), "output_view": (RIGHT, None),
                 "feedback": (LEFT, None)}),
    # A text box's message shows with it when there is one: its box (query_box, ...) holds both.
    Scene("numbers", parts=("preset", "restore", "query_box", "query_text", "keys_box", "keys_text", "values_box",
                            "values_text", "worked_table_view", "output_view"),
          main=("output_view",),
          sizes={"preset": (LEFT, None), "query_text": (LEFT, None), "keys_text": (LEFT, None),
                 "values_text": (LEFT, None), "worked_table_view": (RIGHT, None), "output_view": (RIGHT, None)}),
    Scene("length", parts=("length", "sweep_plot", "sweep_note"),
          sizes={"length": (0.36, SLIDER_HEIGHT), "sweep_plot": (0.6, 0.8), "sweep_note": (0.6, None)}),
)
