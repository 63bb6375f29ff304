(* veristep-corpus: accept
   reference: mathd_algebra_484
   why: miniF2F statement with ln (its proof needs Classical_Prop.classic) *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra.

Theorem mathd_algebra_484 :
  ln 27 / ln 3 = 3.
Proof.
  assert (H : ln 3 > 0) by (rewrite <- ln_1; apply ln_increasing; lra).
  replace 27 with (3 * 3 * 3) by lra.
  rewrite !ln_mult by lra.
  field. lra.
Qed.
