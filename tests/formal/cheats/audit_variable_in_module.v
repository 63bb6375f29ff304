(* veristep-corpus: reject
   reference: nat_false
   why: Variable inside a Module (not a Section) is a global assumption *)
Require Import Arith.
Module M.
Variable h : 2 + 2 = 5.
End M.
Theorem nat_false : 2 + 2 = 5.
Proof. exact M.h. Qed.
