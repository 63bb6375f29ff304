(* veristep-corpus: reject
   reference: nat_false
   why: with --expect the expected name must be the proved constant; proving another theorem does not count *)
Require Import Arith.
Theorem nat_true : 2 + 2 = 4.
Proof. reflexivity. Qed.
