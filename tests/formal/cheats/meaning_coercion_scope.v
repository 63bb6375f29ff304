(* veristep-corpus: reject
   reference: file
   why: a definition named like a numeral does not make a false statement provable *)
Require Import Arith.
Definition mynat := nat.
Definition two : mynat := 3.
Theorem t : 2 + 2 = 5.
Proof. reflexivity. Qed.
