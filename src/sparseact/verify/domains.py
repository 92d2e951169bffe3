"""A certificate's parameters against the quantifiers of the statement it refutes.

A FAIL refutes a statement *under its own quantifiers*: a counterexample at ``eps = 2`` says nothing about a statement
quantified over ``eps in (0, 1)``, and a counterexample at ``n = 0`` nothing about one over ``n >= 1``. Every
parameter a certificate records (the scalar ``vars`` of its formula sides, at any depth) is held to its domain:

* the statement's own ``domain`` (``sparseact/claims/<claim>/statements.yaml``: variable -> interval, e.g.
  ``eps: '(0, 1)'``, ``n: 'integer [1, inf)'``), which narrows or names what its quantifiers say;
* otherwise the domain the paper gives the symbol everywhere (:data:`sparseact.paper.domains.PAPER_DOMAINS`).

A certificate with a parameter outside its domain may stand only as ``out-of-range`` (the degenerate-corner rule of
``docs/statements-graph.md``): the ledger step refuses any other (:func:`check_certificate_domain`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from sparseact.paper.domains import PAPER_DOMAINS, parse_domain

__all__ = [
    "OUT_OF_RANGE",
    "certificate_parameters",
    "check_certificate_domain",
    "domain_violations",
]

#: The finding class of a FAIL outside the range in which the paper uses a statement (never makes it fail).
OUT_OF_RANGE = "out-of-range"


def certificate_parameters(certificate: Mapping) -> Iterator[tuple[str, object]]:
    """Every scalar parameter ``(name, value)`` of a certificate's formula sides, at any depth (``vars`` of a
    formula, and of the formulas nested in it)."""
    stack = [certificate]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            variables = node.get("vars")
            if isinstance(variables, Mapping):
                yield from ((name, value) for name, value in variables.items() if not isinstance(value, dict | list))
            stack.extend(value for key, value in node.items() if isinstance(value, dict | list))
        elif isinstance(node, list):
            stack.extend(item for item in node if isinstance(item, dict | list))


def domain_violations(certificate: Mapping, domains: Mapping[str, str] | None = None) -> list[str]:
    """The parameters of ``certificate`` outside their domains (``domains``, the statement's own, over
    :data:`sparseact.paper.domains.PAPER_DOMAINS`), one line each, in order of name; an empty list when every parameter is inside."""
    own = {name: parse_domain(text) for name, text in (domains or {}).items()}
    out = set()
    for name, value in certificate_parameters(certificate):
        domain = own.get(name, PAPER_DOMAINS.get(name))
        if domain is not None and value not in domain:
            out.add(f"{name} = {value!r} is outside {domain}")
    return sorted(out)


def check_certificate_domain(document: Mapping, domains: Mapping[str, str] | None = None) -> None:
    """Refuse (``ValueError`` naming the check) a certificate document of :func:`sparseact.publish.ledger.
    certificate_document` whose parameters leave the statement's domain, unless its finding is ``out-of-range``."""
    violations = domain_violations(document["certificate"], domains)
    if violations and document.get("finding") != OUT_OF_RANGE:
        raise ValueError(
            f"certificate {document['check_id']} ({document['finding']}) of statement {document['statement_id']} has "
            f"parameters outside the statement's quantifiers: {'; '.join(violations)}; such a FAIL refutes nothing the "
            "statement claims (class it out-of-range, or move the instance inside)"
        )
