"""The minimal soft-lookup app in Streamlit, for `make bench-peers` (the suite's peer comparison).

    streamlit run benchmarks/peers/streamlit_app.py --server.port M --server.headless true

Same numbers as the plate: five keys of length 2 at 0, 70, 150, 225 and 300°, values 10..50,
the query at 40° with length 1.5. Two sliders, five bars (st.bar_chart), the weighted average
as text. Streamlit's default settings: every slider change reruns this script.
"""

import numpy as np
import pandas as pd
import streamlit as st

KEY_ANGLES = np.radians([0.0, 70.0, 150.0, 225.0, 300.0])
KEYS = 2.0 * np.stack([np.cos(KEY_ANGLES), np.sin(KEY_ANGLES)], axis=1)  # (5, 2)
VALUES = np.array([10.0, 20.0, 30.0, 40.0, 50.0])  # (5,)
NAMES = [f"k{j + 1}" for j in range(5)]

angle = st.slider("Query angle (°)", 0.0, 360.0, 40.0, 1.0)
length = st.slider("Query length", 0.1, 5.0, 1.5, 0.05)

a = np.radians(angle)
q = length * np.array([np.cos(a), np.sin(a)])  # (2,)
s = KEYS @ q  # (5,)
e = np.exp(s - s.max())
w = e / e.sum()  # (5,)
out = float(w @ VALUES)
win = int(np.argmax(w))

st.bar_chart(pd.DataFrame({"weight": w}, index=NAMES))
st.markdown(f"output = {out:.2f} · hard lookup: {VALUES[win]:.0f} (k{win + 1}) · plain average: 30")
