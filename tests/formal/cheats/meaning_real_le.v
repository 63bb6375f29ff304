(* veristep-corpus: reject
   reference: real_false
   why: re-notates < on the reals *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra Psatz.
Notation "x < y" := (y <= x) : R_scope.

Theorem real_false : forall x : R, x * x < 0.
Proof. intros x. Abort.
