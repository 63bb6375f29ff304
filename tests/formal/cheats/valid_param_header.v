(* veristep-corpus: accept
   reference: param_spec
   why: a benchmark header that declares its own Parameter/Axiom *)
Require Import Arith.
Parameter f : nat -> nat.
Axiom f_spec : forall n, f n = n + 1.

Theorem param_spec : f 2 = 3.
Proof. rewrite f_spec. reflexivity. Qed.
