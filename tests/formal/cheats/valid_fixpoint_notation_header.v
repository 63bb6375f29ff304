(* veristep-corpus: accept
   reference: fix_sum
   why: a header with a Fixpoint and a Unicode notation *)
Require Import Arith.

Fixpoint sum_to (f : nat -> nat) (n : nat) :=
  match n with
  | 0 => 0
  | S p => sum_to f p + f p
  end.

Notation "∑ k < n , f" :=
  (sum_to (fun k => f) n)
  (at level 60, k ident, n at level 60, f at level 60).

Theorem fix_sum : (∑ k < 4, k) = 6.
Proof. reflexivity. Qed.
