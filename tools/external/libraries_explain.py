#!/usr/bin/env python3
"""External reference: the epsilon each widely used accountant prints for one DP-SGD run under its
own defaults, for the test that amp-math predicts each number (math/tests/libraries_explain.rs) and
for the training page's "What each library reports".

Not part of the build or of scripts/test.sh; see tools/external/README.md. Needs the libraries in
a virtual environment, and Opacus's accountants read from its wheel without torch:

    python3 -m venv target/ext
    target/ext/bin/pip install numpy scipy absl-py dp-accounting==0.6.0 prv-accountant==0.2.0
    target/ext/bin/pip download --no-deps opacus==1.6.0 tensorflow-privacy==0.9.0 -d target/ext/dl
    (cd target/ext/dl && unzip -q -o opacus-1.6.0-py3-none-any.whl -d opacus \\
        && unzip -q -o tensorflow_privacy-0.9.0-py3-none-any.whl -d tfp)
    target/ext/bin/python tools/external/libraries_explain.py target/ext/dl

Opacus's accountant base class imports torch; a stand-in with the one attribute its accountants
use (`history`) is put in its place, and its accountants' files are loaded unchanged. TensorFlow
Privacy's compute_dp_sgd_privacy_lib.py is loaded from its file (it needs absl and dp_accounting,
not TensorFlow).

Each case is a run of n records in Poisson batches of expected size B, noise multiplier sigma,
a whole number of epochs, delta:
- Opacus (PrivacyEngine: sample_rate = 1/len(data_loader), len = ceil(n/B) batches per epoch):
  RDPAccountant, GaussianAccountant (poisson=True) and PRVAccountant (its default, eps_error
  0.01) with history [(sigma, 1/ceil(n/B), epochs*ceil(n/B))];
- dp_accounting RdpAccountant and PLDAccountant at their defaults, q = B/n and
  round(epochs*n/B) steps, halves up (the app's steps for those epochs);
- TensorFlow Privacy compute_dp_sgd_privacy(n, B, sigma, epochs, delta);
- Microsoft's prv_accountant PRVAccountant (eps_error 0.01, delta_error delta/1000) on the same
  q and steps as dp_accounting: its lower bound, estimate and upper bound.

Writes math/tests/data/libraries_explain.csv: '#' comment lines (generator, versions, date), then
a header and one row per case; epsilon to 15 significant digits.
"""

import datetime
import importlib.util
import math
import os
import platform
import sys
import types
from importlib import metadata

import dp_accounting
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.rdp import rdp_privacy_accountant
import prv_accountant

# (n, B, sigma, epochs, delta)
CASES = [
    (60000, 256, 1.1, 15, 1e-5),
    (60000, 256, 1.1, 60, 1e-5),
    (60000, 600, 1.1, 60, 1e-5),
    (60000, 600, 4.0, 60, 1e-5),
    (60000, 2400, 1.5, 100, 1e-5),
    (60000, 1000, 0.8, 10, 1e-5),
    (60000, 512, 1.0, 30, 1e-5),
    (50000, 256, 1.0, 20, 1e-5),
    (50000, 4096, 3.0, 200, 1e-5),
    (50000, 1024, 1.5, 50, 1e-5),
    (50000, 512, 2.0, 90, 1e-5),
    (10000, 100, 1.2, 10, 1e-5),
    (10000, 250, 0.7, 5, 1e-5),
    (10000, 64, 2.5, 40, 1e-6),
    (1000000, 1024, 0.9, 3, 1e-6),
    (1000000, 4096, 1.3, 10, 1e-6),
    (1000000, 256, 0.6, 1, 1e-7),
    (25000, 500, 5.0, 100, 1e-5),
    (25000, 100, 1.0, 1, 1e-5),
    (60000, 60000, 10.0, 20, 1e-5),
    (100000, 300, 1.1, 2, 1e-6),
    (200000, 2000, 0.75, 25, 1e-6),
]


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def opacus_accountants(root):
    """Opacus's three accountants, loaded from its unpacked wheel without torch."""
    base = os.path.join(root, "opacus", "opacus")
    for name, sub in [("opacus", ""), ("opacus.accountants", "accountants")]:
        pkg = types.ModuleType(name)
        pkg.__path__ = [os.path.join(base, sub)]
        sys.modules[name] = pkg
    stand_in = types.ModuleType("opacus.accountants.accountant")

    class IAccountant:
        def __init__(self):
            self.history = []

    stand_in.IAccountant = IAccountant
    sys.modules["opacus.accountants.accountant"] = stand_in
    from opacus.accountants.gdp import GaussianAccountant
    from opacus.accountants.prv import PRVAccountant
    from opacus.accountants.rdp import RDPAccountant

    return RDPAccountant, GaussianAccountant, PRVAccountant


def with_history(cls, sigma, q, steps):
    a = cls()
    a.history = [(sigma, q, steps)]
    return a


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "target/ext/dl"
    RDP, GDP, PRV = opacus_accountants(root)
    tfp = load(
        "compute_dp_sgd_privacy_lib",
        os.path.join(root, "tfp", "tensorflow_privacy", "privacy", "analysis",
                     "compute_dp_sgd_privacy_lib.py"),
    )
    import warnings
    from absl import logging as absl_logging

    absl_logging.set_verbosity(absl_logging.ERROR)
    warnings.simplefilter("ignore")
    rows = []
    for n, b, sigma, epochs, delta in CASES:
        batches = -(-n // b)
        oq, osteps = 1.0 / batches, epochs * batches
        o_rdp, o_order = with_history(RDP, sigma, oq, osteps).get_privacy_spent(delta=delta)
        try:
            o_gdp = with_history(GDP, sigma, oq, osteps).get_epsilon(delta=delta)
        except ValueError:
            o_gdp = float("nan")
        o_prv = with_history(PRV, sigma, oq, osteps).get_epsilon(delta=delta)
        # The app rounds half away from zero (Python's round() would round 14,062.5 to even).
        q, steps = b / n, max(1, math.floor(epochs * n / b + 0.5))
        event = dp_accounting.SelfComposedDpEvent(
            dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
        rdp = rdp_privacy_accountant.RdpAccountant()
        rdp.compose(event)
        d_rdp, d_order = rdp.get_epsilon_and_optimal_order(delta)
        pld = pld_privacy_accountant.PLDAccountant()
        pld.compose(event)
        d_pld = pld.get_epsilon(delta)
        t_eps, t_order = tfp.compute_dp_sgd_privacy(n, b, sigma, epochs, delta)
        mech = prv_accountant.PoissonSubsampledGaussianMechanism(
            sampling_probability=q, noise_multiplier=sigma)
        acc = prv_accountant.PRVAccountant(
            prvs=[mech], max_self_compositions=[steps], eps_error=0.01,
            delta_error=delta / 1000)
        p_lo, p_est, p_up = acc.compute_epsilon(delta=delta, num_self_compositions=[steps])
        rows.append((n, b, sigma, epochs, delta, oq, osteps, o_rdp, o_order, o_gdp, o_prv,
                     q, steps, d_rdp, d_order, d_pld, t_eps, t_order, p_lo, p_est, p_up))
        print(rows[-1], file=sys.stderr)
    out = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data",
                       "libraries_explain.csv")
    versions = ", ".join(f"{p} {metadata.version(p)}" for p in
                         ["dp-accounting", "prv-accountant", "numpy", "scipy"])
    with open(out, "w") as f:
        f.write("# generator: tools/external/libraries_explain.py (external reference, not run by "
                "the tests)\n")
        f.write(f"# opacus 1.6.0 and tensorflow-privacy 0.9.0 (their files), {versions}, Python "
                f"{platform.python_version()}; date {datetime.datetime.now(datetime.UTC):%Y-%m-%d} (UTC)\n")
        f.write("# opacus_*: history [(sigma, 1/ceil(n/B), epochs*ceil(n/B))]; dpacc_*, prv_*: q = B/n, "
                "round(epochs*n/B) steps; tfp_*: compute_dp_sgd_privacy(n, B, sigma, epochs, delta)\n")
        f.write("n,batch,sigma,epochs,delta,opacus_q,opacus_steps,opacus_rdp,opacus_rdp_order,"
                "opacus_gdp,opacus_prv,q,steps,dpacc_rdp,dpacc_rdp_order,dpacc_pld,tfp_eps,"
                "tfp_order,prv_lower,prv_estimate,prv_upper\n")
        for r in rows:
            f.write(",".join(x if isinstance(x, str) else
                             (f"{x:.15g}" if isinstance(x, float) else str(x)) for x in r) + "\n")


if __name__ == "__main__":
    main()
