"""Verifier backends: Coq (coqtop sessions + coqc), Lean 4 REPL (optional)."""
