(* veristep-corpus: reject
   reference: nat_false
   why: Declare Module postulates a module *)
Require Import Arith.
Module Type T.
Parameter h : 2 + 2 = 5.
End T.
Declare Module M : T.
Theorem nat_false : 2 + 2 = 5.
Proof. exact M.h. Qed.
