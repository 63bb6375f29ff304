"""The LLM proposer: the DSPy ``ProofCompletion`` program and a defensive trajectory reader."""
