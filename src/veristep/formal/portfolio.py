"""The fixed tactic portfolio: the baseline every search is measured against.

These are the 17 whole-proof scripts of the measured miniF2F-rocq baseline (each under Coq's
``Timeout``; the first that closes every goal and passes ``Qed`` wins). Phase 1 of the two-phase
search checks them first, so everything the portfolio proves, the search proves too.

>>> len(PORTFOLIO), PORTFOLIO[0]
(17, 'intros; lra.')
"""

from __future__ import annotations

PORTFOLIO: tuple[str, ...] = (
    "intros; lra.",
    "intros; nra.",
    "intros; lia.",
    "intros; nia.",
    "intros; subst; lra.",
    "intros; subst; nra.",
    "intros; subst; field.",
    "intros; subst; ring.",
    "intros; auto.",
    "intros; firstorder.",
    "intros; sauto.",
    "intros; reflexivity.",
    "intros; congruence.",
    "intros; tauto.",
    "intros; easy.",
    "intros; subst; simpl; lia.",
    "intros; subst; compute; lra.",
)

# Whole-proof scripts beyond the portfolio, grouped by the strategy they embody. The offline
# Tactician ranks these by the Strategist's plan; a model-backed Tactician adds its own.
EXTRA_SCRIPTS: dict[str, tuple[str, ...]] = {
    "direct": (
        "intros; subst; nia.",
        "intros; intuition lia.",
        "intros; intuition nra.",
        "intros; intuition lra.",
        "intros; repeat split; lra.",
        "intros; repeat split; nra.",
        "intros; repeat split; lia.",
        "intros; simpl in *; lia.",
        "intros; zify; nia.",
        "intros; zify; Z.div_mod_to_equations; lia.",
        "intros; zify; Z.div_mod_to_equations; nia.",
        "intros; field_simplify; nra.",
        "intros; subst; field_simplify; lra.",
        "intros; unfold Rdiv in *; nra.",
        "vm_compute; reflexivity.",
        "intros; subst; vm_compute; reflexivity.",
        "intros; hauto.",
        "intros; qauto.",
    ),
    "cases": (
        "intros; repeat match goal with H : _ /\\ _ |- _ => destruct H end; nia.",
        "intros; repeat match goal with H : _ /\\ _ |- _ => destruct H end; nra.",
        "intros; repeat match goal with H : _ \\/ _ |- _ => destruct H end; lia.",
    ),
    "rewrite": (
        "intros; subst; ring_simplify; lra.",
        "intros; subst; simpl; ring.",
        "intros; match goal with H : forall _, _ = _ |- _ => rewrite H end; lra.",
        "intros; match goal with H : forall _, _ = _ |- _ => rewrite H end; lia.",
        "intros; match goal with H : forall _, _ = _ |- _ => rewrite !H end; lra.",
        "intros; match goal with H : forall _, _ = _ |- _ => rewrite !H end; lia.",
        "intros; match goal with H : forall _, _ = _ |- _ => rewrite !H in * end; nra.",
    ),
    "induction": (
        "induction n; simpl; lia.",
        "intros n; induction n; simpl; lia.",
        "intros n; induction n; simpl; auto.",
        "induction l; simpl; auto.",
        "intros l; induction l; simpl; auto.",
        "induction n; simpl; nia.",
    ),
    "contradiction": (
        "intros; exfalso; lia.",
        "intros; exfalso; nra.",
        "intros; exfalso; lra.",
        "intros; contradiction.",
        "intros; discriminate.",
        "intros; intro; lia.",
        "intros; intro; nra.",
    ),
    "apply_lemma": (),
}

# Single tactics that may close a goal outright; tried at every node of the phase-2 tree.
CLOSERS: tuple[str, ...] = (
    "lra.", "lia.", "nra.", "nia.", "ring.", "field.", "easy.", "auto.", "reflexivity.",
    "congruence.", "sauto.", "intuition lia.",
)  # fmt: skip
