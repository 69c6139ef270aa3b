"""Coded errors (dp_core.errors.CodedError) for data.sources, which does not import dp_core when
it is imported: dp_core's package pulls in SciPy, which reading data by path does not need."""

from __future__ import annotations


def coded_error(code: str, *, detail: str | None = None, **params: object) -> ValueError:
    """``CodedError(code, detail=detail, **params)``, dp_core imported only now (to raise)."""
    from dp_core.errors import CodedError  # not at import: dp_core pulls in SciPy

    return CodedError(code, detail=detail, **params)
