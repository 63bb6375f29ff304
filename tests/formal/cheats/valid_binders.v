(* veristep-corpus: accept
   reference: file
   why: binders before the colon *)
Require Import Reals.
Open Scope R_scope.
Require Import Lra.
Theorem t (x y : R) (h : x < y) : x + 1 < y + 1.
Proof. lra. Qed.
