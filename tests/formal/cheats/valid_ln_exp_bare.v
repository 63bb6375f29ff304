(* veristep-corpus: accept
   reference: file
   why: bare check with ln and exp *)
Require Import Reals.
Open Scope R_scope.
Theorem t : forall x : R, ln (exp x) = x.
Proof. intros x. apply ln_exp. Qed.
