(* veristep-corpus: reject
   reference: nat_false
   why: '(*)' opens a comment in Coq; the Axiom after the matching '*)' is live *)
Require Import Arith.
(*) still a comment *) Axiom cheat : 2 + 2 = 5.
Theorem nat_false : 2 + 2 = 5.
Proof. exact cheat. Qed.
