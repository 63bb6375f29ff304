(* veristep-corpus: reject
   reference: nat_false
   why: Unset Universe Checking *)
Require Import Arith.
Unset Universe Checking.
Theorem nat_false : 2 + 2 = 5.
Proof. Admitted.
