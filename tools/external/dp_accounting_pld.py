#!/usr/bin/env python3
"""External reference: epsilon of the Poisson-subsampled Gaussian mechanism from Google's
dp_accounting PLD accountant, for comparison with math/src/pld.rs.

Not part of the build or of scripts/test.sh; see tools/external/README.md. Needs dp-accounting
(pip install dp-accounting; the table in the repository was made with the version written in its
header). Run from anywhere:

    python3 tools/external/dp_accounting_pld.py            # the whole grid -> the CSV
    python3 tools/external/dp_accounting_pld.py --cases 1.5,0.04,2250 1,0.01,10000 [--repeat 3]
                                                            # a few cases (sigma,q,steps), best
                                                            # of --repeat runs, printed, no file

For every case (q, sigma, steps) of the grid, delta = 1e-5, epsilon is computed with
dp_accounting.pld.PLDAccountant at its defaults (neighbouring relation ADD_OR_REMOVE_ONE, i.e. the
larger of the two directions; value_discretization_interval 1e-4; pessimistic estimate) for
SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps). Each case is timed
with time.perf_counter around building the accountant, composing and get_epsilon (one run per
case, after one warm-up case).

Writes math/tests/data/pld_dp_accounting.csv: '#' comment lines (generator, versions, date), then
columns q,sigma,steps,delta,epsilon,seconds, epsilon to 12 significant digits. Rows with
epsilon >= 100 (or infinite) are kept but flagged in a '#' line; math/tests/pld_dp_accounting.rs
skips them.
"""

import argparse
import datetime
import itertools
import math
import os
import platform
import sys
import time
from importlib import metadata

import dp_accounting
from dp_accounting import pld

QS = [0.001, 0.01, 0.04, 0.1]
SIGMAS = [0.6, 0.8, 1.0, 1.5, 2.0, 3.0, 5.0]
STEPS = [1, 10, 100, 1000, 10000]
DELTA = 1e-5
FLAG_AT = 100.0

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "math", "tests", "data", "pld_dp_accounting.csv")


def epsilon(q, sigma, steps, delta=DELTA):
    """(epsilon, seconds) from dp_accounting's PLD accountant at its defaults."""
    t = time.perf_counter()
    acc = pld.PLDAccountant()  # ADD_OR_REMOVE_ONE, value_discretization_interval=1e-4
    event = dp_accounting.SelfComposedDpEvent(
        dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps
    )
    acc.compose(event)
    eps = acc.get_epsilon(delta)
    return eps, time.perf_counter() - t


def version():
    try:
        return metadata.version("dp-accounting")
    except metadata.PackageNotFoundError:
        return "unknown"


def parse_case(s):
    sigma, q, steps = s.split(",")
    return float(q), float(sigma), int(steps)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--cases",
        nargs="+",
        type=parse_case,
        metavar="SIGMA,Q,STEPS",
        help="time only these cases and print them (no file written)",
    )
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="with --cases: time each case N times and keep the fastest (default 1)",
    )
    args = ap.parse_args()

    epsilon(0.04, 1.0, 100)  # warm-up: imports, FFT plans, caches
    if args.cases:
        print("q,sigma,steps,delta,epsilon,seconds")
        for q, sigma, steps in args.cases:
            runs = [epsilon(q, sigma, steps) for _ in range(max(1, args.repeat))]
            eps, sec = runs[0][0], min(r[1] for r in runs)
            print(f"{q!r},{sigma!r},{steps},{DELTA!r},{eps:.12g},{sec:.6f}", flush=True)
        return

    rows, flagged = [], []
    total = 0.0
    cases = list(itertools.product(QS, SIGMAS, STEPS))
    for i, (q, sigma, steps) in enumerate(cases):
        eps, sec = epsilon(q, sigma, steps)
        total += sec
        if not (eps < FLAG_AT):
            flagged.append(f"q={q!r} sigma={sigma!r} steps={steps}")
        rows.append(f"{q!r},{sigma!r},{steps},{DELTA!r},{eps:.12g},{sec:.6f}")
        print(f"[{i + 1}/{len(cases)}] {rows[-1]}", file=sys.stderr, flush=True)

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("# generator: tools/external/dp_accounting_pld.py (external reference, not run by the tests)\n")
        f.write(
            f"# dp_accounting {version()} (numpy {metadata.version('numpy')}, scipy "
            f"{metadata.version('scipy')}, Python {platform.python_version()}); date {now} (UTC)\n"
        )
        f.write(
            "# PLDAccountant defaults: ADD_OR_REMOVE_ONE, value_discretization_interval 1e-4, "
            "pessimistic; event SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps)\n"
        )
        f.write(
            f"# seconds: one timed run per case after a warm-up, this machine; total {total:.3f} s\n"
        )
        f.write(
            f"# flagged (epsilon >= {FLAG_AT:g}, kept but skipped by the test): "
            + ("; ".join(flagged) if flagged else "none")
            + "\n"
        )
        f.write("q,sigma,steps,delta,epsilon,seconds\n")
        for r in rows:
            f.write(r + "\n")
    print(f"wrote {OUT}: {len(rows)} rows, {len(flagged)} flagged, {total:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
