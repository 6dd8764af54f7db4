#!/usr/bin/env python3
"""Reference values for a user with R records under Poisson sampling (math/src/pld/group.rs),
from mpmath at 40 significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:
    python3 tools/reference/users.py
Writes math/tests/data/users.csv, read by math/tests/users.rs.

One step of the Gaussian mechanism (noise sigma, sensitivity 1 per record) on a Poisson sample at
rate q of a user's R records: the number K of the user's records in the sample is Binomial(R, q),
and the pair is P = sum_k w_k N(k, sigma^2) (the user present), Q = N(0, sigma^2) (absent). The
loss L(x) = log(sum_k w_k exp((2 k x - k^2) / (2 sigma^2))) is increasing in x, so for each
direction the hockey-stick divergence is a difference of tails at the root of L(x) = +-eps:

  remove  delta = P(X > x_e) - e^eps Q(X > x_e),    L(x_e) = eps
  add     delta = Q(X < x_m) - e^eps P(X < x_m),    L(x_m) = -eps  (0 when -eps <= log w_0)

computed with mpmath's normal distribution function (mp.ncdf) and the roots by mp.findroot on
L(x) - target, bracketed by bisection first (anything else in the file is arithmetic).
Columns: sigma, q, records, eps, delta_remove, delta_add.
"""
import csv
import os

import mpmath as mp

mp.mp.dps = 40
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "users.csv")

CASES = [
    (sigma, q, r, eps)
    for sigma in ("0.8", "1", "2")
    for q in ("0.01", "0.1", "0.5")
    for r in (2, 3, 8)
    for eps in ("0.1", "1", "3")
]


def weights(q, r):
    return [mp.binomial(r, k) * q**k * (1 - q) ** (r - k) for k in range(r + 1)]


def loss(x, sigma, w):
    return mp.log(mp.fsum(wk * mp.exp((2 * k * x - k * k) / (2 * sigma**2)) for k, wk in enumerate(w)))


def root(target, sigma, w):
    lo, hi = mp.mpf(-1), mp.mpf(1)
    while loss(lo, sigma, w) > target:
        lo *= 2
    while loss(hi, sigma, w) < target:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if loss(mid, sigma, w) < target:
            lo = mid
        else:
            hi = mid
    return mp.findroot(lambda x: loss(x, sigma, w) - target, (lo + hi) / 2)


def deltas(sigma, q, r, eps):
    w = weights(q, r)
    upper_p = lambda x: mp.fsum(wk * mp.ncdf((k - x) / sigma) for k, wk in enumerate(w))
    lower_p = lambda x: mp.fsum(wk * mp.ncdf((x - k) / sigma) for k, wk in enumerate(w))
    xe = root(eps, sigma, w)
    remove = upper_p(xe) - mp.exp(eps) * mp.ncdf(-xe / sigma)
    if -eps <= mp.log(w[0]):
        add = mp.mpf(0)
    else:
        xm = root(-eps, sigma, w)
        add = mp.ncdf(xm / sigma) - mp.exp(eps) * lower_p(xm)
    return remove, add


def main():
    with open(OUT, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["sigma", "q", "records", "eps", "delta_remove", "delta_add"])
        for sigma, q, r, eps in CASES:
            rem, add = deltas(mp.mpf(sigma), mp.mpf(q), r, mp.mpf(eps))
            out.writerow([sigma, q, r, eps, mp.nstr(rem, 20, strip_zeros=False), mp.nstr(add, 20, strip_zeros=False)])
    print(f"wrote {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
