(* veristep-corpus: accept
   reference: file
   why: a bare check of a file with its own Definition and Fixpoint of new names *)
Require Import Arith.
Definition f (n : nat) := n + 1.
Fixpoint sum_to (g : nat -> nat) (n : nat) : nat :=
  match n with 0 => 0 | S p => sum_to g p + g p end.
Theorem t : f (sum_to (fun k => k) 4) = 7.
Proof. reflexivity. Qed.
