(* veristep-corpus: reject
   reference: nat_add_zero
   why: loads a standard-library axiom outside the allowlist (proof irrelevance); the kernel audit lists it *)
Require Import Arith.
Require Import Coq.Logic.ProofIrrelevance.
Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof. intros n. induction n; simpl; auto. Qed.
