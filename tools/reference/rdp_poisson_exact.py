#!/usr/bin/env python3
"""Reference values for the exact Renyi DP of Poisson-subsampled Laplace and randomized response
(math/src/rdp/poisson_laplace_rr.rs), from mpmath at 40 significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:
    python3 tools/reference/rdp_poisson_exact.py
Writes math/tests/data/rdp_poisson_exact.csv, read by math/tests/rdp_poisson_exact.rs.

Add/remove neighbours, Poisson sampling at rate q. With P the output distribution of the base
mechanism without the record and Q with it (the pair at full sensitivity), the mechanism on the
larger dataset outputs the mixture M = (1 - q) P + q Q. The two directions of the Renyi divergence
are computed here straight from their definitions, independently of the Rust side (which writes
both as expectations under P of a power of (1 - q) + q Q/P and integrates only over [0, 1]):
  remove  eps_r(alpha) = log( integral M^alpha P^(1 - alpha) ) / (alpha - 1)
  add     eps_a(alpha) = log( integral P^alpha M^(1 - alpha) ) / (alpha - 1)
Laplace (scale b): P = Lap(0, b), Q = Lap(1, b), densities e^{-|x - mu|/b}/(2b); the integrals over
the real line by mp.quad split at the kinks 0 and 1, each also recomputed at 30 digits with one
more split point and kept only if the two agree within 1e-15 relative. Binary (k = 2) and k-ary
randomized response at eps: P keeps input 0 with probability e^eps/(e^eps + k - 1), Q keeps input 1;
the integrals are finite sums.

Also checked (stderr, not written): for Laplace, both directions are increasing in the shift of Q
(0.25, 0.5, 0.75, 1 at alpha = 2 and 8), so the pair at full sensitivity is the worst pair.

Columns: mech, param, param2, rate, alpha, remove, add (eps values; param = b or eps; param2 = k).
Inputs are the shortest decimal that round-trips the double; the oracle starts from that value.
"""
import csv
import os
import sys

import mpmath as mp

mp.mp.dps = 40
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "rdp_poisson_exact.csv")


def laplace_pdf(x, mu, b):
    return mp.exp(-abs(x - mu) / b) / (2 * b)


def laplace_divergences(b, q, alpha, shift=1, extra=None):
    """(remove, add) moments for the Laplace pair (Lap(0, b), Lap(shift, b))."""
    b, q, a, shift = mp.mpf(b), mp.mpf(q), mp.mpf(alpha), mp.mpf(shift)

    def m(x):
        return (1 - q) * laplace_pdf(x, 0, b) + q * laplace_pdf(x, shift, b)

    points = [-mp.inf, 0, shift, mp.inf]
    if extra is not None:
        points = sorted(set(points + [mp.mpf(extra)]))
    remove = mp.quad(lambda x: m(x) ** a * laplace_pdf(x, 0, b) ** (1 - a), points)
    add = mp.quad(lambda x: laplace_pdf(x, 0, b) ** a * m(x) ** (1 - a), points)
    return remove, add


def laplace(b, q, alpha):
    r1, a1 = laplace_divergences(b, q, alpha)
    with mp.workdps(30):
        r2, a2 = laplace_divergences(b, q, alpha, extra=0.5)
    for x, y, what in ((r1, r2, "remove"), (a1, a2, "add")):
        if abs(x - y) > mp.mpf("1e-15") * abs(x - 1) + mp.mpf("1e-28"):
            print(f"laplace b={b} q={q} alpha={alpha}: {what} disagrees: {x} vs {y}", file=sys.stderr)
            return None
    al = mp.mpf(alpha)
    return mp.log(r1) / (al - 1), mp.log(a1) / (al - 1)


def rr(eps, k, q, alpha):
    e = mp.exp(mp.mpf(eps))
    keep, other = e / (e + k - 1), 1 / (e + k - 1)
    p = [keep] + [other] * (k - 1)
    qq = [other, keep] + [other] * (k - 2)
    qm = mp.mpf(q)
    m = [(1 - qm) * pi + qm * qi for pi, qi in zip(p, qq)]
    a = mp.mpf(alpha)
    remove = mp.fsum(mi**a * pi ** (1 - a) for mi, pi in zip(m, p))
    add = mp.fsum(pi**a * mi ** (1 - a) for mi, pi in zip(m, p))
    return mp.log(remove) / (a - 1), mp.log(add) / (a - 1)


def check_worst_shift():
    for b, q in ((0.5, 0.01), (2.0, 0.1)):
        for alpha in (2, 8):
            last = (mp.mpf(0), mp.mpf(0))
            for shift in (0.25, 0.5, 0.75, 1.0):
                r, a = laplace_divergences(b, q, alpha, shift)
                if not (r > last[0] and a > last[1]):
                    print(f"not increasing in the shift: b={b} q={q} alpha={alpha}", file=sys.stderr)
                last = (r, a)
    print("checked: Laplace divergences increase with the shift up to the sensitivity", file=sys.stderr)


def main():
    check_worst_shift()
    rows = []
    alphas = [1.5, 2.0, 3.7, 8.0, 32.0, 100.0]
    for b in (0.5, 1.0, 2.0, 5.0):
        for q in (0.001, 0.01, 0.1, 0.5):
            for alpha in alphas:
                v = laplace(b, q, alpha)
                if v is not None:
                    rows.append(("laplace", repr(b), "", repr(q), repr(alpha), v[0], v[1]))
    for eps in (0.5, 2.0):
        for q in (0.001, 0.01, 0.1, 0.5):
            for alpha in alphas:
                rows.append(("rr", repr(eps), "2", repr(q), repr(alpha), *rr(eps, 2, q, alpha)))
    for eps, k in ((1.0, 4), (3.0, 10)):
        for q in (0.01, 0.1):
            for alpha in alphas:
                rows.append(("kary", repr(eps), str(k), repr(q), repr(alpha), *rr(eps, k, q, alpha)))
    with open(OUT, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["mech", "param", "param2", "rate", "alpha", "remove", "add"])
        for r in rows:
            w.writerow(list(r[:5]) + [mp.nstr(r[5], 20, min_fixed=-30, max_fixed=30), mp.nstr(r[6], 20, min_fixed=-30, max_fixed=30)])
    print(f"wrote {len(rows)} rows to {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
