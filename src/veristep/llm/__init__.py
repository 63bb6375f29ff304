"""LM configuration for DSPy (model strings, keys, local servers), usage records, test helpers.

Importing this package tells LiteLLM to use its bundled model-cost map: otherwise importing
``litellm`` (which DSPy does) fetches the map over the network at start-up. It must run before
the first ``import dspy``, so every module here imports this package first; DSPy itself is
imported lazily, inside the functions that need it.
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
