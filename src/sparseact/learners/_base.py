"""scikit-learn style parameter handling shared by the learners (no scikit-learn dependency)."""

from __future__ import annotations

import inspect


def _same(a, b) -> bool:
    try:
        return bool(a == b) and type(a) is type(b)
    except (TypeError, ValueError):
        return a is b


class ParamsMixin:
    """``get_params``, ``set_params`` and ``repr`` from the keyword arguments of ``__init__``.

    Subclasses store every constructor argument under its own name and may
    override :meth:`_check_params` to validate after ``set_params``.
    """

    @classmethod
    def _param_names(cls) -> list[str]:
        return [p for p in inspect.signature(cls.__init__).parameters if p != "self"]

    def get_params(self, deep: bool = True) -> dict:
        """Parameters of this estimator, as ``{name: value}`` (like scikit-learn's ``BaseEstimator``)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params):
        """Set parameters by name and return ``self``; an unknown name raises ``ValueError``."""
        valid = self._param_names()
        for name, value in params.items():
            if name not in valid:
                raise ValueError(
                    f"invalid parameter {name!r} for {type(self).__name__} (unknown parameter; valid parameters: {valid})"
                )
            setattr(self, name, value)
        self._check_params()
        return self

    def _check_params(self) -> None:
        """Validate the parameters (called by ``set_params``); no-op by default."""

    def __repr__(self) -> str:
        defaults = {
            p.name: p.default for p in inspect.signature(type(self).__init__).parameters.values() if p.name != "self"
        }
        shown = [f"{k}={v!r}" for k, v in self.get_params().items() if not _same(v, defaults[k])]
        return f"{type(self).__name__}({', '.join(shown)})"
