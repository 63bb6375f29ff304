(* veristep-corpus: reject
   reference: file
   why: redefines le and <= *)
Require Import Arith.
Definition le (n m : nat) := True.
Notation "n <= m" := (le n m).
Theorem t : 5 <= 3.
Proof. exact I. Qed.
