(* veristep-corpus: reject
   reference: nat_false
   why: a hypothesis added as a binder *)
Require Import Arith.
Theorem nat_false (h : 2 + 2 = 5) : 2 + 2 = 5.
Proof. exact h. Qed.
