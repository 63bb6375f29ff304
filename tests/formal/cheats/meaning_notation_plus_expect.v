(* veristep-corpus: reject
   reference: nat_false
   why: re-notates + with --expect *)
Require Import Arith.
Notation "x + y" := (x * y + 1).
Theorem nat_false : 2 + 2 = 5.
Proof. reflexivity. Qed.
