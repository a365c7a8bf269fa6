"""Finite fields GF(q), q = p^k a small prime power, as addition and multiplication tables.

An element is an int ``0 … q-1`` whose base-``p`` digits are the coefficients of a polynomial of
degree < k over GF(p) (lowest first). Multiplication is taken modulo a primitive polynomial of
degree k, found by trying monic polynomials in order until ``x`` has multiplicative order
``q - 1``; then ``x`` generates the nonzero elements and products come from logarithm tables.
For a prime q the primitive element is the smallest primitive root.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import product

MAX_ORDER = 128


def prime_power(q: int) -> tuple[int, int] | None:
    """``(p, k)`` with ``q == p ** k`` and p prime, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k = 0
    while q % p == 0:
        q //= p
        k += 1
    return (p, k) if q == 1 else None


@dataclass(frozen=True)
class Field:
    """GF(q): ``add[a][b]``, ``mul[a][b]`` and ``neg[a]`` for elements ``0 … q-1``, and
    ``powers[i]``, the i-th power of a primitive element (``0 <= i < q - 1``)."""

    q: int
    p: int
    add: tuple[tuple[int, ...], ...]
    mul: tuple[tuple[int, ...], ...]
    neg: tuple[int, ...]
    powers: tuple[int, ...]


def _to_digits(value: int, p: int, k: int) -> list[int]:
    """An element's ``k`` base-``p`` digits, lowest first: its polynomial's coefficients."""
    return [value // p**i % p for i in range(k)]


def _from_digits(digits: list[int], p: int) -> int:
    """The element whose polynomial has these coefficients (the inverse of ``_to_digits``)."""
    return sum(d * p**i for i, d in enumerate(digits))


def _times_x(digits: list[int], low: tuple[int, ...], p: int) -> list[int]:
    """``digits * x`` modulo ``x^k + low[k-1] x^(k-1) + … + low[0]``."""
    top = digits[-1]
    shifted = [0, *digits[:-1]]
    return [(d - top * c) % p for d, c in zip(shifted, low, strict=True)]


def _powers(low: tuple[int, ...], p: int, q: int) -> list[int]:
    """``1, x, x^2, … x^(q-2)`` modulo the polynomial with lower coefficients ``low``."""
    power, powers = [1] + [0] * (len(low) - 1), []
    for _ in range(q - 1):
        powers.append(_from_digits(power, p))
        power = _times_x(power, low, p)
    return powers


@cache
def field(q: int) -> Field:
    """The field with ``q`` elements (``q`` a prime power up to 128)."""
    found = prime_power(q)
    if found is None or q > MAX_ORDER:
        raise ValueError(f"GF({q}) is not supported: q must be a prime power up to {MAX_ORDER}")
    p, k = found
    digits = [_to_digits(a, p, k) for a in range(q)]
    add = tuple(
        tuple(_from_digits([(x + y) % p for x, y in zip(da, db, strict=True)], p) for db in digits)
        for da in digits
    )
    neg = tuple(_from_digits([-x % p for x in da], p) for da in digits)
    if k == 1:
        mul = tuple(tuple(a * b % p for b in range(q)) for a in range(q))
        powers = next(
            powers
            for g in range(1, q)
            if len(set(powers := [pow(g, i, q) for i in range(q - 1)])) == q - 1
        )
        return Field(q, p, add, mul, neg, tuple(powers))
    powers = next(
        powers
        for low in product(range(p), repeat=k)
        if len(set(powers := _powers(low, p, q)) - {0}) == q - 1
    )
    log = {value: exponent for exponent, value in enumerate(powers)}
    mul = tuple(
        tuple(0 if a == 0 or b == 0 else powers[(log[a] + log[b]) % (q - 1)] for b in range(q))
        for a in range(q)
    )
    return Field(q, p, add, mul, neg, tuple(powers))
