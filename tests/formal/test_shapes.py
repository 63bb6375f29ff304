"""Shapes of goals and of harvested lemma statements, and retrieval ranked by them.

The lemma statements are spelled as Coq 8.16's ``Search`` prints them when the modules are
required but not imported (qualified names, no notations), as the harvested index holds them.
"""

from __future__ import annotations

import pytest

from veristep.formal.retriever import Lemma, LemmaIndex
from veristep.formal.shapes import prop_shape, shape_score

R = "Rdefinitions.RbaseSymbolsImpl"
ZERO = "(Rdefinitions.IZR BinNums.Z0)"
LEMMAS = [
    Lemma(
        "RIneq.Rmult_le_pos",
        f"forall r1 r2 : {R}.R, Rdefinitions.Rle {ZERO} r1 -> Rdefinitions.Rle {ZERO} r2 -> "
        f"Rdefinitions.Rle {ZERO} ({R}.Rmult r1 r2)",
        "RIneq",
    ),
    Lemma(
        "R_sqrt.sqrt_sqrt",
        f"forall x : {R}.R, Rdefinitions.Rle {ZERO} x -> {R}.Rmult (R_sqrt.sqrt x) "
        "(R_sqrt.sqrt x) = x",
        "R_sqrt",
    ),
    Lemma(
        "R_sqrt.sqrt_pos",
        f"forall x : {R}.R, Rdefinitions.Rle {ZERO} (R_sqrt.sqrt x)",
        "R_sqrt",
    ),
    Lemma(
        "Rbasic_fun.Rabs_triang",
        f"forall a b : {R}.R, Rdefinitions.Rle (Rbasic_fun.Rabs ({R}.Rplus a b)) "
        f"({R}.Rplus (Rbasic_fun.Rabs a) (Rbasic_fun.Rabs b))",
        "Rbasic_fun",
    ),
    Lemma(
        "Rbasic_fun.Rabs_Ropp",
        f"forall x : {R}.R, Rbasic_fun.Rabs ({R}.Ropp x) = Rbasic_fun.Rabs x",
        "Rbasic_fun",
    ),
    Lemma(
        "Rbasic_fun.Rabs_minus_sym",
        f"forall x y : {R}.R, Rbasic_fun.Rabs (Rdefinitions.Rminus x y) = "
        "Rbasic_fun.Rabs (Rdefinitions.Rminus y x)",
        "Rbasic_fun",
    ),
    Lemma(
        "Rfunctions.pow_add",
        f"forall (x : {R}.R) (n m : nat), Rfunctions.pow x (n + m) = "
        f"{R}.Rmult (Rfunctions.pow x n) (Rfunctions.pow x m)",
        "Rfunctions",
    ),
]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0 <= sqrt x * sqrt y", ("le", "const", "mult")),
        (LEMMAS[0].statement, ("le", "const", "mult")),
        ("x > 2 + y", ("lt", "plus", "var")),  # turned round: 2 + y < x
        ("Rabs (- x) = Rabs x", ("eq", "abs", "abs")),
        ("(a + b) mod n = (a mod n + b mod n) mod n", ("eq", "mod", "mod")),
        ("0 < / x", ("lt", "const", "inv")),
        ("forall n : nat, (0 < n)%nat -> - 3 <= f n", ("le", "const", "app")),
    ],
)
def test_the_relation_and_the_heads_of_both_sides_are_read(text: str, expected: tuple) -> None:
    shape = prop_shape(text)
    assert shape is not None and (shape.relation, shape.left, shape.right) == expected


def test_premises_are_counted_and_propositions_without_one_relation_have_no_shape() -> None:
    assert prop_shape(LEMMAS[0].statement).premises == 2
    assert prop_shape("forall x, 0 <= x -> 0 < x + 1").premises == 1
    for text in ("a = b /\\ c = d", "x = 1 <-> y = 2", "0 <= x < 5", "Rabs triangle", ""):
        assert prop_shape(text) is None, text
    assert prop_shape("x = " + "(" * 5000) is None  # unreadable input: no shape, no error


def test_a_negation_is_told_from_a_difference() -> None:
    negation, difference = prop_shape("Rabs (- x) = Rabs x"), prop_shape("Rabs (x - y) = 0")
    assert "opp" in negation.heads and "minus" not in negation.heads
    assert "minus" in difference.heads


def test_an_equation_fits_either_way_round() -> None:
    lemma = prop_shape(LEMMAS[6].statement)
    forward, backward = prop_shape("x ^ (n + m) = y"), prop_shape("x ^ n * x ^ m = x ^ (n + m)")
    assert shape_score(lemma, backward) >= shape_score(lemma, forward) > 3


def test_retrieval_ranks_by_conclusion_shape_not_shared_words() -> None:
    index = LemmaIndex(LEMMAS)
    # The goal shares "sqrt" with sqrt_sqrt and sqrt_pos, but only Rmult_le_pos concludes
    # 0 <= a product; keyword overlap ranks it below them.
    goal = "0 <= sqrt x * sqrt y"
    assert index.retrieve(goal, k=1)[0].name == "RIneq.Rmult_le_pos"
    assert index.retrieve(goal, k=1, by_shape=False)[0].name != "RIneq.Rmult_le_pos"
    assert index.retrieve("Rabs (- x) = Rabs x", k=1)[0].name == "Rbasic_fun.Rabs_Ropp"
    triangle = "Rabs (a + b) <= Rabs a + Rabs b"
    assert index.retrieve(triangle, k=1)[0].name == "Rbasic_fun.Rabs_triang"


def test_a_keyword_query_is_ranked_by_overlap_as_before() -> None:
    index = LemmaIndex(LEMMAS)
    by_words = [lem.name for lem in index.retrieve("Rabs triang", k=3)]
    assert by_words == [lem.name for lem in index.retrieve("Rabs triang", k=3, by_shape=False)]
    assert by_words[0] == "Rbasic_fun.Rabs_triang"
