"""verdict_all combines verdicts and refuses anything else."""

import pytest

from sparseact.verify.verdicts import Verdict, verdict_all


@pytest.mark.parametrize(
    ("verdicts", "combined"),
    [([], Verdict.INCONCLUSIVE), (["PASS", Verdict.PASS], Verdict.PASS), ([Verdict.PASS, "FAIL"], Verdict.FAIL)],
)
def test_verdict_all_combines(verdicts, combined):
    assert verdict_all(verdicts) is combined


@pytest.mark.parametrize("bad", [["PASS", "x"], ["x"], [1, 2], [None]])
def test_verdict_all_refuses_what_is_not_a_verdict(bad):
    """probe13: verdict_all(['PASS', 'x']) and verdict_all([1, 2]) returned PASS."""
    with pytest.raises(ValueError, match="verdict_all combines verdicts"):
        verdict_all(bad)
