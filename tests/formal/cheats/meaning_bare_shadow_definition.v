(* veristep-corpus: reject
   reference: file
   why: a bare check's own Definition may not reuse a name the standard library gives a meaning *)
Require Import Arith.
Definition le (n m : nat) := True.
Theorem t : le 5 3.
Proof. exact I. Qed.
