(* veristep-corpus: accept
   reference: nat_add_zero
   why: a helper lemma proved before the theorem *)
Require Import Arith.
Lemma helper : forall n : nat, n = n + 0.
Proof. intros n. induction n; simpl; auto. Qed.
Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof. intros n. symmetry. apply helper. Qed.
