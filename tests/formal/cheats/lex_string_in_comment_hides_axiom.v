(* veristep-corpus: reject
   reference: nat_false
   why: a string inside a comment: '(* "(*" *)' is one comment, so the Axiom after it is live *)
Require Import Arith.
(* "(*" *) Axiom cheat : 2 + 2 = 5.
Theorem nat_false : 2 + 2 = 5.
Proof. exact cheat. Qed.
