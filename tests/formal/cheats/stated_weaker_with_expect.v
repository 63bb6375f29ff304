(* veristep-corpus: reject
   reference: real_sq
   why: proves a weaker statement than expected *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra Psatz.

Theorem real_sq : forall x : R, 0 <= x * x.
Proof. intros x. nra. Qed.
