(* veristep-corpus: reject
   reference: nat_false
   why: Context outside any section postulates the hypothesis *)
Require Import Arith.
Context (h : 2 + 2 = 5).
Theorem nat_false : 2 + 2 = 5.
Proof. exact h. Qed.
