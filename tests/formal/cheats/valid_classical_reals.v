(* veristep-corpus: accept
   reference: real_sq
   why: a real proof that uses excluded middle explicitly *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra Psatz Classical.

Theorem real_sq : forall x : R, 0 <= x * x + 1.
Proof. intros x. destruct (classic (x = 0)); nra. Qed.
