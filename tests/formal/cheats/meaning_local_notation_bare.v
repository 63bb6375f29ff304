(* veristep-corpus: reject
   reference: file
   why: a local notation in the file's header gives '=' another meaning in a bare check *)
Require Import Arith.
Local Notation "x = y" := (x <> y) : type_scope.
Theorem t : 2 + 2 = 5.
Proof. discriminate. Qed.
