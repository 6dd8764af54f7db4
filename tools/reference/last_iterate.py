#!/usr/bin/env python3
"""Reference values for the last iterate of noisy gradient descent over many passes on a bounded
set (math/src/iteration/many_passes.rs), computed without the Rust code's shortcuts.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:  python3 tools/reference/last_iterate.py
Writes math/tests/data/last_iterate.csv, read by math/tests/many_passes.rs.

Columns: kind, n, b, steps, diameter, sigma, eta, lipschitz, alpha, expected, other, one_step.

- kind = full: alpha/(2 eta^2 sigma^2) * min over every window 1 <= R <= T of
  (min(D, (T - R) s) + R s)^2 / R, s = 2 eta L / n, in exact rational arithmetic (fractions), every
  window tried for T <= 20000; beyond, the function is (D + R s)^2/R (convex, least at R = D/s) for
  R <= T - D/s and (T s)^2/R (decreasing) after, so the windows floor/ceil of D/s and of T - D/s, 1
  and T are the only candidates. other = the plateau 4 alpha D L/(n eta sigma^2) and expected equals
  it past the burn-in 2 D n/(eta L).
- kind = cyclic: the same chain for batches of b records in a fixed order (k = n/b steps per epoch),
  by brute force: for every position of the record in the epoch and every window, the greatest
  convex minorant of the shift budget z + S_t (z = min(D, s * uses before the window)) found by a
  generic lower hull over all R + 1 points, its cost sum (dy)^2/dx; the maximum over positions of
  the minimum over windows, times alpha/(2 eta^2 sigma^2). other = the position that is worst
  (0: the record used at the run's last step).
- kind = poisson: min{T Q(sigma), min over lambda = i/32 (i = 1..31) and integer 1 <= R <= T - 1 of
  R Q(sigma sqrt(1 - lambda)) + alpha D^2/(2 eta^2 lambda sigma^2 R)} (the function of R is convex:
  floor and ceil of its real minimiser), Q the Renyi divergence at integer order alpha of
  (1 - q) N(0, v^2) + q N(1, v^2) from N(0, v^2), v = the noise multiplier b sigma'/(2L), q = b/n, by
  mpmath quadrature of the defining integral at 30 digits (not the binomial sum). other = the other
  direction, D_alpha(N(0) || mixture), at sigma, by quadrature, and one_step the first direction at
  sigma (one step's Q): the test checks that the other direction is the smaller.
  steps = 0 stands for the plateau (T -> infinity).
"""
import csv
import math
import os
from fractions import Fraction as F

import mpmath as mp

mp.mp.dps = 30
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "last_iterate.csv")


def full_cost(T, d):
    """min over windows of (min(d, T - R) + R)^2 / R, in units of s^2 (d = D/s, a Fraction)."""
    def cost(R):
        z = min(d, F(T - R))
        return (z + R) ** 2 / R
    if T <= 20000:
        return min(cost(R) for R in range(1, T + 1))
    cands = {1, T}
    for x in (d, T - d):
        for r in (math.floor(x), math.ceil(x)):
            if 1 <= r <= T:
                cands.add(r)
    return min(cost(R) for R in cands)


def lower_hull_cost(points):
    """sum of dy^2/dx over the greatest convex minorant of points (x increasing)."""
    hull = []
    for p in points:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            # drop the middle point when it lies on or above the chord from hull[-2] to p
            if (y2 - y1) * (p[0] - x1) >= (p[1] - y1) * (x2 - x1):
                hull.pop()
            else:
                break
        hull.append(p)
    return sum((y2 - y1) ** 2 / F(x2 - x1) for (x1, y1), (x2, y2) in zip(hull, hull[1:]))


def cyclic_cost(T, k, d):
    """max over positions of min over windows of the hull cost, units of s^2; and the worst position."""
    worst, worst_o = None, None
    for o in range(k):
        use_steps = [t for t in range(1, T + 1) if (T - o - t) % k == 0 and t <= T - o]
        best = None
        for R in range(1, T + 1):
            tau = T - R
            before = sum(1 for t in use_steps if t <= tau)
            z = min(d, F(before))
            uses = set(use_steps)
            # the prefix sums A_t of the shifts must stay at or below B_t = z + (uses in the window
            # up to step t) and end at B_R; A_0 = 0
            pts = [(0, F(0))]
            cum = z
            for t in range(1, R + 1):
                if (tau + t) in uses:
                    cum += 1
                pts.append((t, cum))
            c = lower_hull_cost(pts)
            best = c if best is None or c < best else best
        if worst is None or best > worst:
            worst, worst_o = best, o
    return worst, worst_o


def q_mixture(v, q, alpha):
    """D_alpha((1-q)N(0,v^2) + qN(1,v^2) || N(0,v^2)) and the reverse, by quadrature."""
    v, q = mp.mpf(v), mp.mpf(q)
    def p0(x):
        return mp.npdf(x, 0, v)
    def mix(x):
        return (1 - q) * mp.npdf(x, 0, v) + q * mp.npdf(x, 1, v)
    lim = [-mp.inf, -10 * v, -v, 0, mp.mpf(1) / 2, 1, 1 + v, 1 + 10 * v, mp.inf]
    fwd = mp.quad(lambda x: p0(x) * (mix(x) / p0(x)) ** alpha, lim)
    rev = mp.quad(lambda x: mix(x) * (p0(x) / mix(x)) ** alpha, lim)
    return mp.log(fwd) / (alpha - 1), mp.log(rev) / (alpha - 1)


def poisson_bound(n, b, T, D, sigma, eta, L, alpha):
    q = mp.mpf(b) / n
    nu = lambda s: mp.mpf(b) * s / (2 * L)
    whole, rev = q_mixture(nu(sigma), q, alpha)
    one = whole
    best = mp.inf if T == 0 else T * whole
    top = mp.inf if T == 0 else T - 1
    if top >= 1:
        for i in range(1, 32):
            lam = mp.mpf(i) / 32
            Q = q_mixture(nu(sigma * mp.sqrt(1 - lam)), q, alpha)[0]
            Fv = alpha * mp.mpf(D) ** 2 / (2 * mp.mpf(eta) ** 2 * lam * mp.mpf(sigma) ** 2)
            star = mp.sqrt(Fv / Q)
            for r in (mp.floor(star), mp.ceil(star)):
                r = min(max(r, 1), top)
                best = min(best, r * Q + Fv / r)
    return best, rev, one


def fr(x):
    return F(str(x))


def main():
    rows = []
    # Full batch: the check (n = 1000, L = D = 1, eta = 0.1, sigma = 1, alpha = 2) and more.
    for (n, D, sigma, eta, alpha) in [(1000, 1, 1, 0.1, 2), (60000, 2, 5, 0.05, 8), (100, 0.5, 2, 1, 32)]:
        s = 2 * fr(eta) / n
        d = fr(D) / s
        burn = int(4 * d)
        for T in sorted({1, 2, 10, 100, burn // 4, burn // 2, burn - 1, burn, burn + 1, 2 * burn, 10 * burn, 10**9}):
            if T < 1:
                continue
            c = full_cost(T, d)
            coef = fr(alpha) / (2 * fr(eta) ** 2 * fr(sigma) ** 2) * s * s
            plateau = 4 * fr(alpha) * fr(D) / (n * fr(eta) * fr(sigma) ** 2)
            rows.append(("full", n, n, T, D, sigma, eta, 1, alpha,
                         mp.nstr(mp.mpf(c.numerator) / c.denominator * mp.mpf(coef.numerator) / coef.denominator, 25),
                         mp.nstr(mp.mpf(plateau.numerator) / plateau.denominator, 25), ""))
    # Cyclic: brute force over positions and windows.
    for (n, b, D, eta, T) in [(12, 3, 0.3, 0.5, 40), (20, 4, 1, 0.25, 90), (10, 2, 2, 1, 60), (8, 8, 1, 0.5, 30)]:
        s = 2 * fr(eta) / b
        d = fr(D) / s
        k = n // b
        c, o = cyclic_cost(T, k, d)
        sigma, alpha = 1, 2
        coef = fr(alpha) / (2 * fr(eta) ** 2 * fr(sigma) ** 2) * s * s
        v = c * coef
        rows.append(("cyclic", n, b, T, D, sigma, eta, 1, alpha,
                     mp.nstr(mp.mpf(v.numerator) / v.denominator, 25), o, ""))
    # Poisson: the proof form, and b = n against the full batch.
    for (n, b, D, sigma, eta, T, alpha) in [
        (1000, 10, 1, 1, 0.1, 10000, 2), (1000, 10, 1, 1, 0.1, 0, 2), (1000, 10, 1, 1, 0.1, 100, 4),
        (60000, 256, 1, 1.1, 0.1, 5000, 8), (60000, 256, 1, 1.1, 0.1, 0, 8),
        (1000, 1000, 1, 1, 0.1, 0, 2), (500, 50, 3, 2, 0.5, 2000, 16),
    ]:
        v, rev, one = poisson_bound(n, b, T, D, sigma, eta, 1, alpha)
        rows.append(("poisson", n, b, T, D, sigma, eta, 1, alpha, mp.nstr(v, 25), mp.nstr(rev, 25), mp.nstr(one, 25)))
    with open(OUT, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kind", "n", "b", "steps", "diameter", "sigma", "eta", "lipschitz", "alpha", "expected", "other", "one_step"])
        w.writerows(rows)
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
