(* veristep-corpus: reject
   reference: nat_false
   why: a Definition of the expected name with another type *)
Require Import Arith.
Definition nat_false : 2 + 2 = 4 := eq_refl.
