(* veristep-corpus: reject
   reference: nat_false
   why: From <local root> Require *)
Require Import Arith.
From Evil Require Import Cheat.
Theorem nat_false : 2 + 2 = 5.
Proof. exact cheat. Qed.
