#!/usr/bin/env python3
"""Reference values for the analytic part of Hu, Drechsler & Kim, "Accuracy gains from privacy
amplification through sampling for differential privacy", mpmath at 60 digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:  python3 tools/reference/accuracy.py
Writes math/tests/data/accuracy.csv, read by math/tests/accuracy_reference.rs.

Kinds (columns: kind, epsilon, rate, x, expected):
  q            1 - eps^2/eps_n^2, eps_n = log(1 + (e^eps - 1)/rate)        eq. 5
  rate_for_q   the rate at which q = x, by bisection in log(rate) at 60 digits
  r            ((rate) eps_n / eps)^2                                     eq. 8
  v_sample     (1 - n/N) S^2/n + 2 (R/(eps_n n))^2 with N = 10001, R = 1, S^2 = x, n = round(rate N)   eq. 7
  v_population 2 (R/(eps N))^2 with N = 10001 and R = x                     eq. 6
  delta_n      delta N/n = x/rate (x = delta)                               Theorem 1
  eps_n        log(1 + (e^eps - 1)/rate)                                    Theorem 1 turned around
  no_gain      q(eps, rate) 2 (x/eps)^2, x = the population sensitivity       Section 4.1
"""
import csv
import os
import sys

import mpmath as mp

mp.mp.dps = 60
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "accuracy.csv")


def logspace(lo, hi, count):
    a, b = mp.log10(lo), mp.log10(hi)
    return [float(mp.power(10, a + (b - a) * i / (count - 1))) for i in range(count)]


def eps_n(e, r):
    return mp.log(1 + (mp.exp(mp.mpf(e)) - 1) / mp.mpf(r))


def bisect(f, lo, hi, steps=400):
    """Plain bisection at 60 digits: q is monotone in the rate, so this cannot go wrong."""
    flo = f(lo)
    for _ in range(steps):
        mid = (lo + hi) / 2
        fm = f(mid)
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return (lo + hi) / 2


def q(e, r):
    return 1 - (mp.mpf(e) / eps_n(e, r)) ** 2


def main():
    rows = []
    for e in logspace(1e-9, 10.0, 15) + [0.1, 3.0]:
        for r in logspace(1e-6, 0.999, 13) + [101 / 10001, 1001 / 10001, 0.5]:
            rows.append(("q", e, r, "", q(e, r)))
            rows.append(("r", e, r, "", (mp.mpf(r) * eps_n(e, r) / mp.mpf(e)) ** 2))
    for e in [0.001, 0.01, 0.1, 0.5, 1.0, 3.0, 5.0]:
        for target in [0.1, 0.3, 0.6, 0.9, 0.99]:
            t = bisect(lambda lr: q(e, mp.exp(lr)) - target, mp.mpf(-700), mp.mpf(0))
            rows.append(("rate_for_q", e, "", target, mp.exp(t)))
    N = 10001
    for e in [0.1, 1.0]:
        for r in [0.01, 0.1, 0.5]:
            for s2 in [0.01, 0.05]:
                n = int(mp.floor(mp.mpf(r) * N + mp.mpf(1) / 2))  # halves round up, as in Rust
                en = eps_n(e, mp.mpf(n) / N)
                v = (1 - mp.mpf(n) / N) * mp.mpf(s2) / n + 2 * (1 / (en * n)) ** 2
                rows.append(("v_sample", e, r, s2, v))
    for e in [0.1, 1.0, 3.0]:
        for big_r in [0.5, 1.0, 7.0]:
            rows.append(("v_population", e, "", big_r, 2 * (mp.mpf(big_r) / (mp.mpf(e) * N)) ** 2))
    for d in [0.0, 1e-9, 1e-6, 1e-3]:
        for r in [1e-3, 0.01, 0.5, 1.0]:
            if mp.mpf(d) / mp.mpf(r) < 1:
                rows.append(("delta_n", "", r, d, mp.mpf(d) / mp.mpf(r)))
    for e in [1e-6, 0.1, 1.0, 5.0]:
        for r in [1e-4, 0.01, 0.5, 1.0]:
            rows.append(("eps_n", e, r, "", eps_n(e, r)))
    for e in [0.1, 1.0, 3.0]:
        for r in [0.01, 0.3]:
            for sens in [1e-4, 0.5]:
                rows.append(("no_gain", e, r, sens, q(e, r) * 2 * (mp.mpf(sens) / mp.mpf(e)) ** 2))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["kind", "epsilon", "rate", "x", "expected"])
        for kind, e, r, x, expected in rows:
            w.writerow([kind, repr(e) if e != "" else "", repr(r) if r != "" else "", repr(x) if x != "" else "",
                        mp.nstr(expected, 25, min_fixed=0, max_fixed=0)])
    print(f"wrote {len(rows)} rows to {os.path.normpath(OUT)} (mpmath {mp.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
