(* veristep-corpus: reject
   reference: nat_false
   why: Add LoadPath then Require of a local library *)
Require Import Arith.
Add LoadPath "/tmp" as Evil.
Require Import Evil.Cheat.
Theorem nat_false : 2 + 2 = 5.
Proof. exact cheat. Qed.
