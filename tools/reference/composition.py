#!/usr/bin/env python3
"""Reference values for the optimal composition of k (eps, delta)-DP mechanisms (Kairouz, Oh &
Viswanath 2015, Theorem 3.3; the profile between its grid points as in Murtagh & Vadhan 2016),
from mpmath at 50 significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:  python3 tools/reference/composition.py
Writes math/tests/data/composition.csv, read by math/tests/composition_reference.rs.

Columns: epsilon, delta, k, delta_total, expected. expected is the smallest eps' >= 0 with

  1 - (1 - delta)^k (1 - sum_{l=0..k} C(k, l) max(0, e^{(k-l) eps} - e^{eps' + l eps}) / (1 + e^eps)^k)
      <= delta_total,

found by bisection on the full sum over every l (not the interval-by-interval closed form the Rust
code uses), 200 halvings of [0, k eps]. Rows where k delta alone exceeds delta_total are left out.
"""
import csv
import os
import sys

import mpmath as mp

mp.mp.dps = 50
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "composition.csv")


def profile(eps, delta, k, e_prime, weights):
    s = mp.mpf(0)
    for l in range(k + 1):
        gap = mp.exp((k - l) * eps) - mp.exp(e_prime + l * eps)
        if gap > 0:
            s += weights[l] * gap
    return 1 - (1 - delta) ** k * (1 - s)


def optimal(eps, delta, k, delta_total):
    eps, delta, delta_total = mp.mpf(eps), mp.mpf(delta), mp.mpf(delta_total)
    norm = (1 + mp.exp(eps)) ** k
    weights = [mp.binomial(k, l) / norm for l in range(k + 1)]
    if profile(eps, delta, k, 0, weights) <= delta_total:
        return mp.mpf(0)
    lo, hi = mp.mpf(0), k * eps
    for _ in range(200):
        mid = (lo + hi) / 2
        if profile(eps, delta, k, mid, weights) <= delta_total:
            hi = mid
        else:
            lo = mid
    return hi


def main():
    settings = []
    for eps in [0.01, 0.1, 0.5, 1.0, 2.0]:
        for delta in [0.0, 1e-7]:
            for k in [1, 2, 3, 10, 100, 1000]:
                for delta_total in [1e-5, 1e-3, 0.1]:
                    settings.append((eps, delta, k, delta_total))
    settings += [(0.01, 0.0, 10000, 1e-5), (0.05, 1e-9, 5000, 1e-6), (0.0170369, 0.0, 2000, 1e-5)]
    rows = []
    for eps, delta, k, delta_total in settings:
        if 1 - (1 - mp.mpf(delta_total)) / (1 - mp.mpf(delta)) ** k <= 0:
            continue
        rows.append((eps, delta, k, delta_total, optimal(eps, delta, k, delta_total)))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["epsilon", "delta", "k", "delta_total", "expected"])
        for eps, delta, k, delta_total, expected in rows:
            w.writerow([repr(eps), repr(delta), k, repr(delta_total),
                        mp.nstr(expected, 25, min_fixed=0, max_fixed=0)])
    print(f"wrote {len(rows)} rows to {os.path.normpath(OUT)} (mpmath {mp.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
