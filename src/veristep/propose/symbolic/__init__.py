"""The offline symbolic planner: teacher moves over SymPy states, searched toward the target."""
