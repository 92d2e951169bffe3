r"""The degenerate-corner rule: one class for every FAIL confined to where a printed logarithm degenerates, or to
the degenerate class ``W = 0``.

Many of the paper's bounds carry a logarithm of their parameters, ``log(ns)``, ``log(s/k)``,
``log(m(R+B))``. Where its argument is below ``e`` the printed logarithm is below 1, vanishes or turns
negative, and a bound written for the regime where the logarithm is large says nothing there. The
project applies one rule to every statement alike:

    A FAIL is **out-of-range** when every violating instance it records lies in a *log corner*: on
    that instance, flooring every logarithm of the printed bound at 1 (``log a -> max(1, log a)``)
    removes the violation. A FAIL whose every violating instance has ``W = 0``, where every network of
    Definition 2 is a constant, is in the same corner (:data:`DEGENERATE_CLASS`). A FAIL outside both is a
    failure of the statement proper and keeps its class. The second clause of the rule, for parameters the paper never uses (e.g.
    ``rho`` outside ``[0, 1)``), is stated by the check itself.

Flooring only at the logarithms is deliberately narrow: it asks whether the printed *shape* of the
bound, read where its logarithms are at least 1, is violated; the constant and every other factor
stay as printed. The rule decides a class, never a verdict: a corner FAIL still carries its
certificate, and the statement's status is then decided by its other checks and its argument
(:mod:`sparseact.publish.statements`).

The bound is the ``expr`` of the certificate's ``formula`` side, which the certificate checker pins
(:mod:`sparseact.verify.checker`); it is evaluated here by a small interpreter of arithmetic
expressions (numbers, the certificate's variables, ``+ - * / **``, comparisons, ``x if c else y``, and
the functions of :data:`FUNCTIONS`), never by :func:`eval`.
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Iterable, Mapping

from sparseact.verify.certificates import violated
from sparseact.verify.verdicts import Verdict

#: The value below which a printed logarithm is floored by the rule.
LOG_FLOOR = 1.0
#: The parameter values at which the class degenerates: with ``W = 0`` every network of Definition 2 is a constant,
#: and a bound written for networks says nothing there (the lower bounds need ``W > 0``; the Hoeffding step of
#: Lemma 9's proof holds non-strictly only for ``W > 0``).
DEGENERATE_CLASS = {"W": 0.0}
#: The class the rule gives a FAIL confined to log corners (one of :data:`sparseact.verify.verdicts.FINDINGS`).
CORNER_FINDING = "out-of-range"


def _floored_log(argument: float) -> float:
    """``max(1, log a)``, and 1 where ``log a`` is undefined (``a <= 0``): the rule's logarithm."""
    return max(LOG_FLOOR, math.log(argument)) if argument > 0 else LOG_FLOOR


#: The functions a bound may call, with ``log`` as printed.
def _exp(x: float) -> float:
    """``e^x``, ``inf`` above the largest double: a bound that large has no violation to remove."""
    return math.exp(x) if x < 709.0 else math.inf


FUNCTIONS: dict[str, Callable] = {
    "sqrt": math.sqrt,
    "log": math.log,
    "exp": _exp,
    "ceil": math.ceil,
    "floor": math.floor,
    "max": max,
    "min": min,
    "abs": abs,
}
_BINARY = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Pow: operator.pow,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_COMPARE = {
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
}


class _NotArithmetic(ValueError):
    """``expr`` is not an expression :func:`evaluate` reads, or names an unknown variable."""


def evaluate(expr: str, variables: Mapping[str, float], floor_logs: bool = False) -> float:
    """The value of the bound ``expr`` at ``variables``, optionally with every logarithm floored at 1.

    Parameters
    ----------
    expr : str
        An arithmetic expression over the names in ``variables`` and :data:`FUNCTIONS`.
    variables : mapping of str to float
        The certificate's variables (numbers only).
    floor_logs : bool
        Read every ``log(a)`` as ``max(1, log a)`` (the rule's floor).

    Raises
    ------
    ValueError
        When ``expr`` is not such an expression, names an unknown variable or function, or a
        function is outside its domain.
    """
    if not isinstance(expr, str) or not expr.strip():
        raise ValueError(f"a bound is a non-empty expression string, got {expr!r}")
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as error:
        raise ValueError(f"not an arithmetic expression: {expr!r} ({error.msg})") from None
    functions = dict(FUNCTIONS, log=_floored_log) if floor_logs else FUNCTIONS
    try:
        return float(_value(tree.body, variables, functions))
    except _NotArithmetic:
        raise
    except (ArithmeticError, TypeError, ValueError) as error:  # a function outside its domain (log 0, sqrt -1, ...)
        raise ValueError(f"cannot evaluate {expr!r} at {dict(variables)}: {error}") from None


def _value(node: ast.AST, variables: Mapping[str, float], functions: Mapping[str, Callable]):
    # in floats throughout: an integer power such as 9**9**9 overflows at once instead of growing without bound
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name):
        if node.id in variables:
            return float(variables[node.id])
        if node.id in ("e", "pi"):
            return getattr(math, node.id)
        raise _NotArithmetic(f"the bound names {node.id!r}, which is not one of its variables")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_value(node.left, variables, functions), _value(node.right, variables, functions))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        operand = _value(node.operand, variables, functions)
        return -operand if isinstance(node.op, ast.USub) else operand
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _COMPARE:
        return _COMPARE[type(node.ops[0])](
            _value(node.left, variables, functions), _value(node.comparators[0], variables, functions)
        )
    if isinstance(node, ast.BoolOp):
        values = [_value(v, variables, functions) for v in node.values]
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.IfExp):
        chosen = node.body if _value(node.test, variables, functions) else node.orelse
        return _value(chosen, variables, functions)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in functions
        and not node.keywords
    ):
        return functions[node.func.id](*(_value(a, variables, functions) for a in node.args))
    raise _NotArithmetic(f"the bound uses {ast.dump(node)[:60]}..., which is not plain arithmetic")


def has_logarithm(expr: str) -> bool:
    """Whether the bound ``expr`` calls ``log``."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError:
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "log" for n in ast.walk(tree))


def in_log_corner(
    relation: str, lhs_value: float, expr: str, variables: Mapping[str, float], bound_side: str = "rhs"
) -> bool:
    """Whether the violation ``lhs relation bound`` disappears once every logarithm of the bound is floored at 1.

    Parameters
    ----------
    relation : {"<=", ">=", "=="}
        What the paper asserts, ``lhs relation rhs``.
    lhs_value : float
        The measured side (the side that is not the printed bound).
    expr, variables
        The printed bound and its variables (a certificate's ``formula`` side).
    bound_side : {"rhs", "lhs"}
        Which side of the relation the bound is.

    Returns
    -------
    bool
        ``True`` when the bound has a logarithm, violates the relation as printed, and no longer does
        with its logarithms floored at 1.
    """
    if bound_side not in ("rhs", "lhs"):
        raise ValueError(f"bound_side is 'rhs' or 'lhs', got {bound_side!r}")
    if not has_logarithm(expr):
        return False

    def violation(bound: float) -> bool:  # the certificates' slack, so that the rule and the certificate agree
        return violated(relation, *((lhs_value, bound) if bound_side == "rhs" else (bound, lhs_value)))

    return violation(evaluate(expr, variables)) and not violation(evaluate(expr, variables, floor_logs=True))


def in_log_corner_up_to_constant(expr: str, variables: Mapping[str, float]) -> bool:
    """The rule for a bound read up to a constant (an ``O()`` or ``Theta()`` bound, a degree ``Theta(...)``):
    no constant repairs a violation of a bound that is ``<= 0`` as printed, and some constant repairs every
    violation once the bound is positive. So the violation is in a log corner when the printed bound is
    ``<= 0`` and the bound with its logarithms floored at 1 is positive.
    """
    if not has_logarithm(expr):
        return False
    return evaluate(expr, variables) <= 0 < evaluate(expr, variables, floor_logs=True)


def in_degenerate_class(variables: Mapping) -> bool:
    """Whether an instance's ``variables`` put it in the degenerate class (:data:`DEGENERATE_CLASS`)."""
    return any(
        isinstance(variables.get(name), (int, float))
        and not isinstance(variables.get(name), bool)
        and variables[name] == value
        for name, value in DEGENERATE_CLASS.items()
    )


def certificate_in_corner(certificate: Mapping) -> bool:
    """Whether a certificate (the ``"certificate"`` object of a certificate file) lies in a corner: an instance of a
    formula side in the degenerate class (:func:`in_degenerate_class`), or :func:`in_log_corner` of a certificate of
    the form *measured quantity* ``relation`` *printed bound*.

    The printed bound is the one ``formula`` side, with a logarithm and plain-number variables, whose other
    side is a measured quantity (not a formula). Any other certificate (two formulas, a bound over a variable
    that is itself a quantity, no logarithm) is not in a corner by this function: its claim applies the rule
    with the bound it knows (:func:`finding`). A bound read up to a constant is judged with the constant its certificate
    states: in a corner when that constant repairs the floored bound.
    """
    sides = {side: certificate.get(side) for side in ("lhs", "rhs")}
    formulas = [side for side, q in sides.items() if isinstance(q, Mapping) and q.get("quantity") == "formula"]
    if any(
        isinstance(sides[side].get("vars"), Mapping) and in_degenerate_class(sides[side]["vars"]) for side in formulas
    ):
        return True
    if len(formulas) != 1:
        return False
    side = formulas[0]
    other = "lhs" if side == "rhs" else "rhs"
    quantity = sides[side]
    variables = quantity.get("vars", {})
    if not has_logarithm(quantity.get("expr", "")) or any(
        not isinstance(v, (int, float)) or isinstance(v, bool) for v in variables.values()
    ):
        return False
    try:
        return in_log_corner(
            certificate["relation"], float(certificate[f"{other}_value"]), quantity["expr"], variables, bound_side=side
        )
    except (KeyError, TypeError, ValueError):
        return False


def finding(default: str, corners: Iterable[bool]) -> str:
    """The class of a FAIL under the rule: :data:`CORNER_FINDING` when every violating instance is in a
    corner (``corners``: one flag per violating instance, at least one), else ``default``."""
    flags = list(corners)
    if not flags:
        raise ValueError("a FAIL has at least one violating instance")
    return CORNER_FINDING if all(flags) else default


def degenerate_point_fields(certificate: Mapping | None, value: float, bound: float, quantity: str) -> dict:
    """The verdict fields of a check at one degenerate parameter point, where the printed bound may vanish.

    ``value`` is the exact measured ``quantity`` (e.g. ``"AS"``), ``bound`` the printed expression there and
    ``certificate`` the certificate of its violation (``None`` when it holds). A FAIL is classed by the rule
    (:func:`finding`): out-of-range when flooring the printed logarithms removes the violation.
    """
    return dict(
        worst_value=value if bound == 0 else value / bound,
        worst_value_label=f"{quantity} (the bound is 0)" if bound == 0 else f"{quantity} / expression",
        verdict=Verdict.FAIL if certificate else Verdict.PASS,
        certificate=certificate,
        finding=finding("statement-error", [certificate_in_corner(certificate)]) if certificate else "",
    )
