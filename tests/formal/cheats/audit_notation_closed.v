(* veristep-corpus: reject
   reference: file
   why: a Notation makes Print Assumptions print the axiom as closed; the axiom is a Context at top level *)
Require Import Arith.
Context (cheat : False).
Notation "'Axioms:'" := I.
Theorem t : 2 + 2 = 5.
Proof. destruct cheat. Qed.
Print Assumptions t.
