(* veristep-corpus: reject
   reference: nat_false
   why: Load runs another file's commands *)
Require Import Arith.
Load "/tmp/vs_cheat_axioms.v".
Theorem nat_false : 2 + 2 = 5.
Proof. exact cheat. Qed.
