(* veristep-corpus: reject
   reference: file
   why: a bare check: the file postulates its own axiom *)
Require Import Arith.
Parameter f : nat -> nat.
Axiom f_spec : forall n, f n = 5.
Theorem t : f 2 = 5.
Proof. apply f_spec. Qed.
