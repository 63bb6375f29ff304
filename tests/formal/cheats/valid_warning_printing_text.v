(* veristep-corpus: accept
   reference: real_sq
   why: prints text that looks like an axiom list and an Error line, and still proves it *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra Psatz.

Theorem real_sq : forall x : R, 0 <= x * x + 1.
Proof. idtac "Axioms:". idtac "Error: cheat". intros x. nra. Qed.
