"""The modulus and the letters a residue split uses, chosen by exact evaluation."""

from __future__ import annotations

from veristep.formal.residues import (
    integer_variables,
    residue_script,
    residue_split,
    separable_split,
)


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


def test_letters_in_separate_terms_are_split_one_at_a_time() -> None:
    statement = "Theorem t : forall x y : Z, x^5 <> y^2 + 4."
    assert residue_split(statement, ["x", "y"]) is None  # 11² cases: over the cap
    split = separable_split(statement, ["x", "y"])
    assert split is not None and split.modulus == 11
    # fifth powers mod 11 are 0, ±1; −y² takes minus the six squares; −4 + those never hits 0
    assert split.values == {"x": [0, 1, 10], "y": [0, 2, 6, 7, 8, 10]}
    script = residue_script(statement)
    assert script is not None and script.count("destruct") == 2  # 11 + 11 cases, not 121


def test_a_separable_equation_with_a_solution_or_a_mixed_monomial_gets_no_split() -> None:
    # x = 3, y = 1 solves the first; the second mixes x and y in one monomial
    assert separable_split("Theorem t : forall x y : Z, x^2 - 2 * y^2 <> 7.", ["x", "y"]) is None
    mixed = "Theorem t : forall x y : Z, x^5 + x * y <> y^2 + 4."
    assert separable_split(mixed, ["x", "y"]) is None and residue_script(mixed) is None


def test_a_part_the_modulus_divides_is_left_whole() -> None:
    # modulo 8: squares are 0, 1, 4 and −2y² is 0 or 6, so x² − 2y² + 8z never is 3
    split = separable_split(
        "Theorem t : forall x y z : Z, x^2 - 2 * y^2 + 8 * z <> 3.", ["x", "y", "z"]
    )
    assert split is not None and split.modulus == 8 and sorted(split.parts) == ["x", "y"]


def test_too_many_cases_or_other_shapes_get_no_script() -> None:
    assert residue_script("Theorem t : forall (f : Z -> Z) (x : Z), f x = x.") is None
    assert residue_script("Theorem t : forall x : Z, x mod 3 = x mod 5.") is None
