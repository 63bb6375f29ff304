(* veristep-corpus: accept
   reference: nat_add_zero
   why: induction on nat *)
Require Import Arith.

Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof.
intros n. induction n as [|n IH]; simpl; auto.
Qed.
