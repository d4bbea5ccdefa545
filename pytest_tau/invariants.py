"""The data invariants a domain declares (``DOMAIN.invariants(...)``); see docs/writing-a-domain.md."""

from ._invariants import (
    Invariant,
    after_now,
    area_codes_valid,
    cents,
    consistent,
    dialable_area_code,
    dialable_exchange,
    half_up,
    money_decimal,
    no_typos,
    not_after_now,
    ordered,
    plausible_age,
    zip_matches_state,
    zip_state,
)

__all__ = [
    "Invariant",
    "after_now",
    "area_codes_valid",
    "cents",
    "consistent",
    "dialable_area_code",
    "dialable_exchange",
    "half_up",
    "money_decimal",
    "no_typos",
    "not_after_now",
    "ordered",
    "plausible_age",
    "zip_matches_state",
    "zip_state",
]
