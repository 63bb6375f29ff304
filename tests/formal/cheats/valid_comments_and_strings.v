(* veristep-corpus: accept
   reference: nat_add_zero
   why: comments containing 'Axiom', 'Admitted' and strings are only comments *)
Require Import Arith.
(* Axiom cheat : False. "*)" Admitted. *)
Theorem nat_add_zero : forall n : nat, n + 0 = n.
(* (* nested *) Abort. *)
Proof. intros n. induction n; simpl; auto. Qed.
