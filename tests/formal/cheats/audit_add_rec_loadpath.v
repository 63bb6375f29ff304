(* veristep-corpus: reject
   reference: nat_false
   why: Add Rec LoadPath *)
Require Import Arith.
Add Rec LoadPath "/tmp".
Theorem nat_false : 2 + 2 = 5.
Proof. Admitted.
