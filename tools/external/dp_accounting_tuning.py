#!/usr/bin/env python3
"""External reference: epsilon of hyperparameter tuning (run K times, release the best) from
Google's dp_accounting RDP accountant, RepeatAndSelectDpEvent (Papernot & Steinke 2022), for the
test that amp-math reproduces its number (math/tests/tuning_dp_accounting.rs).

Not part of the build or of scripts/test.sh; see tools/external/README.md. Needs dp-accounting
(the committed table was made with the version in its header):

    python3 -m venv target/dpacc && target/dpacc/bin/pip install dp-accounting==0.6.0
    target/dpacc/bin/python tools/external/dp_accounting_tuning.py

Each case: one run is SelfComposedDpEvent(base, steps) with base GaussianDpEvent(sigma) (q = 1)
or PoissonSampledDpEvent(q, GaussianDpEvent(sigma)); the procedure is
RepeatAndSelectDpEvent(run, mean, shape) with shape inf (Poisson), 0 (logarithmic), 1
(geometric) or another truncated negative binomial shape. RdpAccountant at its defaults (its
order grid, ADD_OR_REMOVE_ONE); epsilon and order at delta from get_epsilon_and_optimal_order,
for the procedure and for one run.

Writes math/tests/data/tuning_dp_accounting.csv: '#' comment lines (generator, versions, date),
then q,sigma,steps,mean,shape,delta,epsilon,order,one_run_epsilon (shape 'inf' for Poisson),
epsilon to 15 significant digits.
"""

import datetime
import math
import os
import platform
from importlib import metadata

import dp_accounting
from dp_accounting import dp_event  # noqa: F401  (RepeatAndSelectDpEvent is not re-exported)
from dp_accounting import rdp

# (q, sigma, steps, mean, shape, delta)
CASES = [
    (1.0, 5.0, 1, 10.0, 1.0, 1e-5),
    (1.0, 5.0, 1, 10.0, 0.0, 1e-5),
    (1.0, 5.0, 1, 10.0, math.inf, 1e-5),
    (1.0, 2.0, 10, 3.0, 1.0, 1e-6),
    (1.0, 20.0, 1, 100.0, 0.5, 1e-5),
    (1.0, 20.0, 1, 100.0, 2.0, 1e-5),
    (1.0, 1.0, 1, 1.0, 1.0, 1e-5),
    (1.0, 10.0, 5, 1000.0, math.inf, 1e-8),
    (0.01, 1.1, 1000, 10.0, 1.0, 1e-5),
    (0.01, 1.1, 1000, 10.0, 0.0, 1e-5),
    (0.01, 1.1, 1000, 10.0, math.inf, 1e-5),
    (0.01, 1.1, 1000, 10.0, 3.0, 1e-5),
    (0.004, 1.0, 10000, 20.0, 1.0, 1e-5),
    (0.004, 1.0, 10000, 20.0, math.inf, 1e-5),
    (0.001, 0.8, 10000, 5.0, 0.0, 1e-5),
    (0.001, 0.8, 10000, 5.0, 1.0, 1e-5),
    (0.1, 2.0, 100, 2.0, 1.0, 1e-5),
    (0.1, 2.0, 100, 2.0, math.inf, 1e-5),
    (0.1, 2.0, 100, 50.0, 0.5, 1e-5),
    (0.04, 1.5, 2250, 10.0, 1.0, 1e-5),
    (0.04, 1.5, 2250, 10.0, math.inf, 1e-5),
    (0.02, 4.0, 500, 1.5, 0.0, 1e-5),
    (0.02, 4.0, 500, 200.0, 1.0, 1e-6),
    (0.02, 4.0, 500, 200.0, math.inf, 1e-6),
]

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "math", "tests", "data", "tuning_dp_accounting.csv")


def one_run(q, sigma, steps):
    base = dp_accounting.GaussianDpEvent(sigma)
    if q < 1.0:
        base = dp_accounting.PoissonSampledDpEvent(q, base)
    return dp_accounting.SelfComposedDpEvent(base, steps)


def epsilon(event, delta):
    acc = rdp.RdpAccountant()
    acc.compose(event)
    return acc.get_epsilon_and_optimal_order(delta)


def main():
    rows = []
    for q, sigma, steps, mean, shape, delta in CASES:
        run = one_run(q, sigma, steps)
        eps, order = epsilon(dp_accounting.dp_event.RepeatAndSelectDpEvent(run, mean, shape), delta)
        one, _ = epsilon(run, delta)
        shape_text = "inf" if math.isinf(shape) else repr(shape)
        rows.append(
            f"{q!r},{sigma!r},{steps},{mean!r},{shape_text},{delta!r},{eps:.15g},{float(order)!r},{one:.15g}"
        )
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("# generator: tools/external/dp_accounting_tuning.py (external reference, not run by the tests)\n")
        f.write(
            f"# dp_accounting {metadata.version('dp-accounting')} (numpy {metadata.version('numpy')}, "
            f"scipy {metadata.version('scipy')}, Python {platform.python_version()}); date {now} (UTC)\n"
        )
        f.write(
            "# RdpAccountant defaults; RepeatAndSelectDpEvent(SelfComposedDpEvent(base, steps), mean, shape), "
            "base GaussianDpEvent(sigma) at q = 1, else PoissonSampledDpEvent(q, GaussianDpEvent(sigma)); "
            "get_epsilon_and_optimal_order(delta)\n"
        )
        f.write("q,sigma,steps,mean,shape,delta,epsilon,order,one_run_epsilon\n")
        f.write("\n".join(rows) + "\n")
    print(f"wrote {len(rows)} rows to {OUT}")


if __name__ == "__main__":
    main()
