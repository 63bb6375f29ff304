(* veristep-corpus: reject
   reference: nat_false
   why: '(* "*)" *)' is one comment: the Unset after it is live *)
Require Import Arith.
(* "*)" *) Unset Guard Checking. (* "*)" *)
Fixpoint loop (n : nat) : 2 + 2 = 5 := loop n.
Theorem nat_false : 2 + 2 = 5.
Proof. exact (loop 0). Qed.
