(* veristep-corpus: accept
   reference: nat_add_zero
   why: a proof with the search's tactic prelude (Lia, Lra, Psatz, Zify, Hammer) *)
Require Import Arith.
Require Import Lia Lra Psatz Zify.
From Hammer Require Import Tactics.

Theorem nat_add_zero : forall n : nat, n + 0 = n.
Proof. intros n. lia. Qed.
