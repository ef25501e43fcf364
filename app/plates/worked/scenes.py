"""The worked plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md.

In the plate's order: guess which key wins and what the output will be, from the example's
numbers (the menu and the text boxes, where your own can be typed), with what the page says of
the guesses beside them; then step through score, scale, exponentiate, normalise and sum; then
stretch the query and watch the largest weight climb. The table takes the slide's width: with
vectors for keys and values (four keys with one-hot values, at stage 5) it needs all of it at the
slide's type. The 2D pictures need an example with 2-number keys, so no scene relies on them: a
scene shows what its first view shows.
"""

from app.shared.scenes import Scene

LEFT, RIGHT = 0.42, 0.56  # the controls' column and what they change, side by side
# A slider's box as tall as its handle, which present mode enlarges with the type: with the
# plate's own height the handle would hang over what lies below it.
SLIDER_HEIGHT = 0.13
TEXT_AREA = 0.21  # a box of keys or values holds four lines at the slide's type (the four-key examples)

SCENES = (
    # A text box's message shows with it when there is one: its box (query_box, ...) holds both.
    Scene("guess", parts=("preset", "query_box", "query_text", "keys_box", "keys_text", "values_box", "values_text",
                          "guess_key", "guess_output", "guess_error", "feedback"),
          sizes={"preset": (LEFT, None), "query_text": (LEFT, None), "keys_text": (LEFT, TEXT_AREA),
                 "values_text": (LEFT, TEXT_AREA), "guess_key": (RIGHT, None), "guess_output": (RIGHT, None),
                 "guess_error": (RIGHT, None), "feedback": (RIGHT, 0.5)}),
    Scene("steps", parts=("step_back", "stage", "step_next", "stage_note", "worked_table_view", "output_view"),
          main=("output_view",),
          sizes={"step_back": (0.11, None), "stage": (0.66, None), "step_next": (0.11, None),
                 "stage_note": (1, None), "worked_table_view": (1, None), "output_view": (1, None)}),
    Scene("length", parts=("length", "sweep_plot", "sweep_note"),
          sizes={"length": (0.36, SLIDER_HEIGHT), "sweep_plot": (0.6, 0.8), "sweep_note": (0.6, None)}),
)
