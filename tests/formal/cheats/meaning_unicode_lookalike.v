(* veristep-corpus: reject
   reference: file
   why: a look-alike symbol: '≤' defined as True *)
Require Import Arith.
Notation "x ≤ y" := True (at level 70).
Theorem t : 5 ≤ 3.
Proof. exact I. Qed.
