"""``review_proof(on_step=...)``: each step is heard the moment the machine pass judges it."""

from __future__ import annotations

from veristep.review.run import review_proof


def test_on_step_hears_each_step_in_order_with_the_machine_verdict() -> None:
    heard: list[tuple[str, str, str | None]] = []

    def on_step(step) -> None:
        heard.append((step.id, step.state.value, step.flaw.witness if step.flaw else None))

    trace = review_proof(
        "We have $17 \\cdot 3 = 52$. Also $2^{10} = 1024$. Hence the claim holds.",
        on_step=on_step,
    )
    assert [sid for sid, _, _ in heard] == trace.order == ["s1", "s2", "s3"]
    assert heard[0][1] == "flawed" and "51" in heard[0][2]  # the witness: the left side is 51
    assert heard[1][1:] == ("verified", None)
    assert heard[2][1] == "open"  # prose: not decided by the machine, never verified
