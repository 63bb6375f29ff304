(* veristep-corpus: accept
   reference: nat_add_zero
   why: a proof using a deprecated lemma (prints a warning) *)
Require Import Arith.
Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof. intros n. rewrite <- plus_n_O. reflexivity. Qed.
