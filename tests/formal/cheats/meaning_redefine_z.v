(* veristep-corpus: reject
   reference: z_false
   why: redefines Z so that mod means something else *)
Require Import ZArith.
Open Scope Z_scope.
Definition Zmod (a b : Z) : Z := 2.
Notation "a 'mod' b" := (Zmod a b) : Z_scope.

Theorem z_false : (7 mod 3 = 2)%Z.
Proof. reflexivity. Qed.
