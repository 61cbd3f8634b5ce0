"""The one integer-argument check behind every public function's bad-input errors."""

from __future__ import annotations

import numpy as np


def check_int(name: str, value: object, minimum: int) -> int:
    """Return ``value`` as an int, or raise ValueError naming ``name``, the value and the range."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value >= minimum:
        return int(value)
    expected = {0: "a non-negative integer", 1: "a positive integer"}.get(minimum, f"an integer >= {minimum}")
    raise ValueError(f"{name} must be {expected}, got {value!r}")
