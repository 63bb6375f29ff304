(* veristep-corpus: reject
   reference: real_sq
   why: admit inside the proof *)
Require Import Reals.
Open Scope R_scope.

Theorem real_sq : forall x : R, 0 <= x * x + 1.
Proof.
intros x. admit.
Qed.
