(* veristep-corpus: reject
   reference: param_spec
   why: the benchmark header's Axiom changed *)
Require Import Arith.
Parameter f : nat -> nat.
Axiom f_spec : forall n, f n = 3.

Theorem param_spec : f 2 = 3.
Proof. apply f_spec. Qed.
