#!/usr/bin/env python3
"""External reference: epsilon of the Poisson-subsampled Gaussian mechanism from Google's
dp_accounting RDP accountant, for the test that our RDP conversion (minimised over the order,
not sampled on a grid) is never above it.

Not part of the build or of scripts/test.sh; see tools/external/README.md. Needs dp-accounting
(pip install dp-accounting; the table in the repository was made with the version written in its
header). Run from anywhere:

    python3 tools/external/dp_accounting_rdp.py

For every case (q, sigma, steps) of the grid q in {0.001, 0.004, 0.01, 0.1}, sigma in {0.6, 1,
1.1, 2, 5}, steps in {1, 10, 100, 1000, 10000} (100 cases), delta = 1e-5, epsilon and its order
come from dp_accounting.rdp.RdpAccountant at its defaults (its own grid of orders; neighbouring
relation ADD_OR_REMOVE_ONE) for SelfComposedDpEvent(PoissonSampledDpEvent(q,
GaussianDpEvent(sigma)), steps), through get_epsilon_and_optimal_order.

Writes math/tests/data/rdp_dp_accounting.csv: '#' comment lines (generator, versions, date), then
columns q,sigma,steps,delta,epsilon,order, epsilon to 15 significant digits.
"""

import datetime
import itertools
import os
import platform
from importlib import metadata

import dp_accounting
from dp_accounting import rdp

QS = [0.001, 0.004, 0.01, 0.1]
SIGMAS = [0.6, 1.0, 1.1, 2.0, 5.0]
STEPS = [1, 10, 100, 1000, 10000]
DELTA = 1e-5

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "math", "tests", "data", "rdp_dp_accounting.csv")


def epsilon(q, sigma, steps, delta=DELTA):
    """(epsilon, order) from dp_accounting's RDP accountant at its defaults."""
    acc = rdp.RdpAccountant()
    event = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps
    )
    acc.compose(event)
    return acc.get_epsilon_and_optimal_order(delta)


def main():
    rows = []
    for q, sigma, steps in itertools.product(QS, SIGMAS, STEPS):
        eps, order = epsilon(q, sigma, steps)
        rows.append(f"{q!r},{sigma!r},{steps},{DELTA!r},{eps:.15g},{float(order)!r}")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("# generator: tools/external/dp_accounting_rdp.py (external reference, not run by the tests)\n")
        f.write(
            f"# dp_accounting {metadata.version('dp-accounting')} (numpy {metadata.version('numpy')}, "
            f"scipy {metadata.version('scipy')}, Python {platform.python_version()}); date {now} (UTC)\n"
        )
        f.write(
            "# RdpAccountant defaults (its order grid, ADD_OR_REMOVE_ONE); event "
            "SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps); "
            "get_epsilon_and_optimal_order(delta)\n"
        )
        f.write("q,sigma,steps,delta,epsilon,order\n")
        f.write("\n".join(rows) + "\n")
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
