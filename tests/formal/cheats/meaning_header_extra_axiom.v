(* veristep-corpus: reject
   reference: param_spec
   why: repeats the benchmark header, then adds an axiom *)
Require Import Arith.
Parameter f : nat -> nat.
Axiom f_spec : forall n, f n = n + 1.
Axiom more : False.

Theorem param_spec : f 2 = 3.
Proof. destruct more. Qed.
