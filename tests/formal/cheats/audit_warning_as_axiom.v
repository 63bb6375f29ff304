(* veristep-corpus: reject
   reference: nat_false
   why: a warning printed before the axiom list; the proof uses an axiom *)
Require Import Arith.
Hint Resolve plus_n_O : core.
Axiom cheat : 2 + 2 = 5.
Theorem nat_false : 2 + 2 = 5.
Proof. exact cheat. Qed.
