(* veristep-corpus: reject
   reference: file
   why: 'Theorem t : False. Abort.' then a theorem of the same name with another statement *)
Require Import Arith.
Theorem t : False.
Abort.
Theorem t : True.
Proof. exact I. Qed.
