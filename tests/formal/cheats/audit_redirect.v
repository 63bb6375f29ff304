(* veristep-corpus: reject
   reference: nat_add_zero
   why: Redirect writes files beside the candidate *)
Require Import Arith.
Redirect "VsCheck" Print nat.
Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof. intros n. induction n; simpl; auto. Qed.
