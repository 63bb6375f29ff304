(* veristep-corpus: reject
   reference: file
   why: re-notates + as * *)
Require Import Arith.
Notation "x + y" := (x * y).
Theorem t : 2 + 3 = 6.
Proof. reflexivity. Qed.
