(* veristep-corpus: accept
   reference: module_card
   why: a header with a functor application *)
Require Import FSets.
Module NS := FSetWeakList.Make(Nat_as_OT).

Theorem module_card : NS.cardinal NS.empty = 0.
Proof. reflexivity. Qed.
