(* veristep-corpus: accept
   reference: file
   why: bare check of a nat proof *)
Require Import Arith.

Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof.
intros n. induction n as [|n IH]; simpl; auto.
Qed.
