(* veristep-corpus: reject
   reference: file
   why: Reset rewinds the document *)
Require Import Arith.
Theorem t : 2 + 2 = 5.
Reset t.
Theorem t : 2 + 2 = 4.
Proof. reflexivity. Qed.
