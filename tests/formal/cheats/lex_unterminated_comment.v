(* veristep-corpus: reject
   reference: nat_add_zero
   why: an unterminated comment *)
Require Import Arith.
Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof. intros n. induction n; simpl; auto. Qed.
(* "*)" 
