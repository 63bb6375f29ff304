(* veristep-corpus: reject
   reference: nat_false
   why: redefines nat with --expect *)
Inductive nat := O | S (n : nat).
Definition add (n m : nat) := O.
Notation "x + y" := (add x y).
Notation "2" := O.
Notation "4" := O.
Notation "5" := O.
Theorem nat_false : 2 + 2 = 5.
Proof. reflexivity. Qed.
