#!/usr/bin/env python3
"""Reference values for the attacker's view of a guarantee (math/src/risk.rs), from mpmath at 40
significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:
    python3 tools/reference/risk.py
Writes math/tests/data/risk.csv, read by math/tests/risk.rs.

Every value is computed from the hypothesis test itself, not from the hockey-stick formulas the
Rust side uses:
  quantile   p -> the standard normal quantile, by mp.findroot on log mp.ncdf.
  gdp        mu, fpr -> TPR of the likelihood-ratio (threshold) test between N(0, 1) (negative) and
             N(mu, 1) (positive) at that FPR: threshold t = Phi^-1(1 - fpr), TPR = 1 - Phi(t - mu).
  rr         eps, k (outputs), steps, fpr -> TPR of the optimal test between `steps` independent
             runs of k-ary randomized response on two inputs: the likelihood ratio of one output
             is e^eps, 1 or e^-eps; the outputs of a run are grouped by their total log ratio
             eps*(a - b) (a outputs favouring the positive input, b the negative), with
             multinomial probabilities under both inputs; the test accepts groups in decreasing
             ratio and randomises on the last one (the Neyman-Pearson test).
  epsdelta   eps, delta, fpr -> TPR of the best test against the canonical (eps, delta) pair of
             Kairouz, Oh & Viswanath (four outputs: probabilities (delta, (1-delta) e^eps/(1+e^eps),
             (1-delta)/(1+e^eps), 0) and the reverse), again by Neyman-Pearson.
  bayes      mu, prior -> the largest probability of guessing right between N(mu, 1) (prior) and
             N(0, 1) (1 - prior), maximised over the threshold t by mp.findroot on the derivative
             (not the hockey-stick formula), or guessing the likelier one outright.
  clt        q, sigma, steps -> q sqrt(steps (e^{1/sigma^2} - 1)).
Columns: kind, a, b, c, d, value (a..d the inputs of the kind, in the order above; empty if
unused). Inputs are the shortest decimal that round-trips the double.
"""
import csv
import os

import mpmath as mp

mp.mp.dps = 40
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "risk.csv")


def phi(x):
    return mp.ncdf(x)


def quantile(p):
    # Lower half: solve log Phi(z) = log p (erfinv(2p - 1) loses p below 1e-40 at 40 digits);
    # upper half by symmetry, 1 - p exact in mpmath.
    p = mp.mpf(p)
    if p > 0.5:
        return -quantile(1 - p)
    start = -mp.sqrt(-2 * mp.log(p)) + 0.5
    return mp.findroot(lambda z: mp.log(mp.ncdf(z)) - mp.log(p), start)


def neyman_pearson(groups, fpr):
    """groups: list of (P mass, Q mass). TPR at FPR of the most powerful (randomised) test."""
    fpr = mp.mpf(fpr)
    # Decreasing likelihood ratio; groups with Q mass 0 first (infinite ratio).
    def ratio(g):
        return mp.inf if g[1] == 0 else g[0] / g[1]
    groups = sorted(groups, key=ratio, reverse=True)
    tpr, used = mp.mpf(0), mp.mpf(0)
    for p, q in groups:
        if used + q <= fpr:
            tpr += p
            used += q
        else:
            tpr += p * (fpr - used) / q
            return tpr
    return tpr


def rr_groups(eps, k, steps):
    eps = mp.mpf(eps)
    den = mp.exp(eps) + k - 1
    pp = [mp.exp(eps) / den, 1 / den, (k - 2) / den]  # favouring positive, negative, neutral
    qq = [1 / den, mp.exp(eps) / den, (k - 2) / den]
    groups = {}
    for a in range(steps + 1):
        for b in range(steps + 1 - a):
            c = steps - a - b
            if k == 2 and c > 0:
                continue
            m = mp.factorial(steps) / (mp.factorial(a) * mp.factorial(b) * mp.factorial(c))
            p = m * pp[0] ** a * pp[1] ** b * pp[2] ** c
            q = m * qq[0] ** a * qq[1] ** b * qq[2] ** c
            key = a - b
            g = groups.setdefault(key, [mp.mpf(0), mp.mpf(0)])
            g[0] += p
            g[1] += q
    return [tuple(g) for g in groups.values()]


def epsdelta_groups(eps, delta):
    eps, delta = mp.mpf(eps), mp.mpf(delta)
    e = mp.exp(eps)
    p = [delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), mp.mpf(0)]
    q = [mp.mpf(0), (1 - delta) / (1 + e), (1 - delta) * e / (1 + e), delta]
    return list(zip(p, q))


def gdp(mu, fpr):
    t = quantile(1 - mp.mpf(fpr))
    return 1 - phi(t - mp.mpf(mu))


def bayes(mu, prior):
    mu, prior = mp.mpf(mu), mp.mpf(prior)

    def success(t):
        return prior * (1 - phi(t - mu)) + (1 - prior) * phi(t)

    # The derivative of success(t) vanishes where prior * pdf(t - mu) = (1 - prior) * pdf(t); in
    # logarithms both sides are quadratic in t and the root is unique. Found by the root finder
    # from a generic start, not by formula.
    def log_slope(t):
        return mp.log(prior) - (t - mu) ** 2 / 2 - mp.log(1 - prior) + t**2 / 2

    t = mp.findroot(log_slope, (mp.mpf(-1), mp.mpf(1)), solver="secant")
    return max(success(t), prior, 1 - prior)


def fmt(v):
    return mp.nstr(v, 20, min_fixed=-30, max_fixed=30)


def main():
    rows = []
    for p in [1e-300, 1e-100, 1e-20, 1e-8, 0.001, 0.01, 0.025, 0.1, 0.3, 0.5, 0.7, 0.9, 0.975, 0.999, 1 - 1e-10]:
        rows.append(("quantile", repr(p), "", "", "", fmt(quantile(p))))
    for mu in [0.1, 0.5, 1.0, 2.0, 4.0]:
        for a in [1e-6, 0.001, 0.01, 0.1, 0.5, 0.9]:
            rows.append(("gdp", repr(mu), repr(a), "", "", fmt(gdp(mu, a))))
    # k Gaussian releases without sampling are exactly (sqrt(k)/sigma)-GDP: the TPR the PLD band
    # of the whole run must contain (math/tests/risk.rs, gaussian_run_band_is_narrow_...).
    for sigma, steps in [(10.0, 1000), (2.0, 50), (1.0, 10)]:
        for a in [1e-6, 0.001, 0.01]:
            mu = mp.sqrt(steps) / mp.mpf(sigma)
            rows.append(("gdprun", repr(sigma), str(steps), repr(a), "", fmt(gdp(mu, a))))
    for eps, k, steps in [(1.0, 2, 1), (0.5, 2, 10), (2.0, 2, 3), (1.0, 3, 1), (1.0, 5, 4), (0.25, 4, 12)]:
        groups = rr_groups(eps, k, steps)
        for a in [1e-4, 0.001, 0.01, 0.05, 0.1, 0.3, 0.5, 0.8]:
            rows.append(("rr", repr(eps), str(k), str(steps), repr(a), fmt(neyman_pearson(groups, a))))
    for eps, delta in [(0.5, 1e-5), (1.0, 1e-3), (3.0, 1e-6), (8.0, 1e-5), (0.0, 0.1)]:
        groups = epsdelta_groups(eps, delta)
        for a in [0.0, 1e-4, 0.01, 0.1, 0.5, 0.9]:
            rows.append(("epsdelta", repr(eps), repr(delta), repr(a), "", fmt(neyman_pearson(groups, a))))
    for mu in [0.2, 1.0, 3.0]:
        for prior in [0.01, 0.1, 0.5, 0.7, 0.99]:
            rows.append(("bayes", repr(mu), repr(prior), "", "", fmt(bayes(mu, prior))))
    for q, sigma, steps in [(0.01, 1.0, 1000), (0.004, 0.6, 10000), (1.0, 2.0, 1), (0.1, 5.0, 100)]:
        q, s = mp.mpf(q), mp.mpf(sigma)
        rows.append(("clt", repr(float(q)), repr(sigma), str(steps), "", fmt(q * mp.sqrt(steps * mp.expm1(1 / s**2)))))
    with open(OUT, "w") as f:
        f.write("# generated by tools/reference/risk.py (mpmath %s, 40 digits); do not edit\n" % mp.__version__)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kind", "a", "b", "c", "d", "value"])
        w.writerows(rows)
    print("wrote %d rows to %s" % (len(rows), os.path.normpath(OUT)))


if __name__ == "__main__":
    main()
