(* veristep-corpus: reject
   reference: file
   why: Hypothesis at top level *)
Require Import Arith.
Hypothesis h : 2 + 2 = 5.
Theorem t : 2 + 2 = 5.
Proof. exact h. Qed.
