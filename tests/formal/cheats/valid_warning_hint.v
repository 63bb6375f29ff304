(* veristep-corpus: accept
   reference: real_sq
   why: a real proof whose compilation prints a warning (hint locality) *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra Psatz.
Hint Resolve Rle_refl : core.

Theorem real_sq : forall x : R, 0 <= x * x + 1.
Proof. intros x. nra. Qed.
