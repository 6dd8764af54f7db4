#!/usr/bin/env python3
"""External check: the optimal membership attacker's TPR at a given FPR for a DP-SGD run, by
seeded Monte Carlo of the likelihood-ratio test, independent of any PLD code (ours, dp_accounting's
or riskcal's). Used to settle a disagreement recorded in math/tests/risk_riskcal.rs.

Not part of the build or of scripts/test.sh. Needs numpy. Run from anywhere (about 40 s):

    python3 tools/external/risk_monte_carlo.py [q sigma steps]     default 0.1 1.0 1000

The run: `steps` Poisson-subsampled Gaussian steps at rate q with noise sigma on a sum of
sensitivity 1. With the record, each step's output is N(1, sigma^2) with probability q and
N(0, sigma^2) otherwise; without it, N(0, sigma^2). The optimal test thresholds the total log
likelihood ratio L = sum_i log(1 - q + q exp((2 x_i - 1) / (2 sigma^2))). 4e5 runs per hypothesis
(seed 12345): the threshold is the (1 - FPR) quantile of L without the record, the TPR is the share
of runs with the record above it; the standard error printed is the binomial one of the TPR.

Measured (numpy 2.4.6): q 0.1, sigma 1, 1000 steps: FPR 0.1 -> TPR 0.9910375 +- 0.00015;
FPR 0.01 -> TPR 0.917765 +- 0.00043.
"""
import sys

import numpy as np


def main():
    q, sigma, steps = (float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) == 4 else (0.1, 1.0, 1000)
    rng = np.random.default_rng(12345)
    runs, chunk = 400_000, 100_000

    def loss(x):
        return np.log1p(q * np.expm1((2 * x - 1) / (2 * sigma * sigma)))

    def sample(with_record, n):
        total = np.zeros(n)
        for _ in range(steps):
            x = sigma * rng.standard_normal(n)
            if with_record:
                x = x + (rng.random(n) < q)
            total += loss(x)
        return total

    without = np.concatenate([sample(False, chunk) for _ in range(runs // chunk)])
    with_ = np.concatenate([sample(True, chunk) for _ in range(runs // chunk)])
    for fpr in [0.1, 0.01]:
        t = np.quantile(without, 1 - fpr)
        tpr = float(np.mean(with_ > t))
        print(f"q {q} sigma {sigma} steps {steps}: FPR {fpr} -> TPR {tpr} +- {np.sqrt(tpr * (1 - tpr) / runs):.2g}")


if __name__ == "__main__":
    main()
