(* veristep-corpus: reject
   reference: file
   why: the file's own definition is read under its notation, plus as times; re-read cleanly it means 5 *)
Require Import Arith.
Notation "x + y" := (x * y).
Definition f := 2 + 3.
Theorem t : f = 6.
Proof. reflexivity. Qed.
