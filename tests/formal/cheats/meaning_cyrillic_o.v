(* veristep-corpus: reject
   reference: file
   why: a Cyrillic 'О' posing as nat's O *)
Require Import Arith.
Definition О := 1.
Theorem t : О + О = 2.
Proof. reflexivity. Qed.
