(* veristep-corpus: reject
   reference: nat_false
   why: Program obligations admitted *)
Require Import Arith.
Program Definition h : 2 + 2 = 5 := _.
Admit Obligations.
Theorem nat_false : 2 + 2 = 5.
Proof. exact h. Qed.
