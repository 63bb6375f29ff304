(* veristep-corpus: reject
   reference: real_false
   why: a module borrows the name of an allowlisted standard axiom *)
Require Import Reals.
Open Scope R_scope.
Module ClassicalDedekindReals.
Axiom sig_forall_dec : False.
End ClassicalDedekindReals.

Theorem real_false : forall x : R, x * x < 0.
Proof. destruct ClassicalDedekindReals.sig_forall_dec. Qed.
