(* veristep-corpus: reject
   reference: file
   why: redefines nat before the statement *)
Require Import Arith.
Inductive nat := O.
Theorem t : forall n m : nat, n = m.
Proof. intros [] []. reflexivity. Qed.
