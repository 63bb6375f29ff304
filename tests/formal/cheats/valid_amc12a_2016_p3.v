(* veristep-corpus: accept
   reference: amc12a_2016_p3
   why: the miniF2F header with Parameter Rfloor and Axiom Rfloor_spec *)
Require Import Coq.Reals.Reals.
Open Scope R_scope.


Parameter Rfloor : R -> Z.
Axiom Rfloor_spec : forall x : R,
  IZR (Rfloor x) <= x < IZR (Rfloor x) + 1.

Require Import Lra Lia.

Theorem amc12a_2016_p3:
  forall (f : R -> R -> R),
    (forall (x y : R), y <> 0 -> f x y = x - y * IZR (Rfloor (x / y))) ->
    f (3 / 8) (-(2 / 5)) = -(1 / 40).
Proof.
  intros f Hf.
  rewrite Hf by lra.
  destruct (Rfloor_spec (3 / 8 / -(2 / 5))) as [H1 H2].
  replace (3 / 8 / -(2 / 5)) with (-(15/16)) in * by (field).
  assert (Hr : Rfloor (-(15/16)) = (-1)%Z).
  { assert (A : (Rfloor (-(15/16)) < 0)%Z) by (apply lt_IZR; simpl; lra).
    assert (B : (-2 < Rfloor (-(15/16)))%Z) by (apply lt_IZR; lra).
    lia. }
  rewrite Hr. simpl. lra.
Qed.
