"""One module per check; each exports ``name(prev, nxt, ctx) -> Decision | None`` (None: undecided).

The order in which they run is defined in one place only: ``veristep.grounding.cascade.CHECKS``.
"""
