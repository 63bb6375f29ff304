(* veristep-corpus: reject
   reference: real_false
   why: re-notates < on the reals so that the false statement is provable *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra Psatz.
Notation "x < y" := (0 <= y * y) : R_scope.

Theorem real_false : forall x : R, x * x < 0.
Proof. intros x. nra. Qed.
