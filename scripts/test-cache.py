#!/usr/bin/env python3
"""Which native test binaries may be skipped because they already passed, byte for byte.

A test binary that is identical to one that passed, run on identical inputs, checks the same
things again and gives the same result: every test here is deterministic except the property
tests, which draw fresh random cases on each run (proptest's default seeding), so a skipped
binary forgoes only those new draws. CI runs on a clean clone, with no record, and so runs
everything on every change. scripts/test.sh asks this script, before the native tests:

    test-cache.py skip LIST.json     prints a cargo-nextest filter that leaves out every binary
                                     whose key is recorded, and on stderr how many it leaves out
    test-cache.py record LIST.json   records the key of every binary in LIST.json (after a run
                                     in which every test passed)

LIST.json is `cargo nextest list --list-type binaries-only --message-format json`. A binary's
key hashes
  - the test binary itself;
  - the executables of its own package (an integration test runs them: the CLI's tests run
    `amplify`);
  - every file of the checkout that is not Rust source (reference tables, the README, the
    source coverage table, run files: what a test may read while it runs);
  - for a test that reads the Rust sources while it runs (the crate-layer and import-circle
    checks; found by the calls in its own file that read a directory or name a `.rs` file),
    every Rust source file too.
Rust source compiled into a binary changes the binary, so it needs no hash of its own. The
record lives in target/test-cache/; a clean clone (CI) has none and runs everything, and
`./scripts/test.sh --no-cache` ignores it.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

CACHE = os.path.join("target", "test-cache", "passed")


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def checkout_files():
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        check=True, capture_output=True,
    ).stdout
    return sorted(p for p in out.decode().split("\0") if p and os.path.isfile(p))


def digest(paths):
    h = hashlib.sha256()
    for p in paths:
        h.update(p.encode() + b"\0" + sha(p).encode() + b"\n")
    return h.hexdigest()


READS_SOURCES = re.compile(r'read_dir|\.rs"')


def package_dir(package_id):
    # "path+file:///work/main/site#amp-site@0.1.0" -> "/work/main/site"
    m = re.match(r"path\+file://([^#]+)#", package_id)
    return m.group(1) if m else None


def reads_sources(binary):
    if binary["kind"] != "test":
        return False
    root = package_dir(binary["package-id"])
    src = os.path.join(root or ".", "tests", binary["binary-name"] + ".rs")
    try:
        with open(src, encoding="utf-8") as f:
            return bool(READS_SOURCES.search(f.read()))
    except OSError:
        return True  # not found where expected: assume it reads everything


def keys(listing):
    files = checkout_files()
    data = digest([p for p in files if not p.endswith(".rs")])
    sources = digest([p for p in files if p.endswith(".rs")])
    meta = listing["rust-build-meta"]
    target = meta["target-directory"]
    exes = {}
    for package, bins in meta.get("non-test-binaries", {}).items():
        paths = [os.path.join(target, b["path"]) for b in bins]
        exes[package] = digest(sorted(p for p in paths if os.path.isfile(p)))
    out = {}
    for binary in listing["rust-binaries"].values():
        parts = [
            sha(binary["binary-path"]),
            exes.get(binary["package-id"], ""),
            data,
            sources if reads_sources(binary) else "",
        ]
        out[binary["binary-id"]] = hashlib.sha256("|".join(parts).encode()).hexdigest()
    return out


def recorded():
    try:
        with open(CACHE, encoding="utf-8") as f:
            return {line.strip() for line in f if line.strip()}
    except OSError:
        return set()


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("skip", "record"):
        sys.exit("usage: test-cache.py skip|record LIST.json")
    with open(sys.argv[2], encoding="utf-8") as f:
        listing = json.load(f)
    current = keys(listing)
    if sys.argv[1] == "record":
        os.makedirs(os.path.dirname(CACHE), exist_ok=True)
        kept = recorded() | {f"{b} {k}" for b, k in current.items()}
        with open(CACHE, "w", encoding="utf-8") as f:
            f.write("\n".join(sorted(kept)) + "\n")
        return
    done = recorded()
    skipped = sorted(b for b, k in current.items() if f"{b} {k}" in done)
    print(f"{len(skipped)} of {len(current)}", file=sys.stderr)
    if skipped:
        print("not (" + " | ".join(f"binary_id({b})" for b in skipped) + ")")


if __name__ == "__main__":
    main()
