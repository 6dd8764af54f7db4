//! The PLD accountant against Google's dp_accounting (`PLDAccountant` at its defaults: add/remove,
//! value discretisation 1e-4, pessimistic), for `steps` compositions of the Poisson-subsampled
//! Gaussian at δ = 1e-5. The table `data/pld_dp_accounting.csv` is written by
//! `tools/external/dp_accounting_pld.py` (see `tools/external/README.md`); dp_accounting is not
//! needed to run this test.
//!
//! dp_accounting's ε is a pessimistic estimate on the same grid step, so it should sit within our
//! band [lower, upper] and close to our (pessimistic) upper bound. Checked for every row with
//! ε < 100 (larger values are kept in the table, flagged, and skipped here):
//! (a) |upper − theirs| ≤ 0.2% of theirs;
//! (b) lower ≤ theirs·(1 + 0.2%) and theirs ≤ upper·(1 + 0.2%).
//! All failing rows are listed before the test fails; the worst deviations are printed
//! (`-- --nocapture`).
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::pld;

const TABLE: &str = include_str!("data/pld_dp_accounting.csv");
const TOLERANCE: f64 = 2e-3;
const SKIP_AT: f64 = 100.0;
const MIN_ROWS: usize = 100;

struct Row {
    line: usize,
    text: String,
    q: f64,
    sigma: f64,
    steps: u64,
    delta: f64,
    epsilon: f64,
}

fn num<T: std::str::FromStr>(s: &str, line: usize) -> T {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("line {line}: bad number {s:?}"))
}

/// The usable rows (ε finite and below `SKIP_AT`), and the number skipped.
fn rows() -> (Vec<Row>, usize) {
    let mut lines = TABLE
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let (_, header) = lines.next().expect("empty table");
    assert_eq!(
        header, "q,sigma,steps,delta,epsilon,seconds",
        "unexpected header"
    );
    let (mut rows, mut skipped) = (Vec::new(), 0);
    for (line, text) in lines {
        let f: Vec<&str> = text.split(',').collect();
        assert_eq!(f.len(), 6, "line {line}: expected 6 fields: {text}");
        let epsilon: f64 = num(f[4], line);
        if epsilon.is_nan() || epsilon >= SKIP_AT {
            skipped += 1;
            continue;
        }
        rows.push(Row {
            line,
            text: text.to_string(),
            q: num(f[0], line),
            sigma: num(f[1], line),
            steps: num(f[2], line),
            delta: num(f[3], line),
            epsilon,
        });
    }
    (rows, skipped)
}

/// (|upper − theirs|/theirs, the row's report, whether it passes).
fn check(r: &Row) -> (f64, String, bool) {
    let (upper, lower) = pld::gaussian_epsilon(r.sigma, r.q, r.steps, r.delta, pld::DEFAULT_STEP)
        .unwrap_or_else(|e| panic!("line {}: {}: {e}", r.line, r.text));
    let theirs = r.epsilon;
    let rel = (upper - theirs) / theirs;
    let close = rel.abs() <= TOLERANCE;
    let inside = lower <= theirs * (1.0 + TOLERANCE) && theirs <= upper * (1.0 + TOLERANCE);
    let report = format!(
        "line {} ({}): ours [{lower:.9}, {upper:.9}], dp_accounting {theirs:.9}, \
         (upper − theirs)/theirs = {rel:+.2e}{}{}",
        r.line,
        r.text,
        if close {
            ""
        } else {
            "; (a) upper not within 0.2%"
        },
        if inside {
            ""
        } else {
            "; (b) theirs outside the band"
        },
    );
    (rel.abs(), report, close && inside)
}

#[test]
fn agrees_with_dp_accounting_pld() {
    let (rows, skipped) = rows();
    assert!(
        rows.len() >= MIN_ROWS,
        "only {} usable rows (need {MIN_ROWS}): truncated table?",
        rows.len()
    );
    // The rows are independent: deal them out over the available cores (interleaved, since the
    // cost grows along the table).
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let rows = &rows;
    let results: Vec<(f64, String, bool)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                s.spawn(move || {
                    rows.iter()
                        .skip(w)
                        .step_by(workers)
                        .map(check)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker panicked"))
            .collect()
    });
    let worst = results
        .iter()
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|r| r.1.clone())
        .unwrap_or_default();
    let failures: Vec<&str> = results
        .iter()
        .filter(|r| !r.2)
        .map(|r| r.1.as_str())
        .collect();
    println!(
        "{} rows checked, {skipped} skipped (ε ≥ {SKIP_AT}); largest |upper − theirs|: {}",
        rows.len(),
        worst
    );
    assert!(
        failures.is_empty(),
        "{} of {} rows disagree with dp_accounting:\n{}",
        failures.len(),
        rows.len(),
        failures.join("\n")
    );
}
