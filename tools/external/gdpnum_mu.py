#!/usr/bin/env python3
"""External reference: the numeric Gaussian-DP mu of DP-SGD and its worst-case regret (Gomez et
al. 2025, "Gaussian DP for reporting differential privacy guarantees in machine learning", arXiv
2503.10945), two ways from Google's dp_accounting PLD:

1. gdpnum, the paper's library: gdpnum.dpsgd.get_mu_and_regret_for_dpsgd(noise_multiplier sigma,
   sample_rate q, num_steps, grid_step 1e-4, err 1e-10). It builds the "connect the dots" PLD,
   turns it into a piecewise-linear trade-off curve, makes it symmetric, and takes mu as the
   largest Phi^-1(1 - alpha) + Phi^-1(1 - beta) over the breakpoints with both error rates in
   (1e-10, 1 - 1e-10) and beta <= 1 - alpha; the regret is the least Delta with
   f(alpha + Delta) - Delta <= G_mu(alpha) on 10,000 points of [0, 1].
2. Independently of gdpnum's curve construction: from the same PLD's hockey-stick profile of each
   direction (dp_accounting's get_delta_for_epsilon on _pmf_remove and _pmf_add, on a grid of
   epsilon from -10 to 40 in steps of 0.0025), the TPR bound of each orientation of the pair,
   TPR(alpha) = min over epsilon of delta_1(eps) + e^eps alpha and 1 - e^-eps (1 - alpha -
   delta_2(eps)), on 3,000 log-spaced alpha from 1e-10 up to where the curve meets beta = alpha;
   mu is the largest Phi^-1(TPR) - Phi^-1(alpha) over both orientations, and the regret is
   computed on the symmetric curve 1 - max(TPR_1, TPR_2) by bisection as in 1.

The second is the reference for our numbers. The first is recorded because it is what users run;
the column `gdpnum_valid` says whether gdpnum's own symmetric curve stays on or below the
diagonal (TPR >= FPR at every breakpoint with both rates above 1e-10). With dp-accounting 0.6.0
it does not under Poisson sampling: below alpha ~ 1e-4 its curve gives TPR < FPR, those
breakpoints fail its own mask, and its mu is then read from alpha >= 1e-4 only (too small).

Not part of the build or of scripts/test.sh; see tools/external/README.md. Needs gdpnum (which
brings dp-accounting) and scipy.

    python3 tools/external/gdpnum_mu.py       # all cases -> the CSV

Writes math/tests/data/gdpnum_mu.csv: '#' comment lines (generator, versions, date), then
sigma,q,steps,gdpnum_mu,gdpnum_regret,gdpnum_valid,mu,regret,seconds (to 12 significant digits).
"""

import datetime
import os
import platform
import time
from importlib import metadata

import numpy as np
from scipy.stats import norm
from dp_accounting.pld.privacy_loss_distribution import from_gaussian_mechanism
from gdpnum.converter import PLDConverter

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "math", "tests", "data", "gdpnum_mu.csv")
FLOOR = 1e-10

# (sigma, q, steps): DP-SGD settings from small to large mu, and no sampling (mu = sqrt(k)/sigma).
CASES = [
    (1.0, 0.01, 1000),
    (0.8, 0.004, 10000),
    (2.0, 0.1, 100),
    (1.5, 0.02, 500),
    (1.0, 0.001, 10000),
    (0.7, 0.01, 300),
    (3.0, 0.05, 2000),
    (10.0, 1.0, 1000),
    (5.0, 1.0, 10),
]


def tpr_bound(alphas, eps, d1, d2):
    """min over eps of both line families, for each alpha (chunked)."""
    out = np.empty_like(alphas)
    e_pos, e_neg = np.exp(eps), np.exp(-eps)
    for i in range(0, len(alphas), 100):
        a = alphas[i:i + 100, None]
        l1 = d1[None, :] + e_pos[None, :] * a
        l2 = 1 - e_neg[None, :] * (1 - a - d2[None, :])
        out[i:i + 100] = np.minimum(np.minimum(l1.min(axis=1), l2.min(axis=1)), 1.0)
    return np.maximum(out, alphas)


def independent(pld):
    eps = np.arange(-10.0, 40.0, 0.0025)
    rem = np.asarray(pld._pmf_remove.get_delta_for_epsilon(list(eps)), dtype=float)
    add = np.asarray(pld._pmf_add.get_delta_for_epsilon(list(eps)), dtype=float)
    alphas = np.logspace(np.log10(FLOOR), np.log10(0.5), 3000)
    t1 = tpr_bound(alphas, eps, rem, add)
    t2 = tpr_bound(alphas, eps, add, rem)
    t = np.maximum(t1, t2)
    half = t + alphas <= 1.0
    mus = norm.ppf(t[half]) - norm.ppf(alphas[half])
    mu = float(mus.max())
    # Regret on the symmetric curve's half with alpha <= beta.
    a, b = alphas[half], 1.0 - t[half]
    g = lambda x: norm.cdf(norm.isf(np.clip(x, 0, 1)) - mu)
    lo, hi = np.zeros_like(a), a.copy()
    need = b > g(a)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        above = b - mid > g(a - mid)
        lo = np.where(above, mid, lo)
        hi = np.where(above, hi, mid)
    regret = float(np.where(need, lo, 0.0).max())
    return mu, regret


def main():
    rows = []
    for sigma, q, steps in CASES:
        t0 = time.perf_counter()
        pld = from_gaussian_mechanism(standard_deviation=sigma, sampling_prob=q, use_connect_dots=True,
                                      value_discretization_interval=1e-4).self_compose(steps)
        conv = PLDConverter(pld)
        g_mu, g_regret = conv.get_mu_and_regret(FLOOR)
        a, b = conv.alphas_symm, conv.betas_symm
        inside = (a > FLOOR) & (b > FLOOR) & (a < 1 - FLOOR) & (b < 1 - FLOOR)
        valid = bool(np.all(b[inside] <= 1 - a[inside] + 1e-9))
        mu, regret = independent(pld)
        secs = time.perf_counter() - t0
        rows.append((sigma, q, steps, float(g_mu), float(g_regret), valid, mu, regret, secs))
        print(f"sigma={sigma} q={q} steps={steps}: gdpnum mu={g_mu:.6f} regret={g_regret:.3e} "
              f"valid={valid}; profile mu={mu:.6f} regret={regret:.3e} ({secs:.1f} s)", flush=True)
    with open(OUT, "w") as f:
        f.write("# generated by tools/external/gdpnum_mu.py\n")
        f.write(f"# gdpnum {metadata.version('gdpnum')}, dp-accounting {metadata.version('dp-accounting')}, "
                f"numpy {metadata.version('numpy')}, scipy {metadata.version('scipy')}, "
                f"Python {platform.python_version()}, {datetime.date.today().isoformat()}\n")
        f.write("sigma,q,steps,gdpnum_mu,gdpnum_regret,gdpnum_valid,mu,regret,seconds\n")
        for sigma, q, steps, g_mu, g_regret, valid, mu, regret, secs in rows:
            f.write(f"{sigma!r},{q!r},{steps},{g_mu:.12g},{g_regret:.12g},{int(valid)},{mu:.12g},"
                    f"{regret:.12g},{secs:.2f}\n")


if __name__ == "__main__":
    main()
