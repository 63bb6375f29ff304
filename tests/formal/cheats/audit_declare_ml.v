(* veristep-corpus: reject
   reference: nat_false
   why: Declare ML Module loads native code *)
Require Import Arith.
Declare ML Module "evil_plugin".
Theorem nat_false : 2 + 2 = 5.
Proof. Admitted.
