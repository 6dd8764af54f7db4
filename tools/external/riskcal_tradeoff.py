#!/usr/bin/env python3
"""External reference: the attacker's TPR at a few FPRs, and the advantage, of DP-SGD runs from
riskcal (Kulynych et al. 2024, "Attack-aware noise calibration for differential privacy",
arXiv 2407.02191) on dp_accounting's PLD, for the test that our trade-off band agrees with it
(math/tests/risk_riskcal.rs).

Not part of the build or of scripts/test.sh; see tools/external/README.md. Needs riskcal (pip
install riskcal, which brings dp-accounting; the table in the repository was made with the
versions written in its header). Run from anywhere:

    python3 tools/external/riskcal_tradeoff.py

For every case (q, sigma, steps) of the grid q in {0.001, 0.01, 0.1}, sigma in {0.8, 1, 2}, steps in
{1, 100, 1000} (27 cases): the PLD of the Poisson-subsampled Gaussian mechanism from
dp_accounting.pld.privacy_loss_distribution.from_gaussian_mechanism(sigma, sampling_prob=q,
value_discretization_interval=1e-4) (its defaults otherwise: pessimistic, connect-the-dots,
add-or-remove with both directions), self-composed `steps` times; then
riskcal.analysis.get_beta_from_pld at FPR alpha in {0.001, 0.01, 0.1} (TPR = 1 - beta) and
riskcal.analysis.get_advantage_from_pld. Also, as a second and independent reading of the same PLD,
the hockey-stick bound TPR <= min over eps of (delta(eps) + e^eps alpha) with dp_accounting's own
get_delta_for_epsilon on eps in [-1, 1] (step 5e-5) and [1, 40] (step 1e-3): column tpr_hockey.
riskcal's Algorithm 1 runs the Neyman-Pearson test on the two directions' discretised PMFs as if
they were one pair; after separate pessimistic discretisation they are not, and where its TPR falls
below the hockey-stick value of the same PLD by more than the discretisation can explain, the test
reports it (see math/tests/risk_riskcal.rs).

Writes math/tests/data/risk_riskcal.csv: '#' comment lines (generator, versions, date), then
columns q,sigma,steps,fpr,tpr,tpr_hockey (fpr = 'advantage' on the advantage row), values to 12 significant
digits.
"""

import datetime
import itertools
import os
import platform
from importlib import metadata

import numpy as np
from dp_accounting.pld import privacy_loss_distribution
from riskcal.analysis import get_advantage_from_pld, get_beta_from_pld

QS = [0.001, 0.01, 0.1]
SIGMAS = [0.8, 1.0, 2.0]
STEPS = [1, 100, 1000]
FPRS = [0.001, 0.01, 0.1]

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "math", "tests", "data", "risk_riskcal.csv")


def main():
    rows = []
    for q, sigma, steps in itertools.product(QS, SIGMAS, STEPS):
        pld = privacy_loss_distribution.from_gaussian_mechanism(
            sigma, sampling_prob=q, value_discretization_interval=1e-4
        )
        if steps > 1:
            pld = pld.self_compose(steps)
        eps = np.concatenate([np.arange(-1.0, 1.0, 5e-5), np.arange(1.0, 40.0, 1e-3)])
        deltas = np.array(pld.get_delta_for_epsilon(eps))
        for a in FPRS:
            beta = float(get_beta_from_pld(pld, alpha=a))
            hockey = float(np.min(deltas + np.exp(eps) * a))
            rows.append(f"{q!r},{sigma!r},{steps},{a!r},{1.0 - beta:.12g},{min(hockey, 1.0):.12g}")
        adv = float(get_advantage_from_pld(pld))
        rows.append(f"{q!r},{sigma!r},{steps},advantage,{adv:.12g},{adv:.12g}")
        print(q, sigma, steps, rows[-1], flush=True)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("# generator: tools/external/riskcal_tradeoff.py (external reference, not run by the tests)\n")
        f.write(
            f"# riskcal {metadata.version('riskcal')}, dp_accounting {metadata.version('dp-accounting')} "
            f"(numpy {metadata.version('numpy')}, scipy {metadata.version('scipy')}, Python "
            f"{platform.python_version()}); date {now} (UTC)\n"
        )
        f.write(
            "# from_gaussian_mechanism(sigma, sampling_prob=q, value_discretization_interval=1e-4)"
            ".self_compose(steps); tpr = 1 - get_beta_from_pld(pld, alpha=fpr); advantage = "
            "get_advantage_from_pld(pld); tpr_hockey = min over a grid of eps of "
            "pld.get_delta_for_epsilon(eps) + e^eps fpr\n"
        )
        f.write("q,sigma,steps,fpr,tpr,tpr_hockey\n")
        f.write("\n".join(rows) + "\n")
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
