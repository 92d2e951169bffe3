"""One claim's ledger rows from their declarations: what every row of an assembly shares, held once.

A check declares its statement, texts, method, finding class and the measures that certify it (``checks.yaml``,
:class:`sparseact.verify.declarations.Declaration`); the claim's assembly measures and decides. An :class:`Assembly`
holds what all its rows share (the claim, the ``${name}`` values of the declared texts, the range the instances
cover, how a recorded instance of the declared measures is certified), and :meth:`Assembly.record` makes one row: a
FAIL is certified or INCONCLUSIVE (:func:`sparseact.verify.certificates.fail_fields`), and a check declared unable
to FAIL (``finding: null``) never asks for a certificate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sparseact.paper import paper_ref
from sparseact.verify.certificates import fail_fields
from sparseact.verify.declarations import Declaration
from sparseact.verify.records import CheckRecord, declared_record
from sparseact.verify.verdicts import Verdict

#: ``(certificate, counterexample)`` of a violating instance, or ``None`` when no instance certifies the FAIL.
Certified = tuple[dict, str] | None


@dataclass(frozen=True)
class Assembly:
    """What the rows of one claim's assembly share.

    Attributes
    ----------
    claim_id : str
        The claim.
    fill : mapping
        Values of the ``${name}`` fields of the declared ``says`` and ``checks`` texts.
    range : str
        The range a row covers unless it says otherwise (:func:`sparseact.claims.describe_range`).
    certify : callable, optional
        ``certify(measures) -> (certificate, counterexample) or None``: the claim's certificate of the instance its
        runs stage recorded under a check's declared measures; a FAIL without it, or of a check that declares no
        measures, is INCONCLUSIVE unless the row brings its own ``build``.
    """

    claim_id: str
    fill: Mapping = field(default_factory=dict)
    range: str = ""
    certify: Callable[[tuple[str, ...]], Certified] | None = None

    def record(
        self,
        declaration: Mapping,
        variant: str,
        worst: float,
        label: str,
        verdict: Verdict,
        instances: int,
        notes: str = "",
        covered: str = "",
        build: Callable[[], Certified] | None = None,
    ) -> CheckRecord:
        """The ledger row of ``declaration`` (an attribute of the claim's ``CHECKS``) for its ``variant`` (``"as
        printed"``, ``"corrected"`` or ``""``).

        ``worst`` is the worst measured value, named ``label``, over ``instances`` instances covering ``covered``
        (the assembly's :attr:`range` when empty). A FAIL is certified by ``build()`` when given, else by
        :attr:`certify` of the declared measures; ``None`` from either makes it INCONCLUSIVE.
        """
        measures = Declaration(declaration).measures
        if declaration["finding"] is None:
            build = _uncertified
        elif build is None:
            build = (lambda: self.certify(measures)) if self.certify and measures else _uncertified
        return declared_record(
            declaration,
            self.fill,
            claim_id=self.claim_id,
            paper_ref=paper_ref(declaration["statement"]),
            variant=variant,
            instances=int(instances),
            worst_value=float(worst),
            worst_value_label=label,
            range=covered or self.range,
            **fail_fields(verdict, declaration["finding"], build, notes),
        )


def _uncertified() -> None:
    """No instance certifies the FAIL (it is INCONCLUSIVE)."""
    return None
