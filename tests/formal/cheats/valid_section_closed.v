(* veristep-corpus: accept
   reference: file
   why: Variable inside a section that closes is discharged *)
Require Import Arith.
Section S.
Variable k : nat.
Lemma l : k + 0 = k.
Proof. auto. Qed.
End S.
Theorem t : forall n : nat, n + 0 = n.
Proof. exact l. Qed.
