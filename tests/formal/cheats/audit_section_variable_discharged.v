(* veristep-corpus: reject
   reference: nat_false
   why: a section variable is discharged: the theorem becomes an implication, not the statement *)
Require Import Arith.
Section S.
Variable h : 2 + 2 = 5.
Theorem nat_false : 2 + 2 = 5.
Proof. exact h. Qed.
End S.
