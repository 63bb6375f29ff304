(* veristep-corpus: reject
   reference: real_false
   why: an axiom whose short name is an allowlisted one *)
Require Import Reals.
Open Scope R_scope.
Axiom classic : False.

Theorem real_false : forall x : R, x * x < 0.
Proof. destruct classic. Qed.
