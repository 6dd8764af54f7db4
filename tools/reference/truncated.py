#!/usr/bin/env python3
"""Reference values for Poisson batches capped at M records (math/src/pld/truncated.rs), from
mpmath at 40 significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:
    python3 tools/reference/truncated.py
Writes math/tests/data/truncated.csv, read by math/tests/truncated.rs.

One step: each of N records joins the batch with probability q; if more than M joined, a uniform
M of them are kept; Gaussian noise sigma is added to the sum of the kept records' values. K is the
number of the N - 1 other records that join, Binomial(N - 1, q).

  t      = P(K >= M), summed term by term;
  q_cond = q * sum_{k >= M} P(K = k) * M / (k + 1) / t   (the record kept, given K >= M), summed
           directly (the Rust code uses the identity that turns this into a binomial tail).

For each dataset "every other value -c, the record's +1" (c = 0, 1/4, 1/2, 3/4, 1) the two laws of
the output are mixtures of N(mu, sigma^2); shifted by cM, the means are
  without the record:  c (M - min(K, M));
  with it:             the same if the record is not drawn, or drawn and dropped (K >= M);
                       1 + c (M - K) if drawn and K < M;  1 + c if drawn, K >= M and kept.
The hockey-stick divergence delta(eps) = integral of (P - e^eps Q)_+ is the sum, over the intervals
where P's density exceeds e^eps times Q's, of P(interval) - e^eps Q(interval), each a sum of
mp.ncdf differences; the interval ends are the sign changes of the density difference, found on a
grid of step sigma/16 over the means +- 14 sigma and refined by bisection to 1e-25 (anything else
is arithmetic). remove: P with the record, Q without; add: the reverse.
Columns: n, q, m, sigma, t, q_cond, c, eps, delta_remove, delta_add.
"""
import csv
import os

import mpmath as mp

mp.mp.dps = 30
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "truncated.csv")

# (N, q, M, sigma): the cap far below, near and above the expected batch.
SETTINGS = [
    (40, "0.25", 6, "1"),
    (40, "0.25", 10, "1"),
    (40, "0.25", 14, "0.8"),
    (120, "0.05", 8, "2"),
]
CS = ["0", "0.25", "0.5", "0.75", "1"]
EPS = ["0.1", "0.5", "2"]


def pmf(n, q, k):
    return mp.binomial(n, k) * q**k * (1 - q) ** (n - k)


def laws(n, q, m, c):
    """The (mean, weight) components of P (with the record) and Q (without)."""
    p_comp, q_comp = {}, {}

    def add(d, mu, w):
        d[mu] = d.get(mu, mp.mpf(0)) + w

    for k in range(n):  # K = k others, 0 <= k <= n - 1
        w = pmf(n - 1, q, k)
        base = c * (m - min(k, m))
        add(q_comp, base, w)
        add(p_comp, base, (1 - q) * w)
        if k < m:
            add(p_comp, 1 + c * (m - k), q * w)
        else:
            kept = mp.mpf(m) / (k + 1)
            add(p_comp, 1 + c, q * w * kept)
            add(p_comp, base, q * w * (1 - kept))
    return list(p_comp.items()), list(q_comp.items())


def density(comps, x, sigma):
    return mp.fsum(w * mp.npdf(x, mu, sigma) for mu, w in comps)


def mass(comps, a, b, sigma):
    def cdf(x, mu):
        if x == mp.inf:
            return mp.mpf(1)
        if x == -mp.inf:
            return mp.mpf(0)
        return mp.ncdf((x - mu) / sigma)

    return mp.fsum(w * (cdf(b, mu) - cdf(a, mu)) for mu, w in comps)


def delta(pc, qc, eps, sigma):
    factor = mp.e**eps
    f = lambda x: density(pc, x, sigma) - factor * density(qc, x, sigma)
    mus = [mu for mu, _ in pc + qc]
    lo, hi = min(mus) - 14 * sigma, max(mus) + 14 * sigma
    h = sigma / 16
    xs = [lo + i * h for i in range(int((hi - lo) / h) + 2)]
    signs = [f(x) > 0 for x in xs]
    cuts = []
    for i in range(len(xs) - 1):
        if signs[i] != signs[i + 1]:
            a, b = xs[i], xs[i + 1]
            for _ in range(90):
                mid = (a + b) / 2
                if (f(mid) > 0) == signs[i]:
                    a = mid
                else:
                    b = mid
            cuts.append((a + b) / 2)
    edges = [-mp.inf] + cuts + [mp.inf]
    total = mp.mpf(0)
    # The sign on each interval: the left end's sign, then alternating at each cut.
    positive = signs[0]
    for a, b in zip(edges, edges[1:]):
        if positive:
            total += mass(pc, a, b, sigma) - factor * mass(qc, a, b, sigma)
        positive = not positive
    return max(total, mp.mpf(0))


def main():
    rows = []
    for n, q, m, sigma in SETTINGS:
        q, sigma = mp.mpf(q), mp.mpf(sigma)
        t = mp.fsum(pmf(n - 1, q, k) for k in range(m, n))
        kept = mp.fsum(pmf(n - 1, q, k) * mp.mpf(m) / (k + 1) for k in range(m, n))
        q_cond = q * kept / t
        for c in CS:
            pc, qc = laws(n, q, m, mp.mpf(c))
            for eps in EPS:
                e = mp.mpf(eps)
                rows.append([
                    n, mp.nstr(q, 17), m, mp.nstr(sigma, 17), mp.nstr(t, 20), mp.nstr(q_cond, 20),
                    c, eps, mp.nstr(delta(pc, qc, e, sigma), 20), mp.nstr(delta(qc, pc, e, sigma), 20),
                ])
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["n", "q", "m", "sigma", "t", "q_cond", "c", "eps", "delta_remove", "delta_add"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
