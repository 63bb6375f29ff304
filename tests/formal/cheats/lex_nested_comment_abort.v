(* veristep-corpus: reject
   reference: file
   why: nested comments: the Abort is outside them *)
Require Import Arith.
(* outer (* inner *) still comment *) Theorem t : 2 + 2 = 5. Abort.
Theorem t : 2 + 2 = 4.
Proof. reflexivity. Qed.
