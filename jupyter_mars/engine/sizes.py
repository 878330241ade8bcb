"""Memory sizes as people write them on command lines: ``8g``, ``512m``, ``1.5GiB``, ``80%``.

>>> parse_size("512k")
524288
>>> parse_size("1.5GiB")
1610612736
>>> parse_size("80%", total=1000)
800
>>> parse_size(0.25, total=1000)
250
>>> parse_size("10Gi")
10737418240
>>> parse_worker_memory(16)
17179869184
>>> format_size(1610612736)
'1.5GiB'

Units are powers of 1024, as in Mars: ``k``, ``m``, ``g``, ``t``, ``p``, ``e``,
case-insensitive, optionally followed by ``b``, ``i`` or ``ib`` (``512k``, ``512kb``,
``512Ki`` and ``512KiB`` are the same), so Kubernetes' binary quantities (``10Gi``) read as
Kubernetes means them; its decimal ones (``10G``) read as Mars reads ``10g``, a power of
1024. A bare ``b`` means bytes. A percentage is a share of ``total``. As in Mars, a *decimal*
number in (0, 1] without a unit (the float ``0.8`` or the text ``"0.8"``) is a fraction of
``total`` as well; an integer (``1``, ``"1048576"``) is always a number of bytes.
"""

from __future__ import annotations

import math
import re

_UNITS = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}
_NAMES = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
_SIZE = re.compile(
    r"""^\s*
    (?P<number>\d+(?:\.\d*)?|\.\d+)\s*
    (?:(?P<percent>%)|(?P<unit>[kmgtpe])(?:i?b|i)?|b)?
    \s*$""",
    re.IGNORECASE | re.VERBOSE,
)
EXPECTED = "a size such as 1048576, 512k, 8g, 1.5GiB, 10Gi or 80%"
"""What a size looks like, for error messages."""


def parse_size(text: str | int | float, total: int | None = None) -> int:
    """Bytes meant by ``text``; percentages and fractions are shares of ``total``.

    Raises ``ValueError`` (saying what was expected) for anything else, and for a
    percentage or fraction when ``total`` is None.
    """
    if isinstance(text, bool) or not isinstance(text, str | int | float):
        raise ValueError(f"expected {EXPECTED}, got {text!r}")
    if isinstance(text, int):
        if text < 0:
            raise ValueError(f"expected {EXPECTED}, got a negative number {text}")
        return text
    if isinstance(text, float):
        if not math.isfinite(text) or text < 0:
            raise ValueError(f"expected {EXPECTED}, got {text!r}")
        return _share(text, total, str(text)) if 0 < text <= 1 else round(text)
    match = _SIZE.match(text)
    if match is None:
        raise ValueError(f"expected {EXPECTED}, got {text!r}")
    number = float(match["number"])
    if match["percent"]:
        return _share(number / 100, total, text.strip())
    if match["unit"] is None and "." in match["number"] and 0 < number <= 1:
        return _share(number, total, text.strip())
    return round(number * (1 << 10 * _UNITS[(match["unit"] or "").lower()]))


GIB_THRESHOLD = 1 << 20
"""A unitless worker memory at or above this is bytes: no worker has a PiB."""


def parse_worker_memory(value: str | int | float, what: str = "worker_mem") -> int:
    """Bytes of one worker's memory as cluster requests write it: a number without a unit
    is GiB, as in the PyODPS cluster API (``worker_mem=16``: 16 GiB), and a text with a
    unit is parsed by ``parse_size`` (``"512MiB"``, ``"10Gi"``). Mars's Kubernetes
    launcher takes bytes, so a unitless number of ``GIB_THRESHOLD`` or more (a
    PiB of GiB, which no worker has) is read as bytes. Raises ``ValueError`` naming
    ``what`` for anything else, and for less than 1 MiB."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(f"{what} must be GiB as a number or a size with a unit, got {value!r}")
    number: float | None = value if not isinstance(value, str) else None
    if isinstance(value, str) and re.fullmatch(r"\s*(\d+(\.\d*)?|\.\d+)\s*", value):
        number = float(value)
    try:
        if number is None:
            size = parse_size(value)
        elif not math.isfinite(number) or number <= 0:
            raise ValueError(f"{what} must be positive, got {value!r}")
        else:
            size = round(number) if number >= GIB_THRESHOLD else round(number * (1 << 30))
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None
    if size < 1 << 20:
        raise ValueError(f"{what} must be at least 1MiB, got {value!r} ({format_size(size)})")
    return size


def _share(fraction: float, total: int | None, text: str) -> int:
    if total is None:
        raise ValueError(f"{text!r} is a share of a total, and there is none here; give bytes")
    return int(total * fraction)


def format_size(n: int) -> str:
    """``n`` bytes in the largest binary unit it fills, to two decimals (``'1.5GiB'``).

    ``parse_size(format_size(n))`` is ``n`` to within 0.5 %.
    """
    if n < 0:
        raise ValueError(f"a size cannot be negative, got {n}")
    if n < 1024:
        return f"{n}B"
    power = min(int(math.log(n, 1024)), len(_NAMES) - 1)
    # log() can land one unit off near exact powers of 1024; settle it with integers.
    while power > 1 and n < 1024**power:
        power -= 1
    while power < len(_NAMES) - 1 and n >= 1024 ** (power + 1):
        power += 1
    text = f"{n / 1024**power:.2f}"
    if float(text) >= 1024 and power < len(_NAMES) - 1:
        power += 1
        text = f"{n / 1024**power:.2f}"
    return text.rstrip("0").rstrip(".") + _NAMES[power]
