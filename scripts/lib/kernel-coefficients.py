#!/usr/bin/env python3
"""Prints the polynomial coefficients of the spring kernel's cosine and exponential
(Sources/Strata/Stores/SpringKernel.swift) and their worst error in Double arithmetic.

Each is mpmath's Chebyshev fit (`chebyfit`, 50 digits), near the minimax polynomial:
  cosine:      cos(sqrt(z)) on 0 <= z <= (pi/2 + 1e-9)^2, degree 7 in z = r^2
  exponential: e^r on |r| <= ln 2 / 2 + 1e-9, degree 10
Needs mpmath (pip install mpmath). Usage: scripts/lib/kernel-coefficients.py
"""
import math
import sys

try:
    import mpmath as mp
except ImportError:
    sys.exit("kernel-coefficients: needs mpmath (pip install mpmath)")

mp.mp.dps = 50


def horner(coefficients, x):
    p = 0.0
    for c in reversed(coefficients):
        p = p * x + c
    return p


def main():
    edge = (mp.pi / 2 + mp.mpf("1e-9")) ** 2
    cosine = [float(c) for c in mp.chebyfit(lambda z: mp.cos(mp.sqrt(z)) if z > 0 else mp.mpf(1), [0, edge], 8)[::-1]]
    half = mp.log(2) / 2 + mp.mpf("1e-9")
    exponential = [float(c) for c in mp.chebyfit(mp.exp, [-half, half], 11)[::-1]]
    worst_cos = max(abs(horner(cosine, r * r) - math.cos(r))
                    for r in (math.pi / 2 * k / 20000 for k in range(20001)))
    worst_exp = max(abs(horner(exponential, r) - math.exp(r)) / math.exp(r)
                    for r in (-float(half) + 2 * float(half) * k / 20000 for k in range(20001)))
    print("cosine, c0 ... c7 (in z = r^2):")
    for c in cosine:
        print(f"  {c!r}")
    print(f"  worst absolute error on |r| <= pi/2: {worst_cos:.3g}")
    print("exponential, c0 ... c10:")
    for c in exponential:
        print(f"  {c!r}")
    print(f"  worst relative error on |r| <= ln 2 / 2: {worst_exp:.3g}")


if __name__ == "__main__":
    main()
