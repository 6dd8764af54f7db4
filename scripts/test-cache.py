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
  - for a binary that may read files while it runs, every file of the checkout that is not Rust
    source (reference tables, the README, run files); a binary may, when its own test file or the
    sources of its package or of a workspace crate it links name a file or process call
    (`std::fs`, `File::`, `Command::new`, …). Any other binary reads no file but proptest's
    regression seeds, so it hashes its package's `*.proptest-regressions` only: a change in the
    docs does not rerun the math's tests;
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


READS_FILES = re.compile(
    r"std::fs|\bfs::|File::|read_to_string|Command::new|current_dir|read_dir|CARGO_MANIFEST_DIR|std::process"
)


def mentions_files(paths):
    for p in paths:
        try:
            with open(p, encoding="utf-8") as f:
                if READS_FILES.search(f.read()):
                    return True
        except OSError:
            return True
    return False


def workspace():
    """Each workspace package's directory and the workspace packages it depends on (any kind)."""
    meta = json.loads(subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps", "--offline"],
        check=True, capture_output=True,
    ).stdout)
    dirs = {p["name"]: os.path.dirname(p["manifest_path"]) for p in meta["packages"]}
    deps = {p["name"]: {d["name"] for d in p["dependencies"] if d["name"] in dirs}
            for p in meta["packages"]}
    return dirs, deps


def file_readers(files):
    """The packages whose own sources, or those of a workspace crate they link, may read files."""
    dirs, deps = workspace()
    rel = {n: os.path.relpath(d) for n, d in dirs.items()}
    def own(name):
        src = os.path.join(rel[name], "src") + os.sep
        return mentions_files(p for p in files if p.endswith(".rs") and p.startswith(src))
    direct = {n for n in dirs if own(n)}
    readers = set()
    for name in dirs:
        seen, todo = set(), [name]
        while todo:
            n = todo.pop()
            if n not in seen:
                seen.add(n)
                todo.extend(deps.get(n, ()))
        if seen & direct:
            readers.add(name)
    return readers, rel


def package_name(package_id):
    # "path+file:///work/main/site#amp-site@0.1.0" -> "amp-site"
    m = re.search(r"#([^@]+)@", package_id)
    if m:
        return m.group(1)
    d = package_dir(package_id)  # "path+file:///work/main/tools/precompress#0.1.0"
    return os.path.basename(d) if d else None


def test_file(binary):
    root = package_dir(binary["package-id"])
    return os.path.join(root or ".", "tests", binary["binary-name"] + ".rs")


def package_dir(package_id):
    # "path+file:///work/main/site#amp-site@0.1.0" -> "/work/main/site"
    m = re.match(r"path\+file://([^#]+)#", package_id)
    return m.group(1) if m else None


def reads_sources(binary):
    if binary["kind"] != "test":
        return False
    try:
        with open(test_file(binary), encoding="utf-8") as f:
            return bool(READS_SOURCES.search(f.read()))
    except OSError:
        return True  # not found where expected: assume it reads everything


def keys(listing):
    files = checkout_files()
    data = digest([p for p in files if not p.endswith(".rs")])
    sources = digest([p for p in files if p.endswith(".rs")])
    readers, rel = file_readers(files)
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
            data if reads_files(binary, readers) else seeds(binary, rel, files),
            sources if reads_sources(binary) else "",
        ]
        out[binary["binary-id"]] = hashlib.sha256("|".join(parts).encode()).hexdigest()
    return out


def reads_files(binary, readers):
    name = package_name(binary["package-id"])
    if name is None or name in readers:
        return True
    if binary["kind"] == "test":
        root = os.path.dirname(test_file(binary))
        own = [test_file(binary)] + [
            os.path.join(dp, f) for dp, _, fs in os.walk(root) for f in fs
            if f.endswith(".rs") and dp != root
        ]
        return mentions_files(own)
    return False


def seeds(binary, rel, files):
    root = rel.get(package_name(binary["package-id"]) or "", ".") + os.sep
    return digest([p for p in files if p.startswith(root) and p.endswith(".proptest-regressions")])


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
