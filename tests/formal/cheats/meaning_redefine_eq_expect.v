(* veristep-corpus: reject
   reference: nat_false
   why: redefines eq with --expect *)
Require Import Arith.
Definition eq {A : Type} (x y : A) := True.
Notation "x = y" := (eq x y) : type_scope.
Theorem nat_false : 2 + 2 = 5.
Proof. exact I. Qed.
