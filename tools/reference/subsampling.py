#!/usr/bin/env python3
"""Reference values for amplification by subsampling, from mpmath at 60 significant digits.

Pinned: Python 3.11, mpmath==1.3.0 (`pip install mpmath==1.3.0`).
Run from the repository root:  python3 tools/reference/subsampling.py
Writes math/tests/data/subsampling.csv, read by math/tests/reference.rs.

The oracle evaluates the defining formulas directly in high precision. It shares no code with the
Rust implementation; the Rust side uses log1p/expm1 and recurrences, the oracle plain arithmetic
with 60 digits, so cancellation that would hurt double precision does not hurt it.

Columns: kind, epsilon, delta, p, m, n, expected. Inputs are written as the shortest decimal that
round-trips the double (Python's repr), and the oracle starts from that exact double.

Kinds:
  forward        eps' = log(1 + p (e^eps - 1))                    (Steinke, part 1, Thm 1)
  inverse        eps  = log(1 + (e^eps' - 1) / p), eps' in column epsilon
  wr_inclusion   eta  = 1 - (1 - 1/n)^m                           (Balle, Barthe & Gaboardi 2018)
  wr_delta       delta' = sum_k Bin(k; m, 1/n) min(1, 1 - e^{-(k-1)eps} + delta (1-e^{-k eps})/(1-e^{-eps}))
"""
import csv
import os
import sys

import mpmath as mp

mp.mp.dps = 60

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "subsampling.csv")


def logspace(lo, hi, count):
    """`count` doubles spaced evenly in log10 between lo and hi, inclusive."""
    a, b = mp.log10(lo), mp.log10(hi)
    return [float(mp.power(10, a + (b - a) * i / (count - 1))) for i in range(count)]


def forward(eps, p):
    return mp.log(1 + mp.mpf(p) * (mp.exp(mp.mpf(eps)) - 1))


def inverse(target, p):
    return mp.log(1 + (mp.exp(mp.mpf(target)) - 1) / mp.mpf(p))


def inclusion(m, n):
    return 1 - (1 - mp.mpf(1) / n) ** m


def group_bound(eps, delta, k):
    """min(1, d + (1 - d)(e^{k eps} - e^eps)/(e^{k eps} + 1)), d = delta (e^{k eps} - 1)/(e^eps - 1):
    the two-sided group-privacy bound on the hockey-stick divergence at e^eps for k positions."""
    eps, delta = mp.mpf(eps), mp.mpf(delta)
    if k == 1:
        return delta
    d = delta * k if eps == 0 else delta * (mp.exp(k * eps) - 1) / (mp.exp(eps) - 1)
    if d >= 1:
        return mp.mpf(1)
    return min(mp.mpf(1), d + (1 - d) * (mp.exp(k * eps) - mp.exp(eps)) / (mp.exp(k * eps) + 1))


def wr_delta(eps, delta, m, n):
    """The binomial mixture, summed at 60 digits over k within 60 standard deviations of the mean
    (the rest is below 1e-700 of the total)."""
    if n == 1:
        return group_bound(eps, delta, m)
    q = mp.mpf(1) / n
    mean = m * q
    sd = mp.sqrt(m * q * (1 - q))
    lo = max(1, int(mean - 60 * sd) - 5)
    hi = min(m, int(mean + 60 * sd) + 5)
    total = mp.mpf(0)
    for k in range(lo, hi + 1):
        ln_term = mp.loggamma(m + 1) - mp.loggamma(k + 1) - mp.loggamma(m - k + 1) + k * mp.log(q) + (m - k) * mp.log(1 - q)
        total += mp.exp(ln_term) * group_bound(eps, delta, k)
    return total


def main():
    rows = []
    eps_grid = logspace(1e-12, 50.0, 27) + [0.1, 0.5, 1.0, 2.0, 5.0]
    p_grid = logspace(1e-9, 1.0, 19) + [0.01, 0.04, 0.5, 0.999]
    for eps in eps_grid:
        for p in p_grid:
            rows.append(("forward", eps, "", p, "", "", forward(eps, p)))
            rows.append(("inverse", eps, "", p, "", "", inverse(eps, p)))
    for m, n in [(1, 1), (1, 2), (3, 10), (256, 60000), (1000, 1000), (5, 10**9), (10**6, 10**12),
                 (7, 3), (100, 1000), (10**4, 10**4), (50000, 10**5)]:
        rows.append(("wr_inclusion", "", "", "", m, n, inclusion(m, n)))
    for eps in [1e-6, 0.1, 1.0, 3.0, 10.0]:
        for delta in [0.0, 1e-9, 1e-5, 0.01]:
            for m, n in [(256, 60000), (10, 100), (1000, 1000), (64, 10**7), (20, 7), (3, 1)]:
                rows.append(("wr_delta", eps, delta, "", m, n, wr_delta(eps, delta, m, n)))
    # Many draws per record, where a sum started at k = 1 underflows (m/n up to the domain's 1000).
    for eps, delta in [(1e-6, 1e-6), (0.01, 1e-3), (1.0, 1e-6), (0.0, 1e-3)]:
        for m, n in [(500_000, 1000), (760_000, 1000), (1_000_000, 1000), (1075, 2), (1400, 2), (2000, 2)]:
            rows.append(("wr_delta", eps, delta, "", m, n, wr_delta(eps, delta, m, n)))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["kind", "epsilon", "delta", "p", "m", "n", "expected"])
        for kind, eps, delta, p, m, n, expected in rows:
            w.writerow([kind, repr(eps) if eps != "" else "", repr(delta) if delta != "" else "",
                        repr(p) if p != "" else "", m, n, mp.nstr(expected, 25, min_fixed=0, max_fixed=0)])
    print(f"wrote {len(rows)} rows to {os.path.normpath(OUT)} (mpmath {mp.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
