(* veristep-corpus: reject
   reference: nat_add_zero
   why: ClassicalEpsilon's choice axiom is not allowlisted *)
Require Import Arith.
Require Import Coq.Logic.ClassicalEpsilon.
Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof. intros n. induction n; simpl; auto. Qed.
