#!/usr/bin/env python3
"""Reference values for the one-run privacy audit (math/src/audit.rs), from mpmath at 40
significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:
    python3 tools/reference/audit.py
Writes math/tests/data/audit.csv, read by math/tests/audit.rs.

Steinke, Nasr & Jagielski (2023): m canaries, r guesses, v right; under (eps, delta)-DP the
chance of v or more right guesses is at most
    p = P[B >= v] + 2 m delta max_{1 <= i <= v} P[v - i <= B < v] / i,   B ~ Binomial(r, q),
    q = e^eps / (1 + e^eps),
clamped at 1. Here every sum is taken in full (no term left out), with mp.binomial for the
coefficients; the app cuts its sums where the rest cannot matter and bounds the rest.

Rows of kind 'p': m, r, v, eps, delta -> p.
Rows of kind 'eps': m, r, v, delta, confidence -> the certified lower bound: the first eps at
which p reaches 1 - confidence, on the grid e_{k+1} = e_k + 0.005 (e_k + 0.2) from 0, then
bisection (60 halvings) within the last step; 0 when eps = 0 is not rejected.
Columns: kind, m, r, v, eps_or_delta..., see the header line.
"""
import os

import mpmath as mp

mp.mp.dps = 40
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "audit.csv")


def pmfs(r, q):
    return [mp.binomial(r, k) * q**k * (1 - q) ** (r - k) for k in range(r + 1)]


def p_value(m, r, v, eps, delta):
    q = mp.e**eps / (1 + mp.e**eps)
    pm = pmfs(r, q)
    tail = mp.fsum(pm[v:])
    best = mp.mpf(0)
    s = mp.mpf(0)
    for i in range(1, v + 1):
        s += pm[v - i]
        best = max(best, s / i)
    return min(tail + 2 * m * delta * best, mp.mpf(1))


def certified(m, r, v, delta, confidence):
    level = 1 - confidence
    rejects = lambda e: p_value(m, r, v, e, delta) < level
    if not rejects(mp.mpf(0)):
        return mp.mpf(0)
    lo = mp.mpf(0)
    while True:
        nxt = lo + mp.mpf("0.005") * (lo + mp.mpf("0.2"))
        if not rejects(nxt):
            hi = nxt
            break
        lo = nxt
    for _ in range(60):
        mid = (lo + hi) / 2
        if rejects(mid):
            lo = mid
        else:
            hi = mid
    return lo


P_CASES = [
    (m, r, v, eps, delta)
    for m in (100, 10_000, 1_000_000)
    for (r, v) in ((100, 80), (100, 100), (1000, 700), (1000, 950), (10_000, 7_000))
    for eps in ("0.5", "1", "2")
    for delta in ("0", "1e-5")
    if r <= m
]
EPS_CASES = [
    (1000, 1000, 1000, "0", "0.95"),
    (1000, 1000, 1000, "1e-5", "0.95"),
    (1_000_000, 1000, 1000, "1e-5", "0.95"),
    (1_000_000, 1000, 900, "1e-6", "0.95"),
    (10_000, 500, 400, "1e-5", "0.99"),
    (100, 50, 45, "0", "0.9"),
]


def main():
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("kind,m,r,v,eps,delta,confidence,value\n")
        for m, r, v, eps, delta in P_CASES:
            p = p_value(m, r, v, mp.mpf(eps), mp.mpf(delta))
            f.write(f"p,{m},{r},{v},{eps},{delta},,{mp.nstr(p, 20)}\n")
        for m, r, v, delta, conf in EPS_CASES:
            e = certified(m, r, v, mp.mpf(delta), mp.mpf(conf))
            f.write(f"eps,{m},{r},{v},,{delta},{conf},{mp.nstr(e, 20)}\n")
    print(f"wrote {len(P_CASES) + len(EPS_CASES)} rows to {OUT}")


if __name__ == "__main__":
    main()
