(* veristep-corpus: reject
   reference: nat_false
   why: Unset Positivity Checking with a negative inductive *)
Require Import Arith.
Unset Positivity Checking.
Inductive bad := mk : (bad -> False) -> bad.
Definition nb (b : bad) : False := match b with mk f => f b end.
Theorem nat_false : 2 + 2 = 5.
Proof. destruct (nb (mk nb)). Qed.
