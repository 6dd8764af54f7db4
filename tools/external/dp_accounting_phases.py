#!/usr/bin/env python3
"""External reference: epsilon of a run made of phases of the Poisson-subsampled Gaussian mechanism
(each phase with its own noise multiplier, sampling rate and number of steps), from Google's
dp_accounting PLD accountant.

Not part of the build or of scripts/test.sh; see tools/external/README.md. Needs dp-accounting
(pip install dp-accounting; the table in the repository was made with the version written in its
header). Run from anywhere:

    python3 tools/external/dp_accounting_phases.py       # all cases -> the CSV

A run is a list of phases (sigma, q, steps). Its event is
ComposedDpEvent([SelfComposedDpEvent(PoissonSampledDpEvent(q, GaussianDpEvent(sigma)), steps), ...]),
one entry per phase in the order listed, composed into one dp_accounting.pld.PLDAccountant at its
defaults (ADD_OR_REMOVE_ONE, i.e. the larger of the two directions; value_discretization_interval
1e-4; pessimistic estimate). Epsilon is read at delta = 1e-5. Each case is timed with
time.perf_counter around building the accountant, composing and get_epsilon (one run per case,
after one warm-up case).

Composition does not depend on the order of the phases, so every case is also computed with its
phases listed the other way round; the script prints the largest relative difference between the
two orders and records it in a '#' line of the file (a check on the accountant). The run with the same sigma and q in both phases is also compared with one phase of the
summed number of steps.

Writes math/tests/data/pld_dp_accounting_phases.csv: '#' comment lines (generator, versions, date,
meaning of the columns), then columns phases,delta,epsilon,seconds, epsilon to 12 significant
digits. 'phases' reads sigma:q:steps for each phase, phases joined by '|', numbers written with
repr so that they parse back to the same floats.
"""

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

DELTA = 1e-5

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(ROOT, "math", "tests", "data", "pld_dp_accounting_phases.csv")

# Hand-picked runs: each is a list of (sigma, q, steps).
NAMED = [
    # warm-up phase with little noise, then the main phase
    [(0.8, 0.01, 300), (1.5, 0.02, 1000)],
    # Opacus-like: a long phase, then a shorter one with less noise
    [(1.5, 0.04, 1000), (1.0, 0.04, 250)],
    # fine-tuning with a larger batch after MNIST-sized training
    [(1.1, 256 / 60000, 2000), (2.0, 0.1, 50)],
    # three phases
    [(1.0, 0.01, 500), (1.5, 0.02, 500), (0.9, 0.005, 1000)],
    # the same mechanism in both phases: should match one phase of 1000 steps
    [(1.1, 0.01, 400), (1.1, 0.01, 600)],
    # a phase without sampling (q = 1), then a subsampled one
    [(20.0, 1.0, 10), (1.2, 0.01, 1000)],
]

# A small grid of two-phase runs.
GRID = [
    [(s1, q1, 100), (s2, 0.01, 1000)]
    for s1, s2, q1 in itertools.product([0.7, 1.5], [1.0, 3.0], [0.001, 0.05])
]

CASES = NAMED + GRID


def event_of(phases):
    """dp_accounting event for a run: the phases one after another."""
    return dp_accounting.ComposedDpEvent(
        [
            dp_accounting.SelfComposedDpEvent(
                dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps
            )
            for sigma, q, steps in phases
        ]
    )


def epsilon(phases, delta=DELTA):
    """(epsilon, seconds) from dp_accounting's PLD accountant at its defaults."""
    t = time.perf_counter()
    acc = pld.PLDAccountant()  # ADD_OR_REMOVE_ONE, value_discretization_interval=1e-4
    acc.compose(event_of(phases))
    eps = acc.get_epsilon(delta)
    return eps, time.perf_counter() - t


def label(phases):
    return "|".join(f"{sigma!r}:{q!r}:{steps}" for sigma, q, steps in phases)


def rel_diff(a, b):
    if a == b:
        return 0.0
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf
    return abs(a - b) / max(abs(a), abs(b))


def version():
    try:
        return metadata.version("dp-accounting")
    except metadata.PackageNotFoundError:
        return "unknown"


def main():
    epsilon([(1.0, 0.04, 100)])  # warm-up: imports, FFT plans, caches

    rows = []
    total = 0.0
    worst, worst_case = 0.0, None
    for i, phases in enumerate(CASES):
        eps, sec = epsilon(phases)
        total += sec
        eps_rev, _ = epsilon(list(reversed(phases)))
        d = rel_diff(eps, eps_rev)
        if d > worst or worst_case is None:
            worst, worst_case = d, phases
        rows.append(f"{label(phases)},{DELTA!r},{eps:.12g},{sec:.6f}")
        print(
            f"[{i + 1}/{len(CASES)}] {rows[-1]}  reversed {eps_rev:.12g} (rel diff {d:.3g})",
            file=sys.stderr,
            flush=True,
        )

    # Two phases of the same mechanism against one phase of the summed steps.
    same = [(1.1, 0.01, 400), (1.1, 0.01, 600)]
    eps_two, _ = epsilon(same)
    eps_one, _ = epsilon([(1.1, 0.01, 1000)])
    d_same = rel_diff(eps_two, eps_one)
    print(
        f"same mechanism: {label(same)} -> {eps_two:.12g}; 1.1:0.01:1000 -> {eps_one:.12g} "
        f"(rel diff {d_same:.3g})",
        file=sys.stderr,
    )
    print(
        f"largest relative difference between phase orders: {worst:.3g} ({label(worst_case)})",
        file=sys.stderr,
    )

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(
            "# generator: tools/external/dp_accounting_phases.py (external reference, not run by the tests)\n"
        )
        f.write(
            f"# dp_accounting {version()} (numpy {metadata.version('numpy')}, scipy "
            f"{metadata.version('scipy')}, Python {platform.python_version()}); date {now} (UTC)\n"
        )
        f.write(
            "# PLDAccountant defaults: ADD_OR_REMOVE_ONE, value_discretization_interval 1e-4, "
            "pessimistic; event ComposedDpEvent([SelfComposedDpEvent(PoissonSampledDpEvent(q, "
            "GaussianDpEvent(sigma)), steps) for each phase in order])\n"
        )
        f.write(
            "# columns: phases = sigma:q:steps of each phase, phases in order joined by '|' "
            "(numbers as Python repr); delta; epsilon at delta (12 significant digits); seconds\n"
        )
        f.write(
            f"# seconds: one timed run per case after a warm-up, this machine; total {total:.3f} s\n"
        )
        f.write(
            f"# check: phases in reverse order give epsilon within relative {worst:.3g}; "
            f"{label(same)} vs 1.1:0.01:1000 relative {d_same:.3g}\n"
        )
        f.write("phases,delta,epsilon,seconds\n")
        for r in rows:
            f.write(r + "\n")
    print(f"wrote {OUT}: {len(rows)} rows, {total:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
