"""The modulus and the letters a residue split uses, chosen by exact evaluation."""

from __future__ import annotations

from veristep.formal.residues import integer_variables, residue_script, residue_split


def test_a_modulus_with_no_solution_is_found_and_only_needed_letters_split() -> None:
    statement = "Theorem t : forall x y : Z, 4 * x^3 - 7 * y^3 <> 2003."
    # cubes mod 7 are 0, 1, 6, so 4x³ is 0, 4 or 3, never 2003 mod 7 = 1; y's term is 7·y³
    assert residue_split(statement, ["x", "y"]) == (7, ["x"])


def test_an_equation_with_an_integer_solution_gets_no_split() -> None:
    # x = y = 1 solves it, so no modulus can rule it out
    assert residue_split("Theorem t : forall x y : Z, 4 * x^3 - 7 * y^3 <> -3.", ["x", "y"]) is None


def test_the_statements_own_modulus_is_used() -> None:
    statement = "Theorem t (a : Z) : (a^2 mod 4 = 0) \\/ (a^2 mod 4 = 1)."
    assert integer_variables(statement) == ["a"]
    assert residue_split(statement, ["a"]) == (4, ["a"])


def test_too_many_cases_or_other_shapes_get_no_script() -> None:
    assert residue_script("Theorem t : forall x y : Z, x^5 <> y^2 + 4.") is None  # 11² cases
    assert residue_script("Theorem t : forall (f : Z -> Z) (x : Z), f x = x.") is None
    assert residue_script("Theorem t : forall x : Z, x mod 3 = x mod 5.") is None
