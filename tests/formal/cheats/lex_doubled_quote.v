(* veristep-corpus: reject
   reference: nat_false
   why: '""' inside a string is an escaped quote; the Axiom is outside the comment *)
Require Import Arith.
(* "a""*)" *) Axiom cheat : 2 + 2 = 5.
Theorem nat_false : 2 + 2 = 5.
Proof. exact cheat. Qed.
