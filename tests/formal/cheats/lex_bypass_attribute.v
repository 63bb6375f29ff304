(* veristep-corpus: reject
   reference: nat_false
   why: #[bypass_check(guard)] attribute *)
Require Import Arith.
#[bypass_check(guard)]
Fixpoint loop (n : nat) : 2 + 2 = 5 := loop n.
Theorem nat_false : 2 + 2 = 5.
Proof. exact (loop 0). Qed.
