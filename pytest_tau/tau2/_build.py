"""τ²'s domains by short name, built from the installed package (apart from the adapter,
which the telecom domain builds on)."""

from __future__ import annotations

from .._domain import DomainError
from ._adapter import Tau2Domain
from ._telecom import TelecomDomain

__all__ = ["build_domain"]


def build_domain(short_name: str) -> Tau2Domain:
    """τ²'s ``airline``, ``retail`` or ``telecom`` domain, built from the installed package."""
    if short_name == "telecom":
        return TelecomDomain()
    if short_name not in ("airline", "retail"):
        raise DomainError(f"τ² domain {short_name!r} is not covered (airline, retail and telecom are)")
    return Tau2Domain(short_name)
