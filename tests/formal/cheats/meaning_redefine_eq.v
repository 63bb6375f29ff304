(* veristep-corpus: reject
   reference: file
   why: redefines eq and its notation *)
Require Import Arith.
Definition eq {A : Type} (x y : A) := True.
Notation "x = y" := (eq x y) : type_scope.
Theorem t : 2 + 2 = 5.
Proof. exact I. Qed.
