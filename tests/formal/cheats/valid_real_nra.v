(* veristep-corpus: accept
   reference: real_sq
   why: real-number proof (allowlisted real axioms) *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra Psatz.

Theorem real_sq : forall x : R, 0 <= x * x + 1.
Proof. intros x. nra. Qed.
