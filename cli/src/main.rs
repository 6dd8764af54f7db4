//! `amplify`: the explorer's numbers as JSON and its figures as SVG, from the same code as the app.
//!
//! Exit status 0 on success, 2 with one line on stderr for any bad argument or impossible request.
#![forbid(unsafe_code)]

use std::collections::BTreeMap;
use std::process::ExitCode;

use amp_math::limits;
use amp_math::rdp_accounting::{
    delta_for_epsilon, epsilon_for_delta, subsampled, Bound, Conversion,
};
use amp_math::subsampling::{amplify, base_for_target, Scheme};
use amp_math::EpsDelta;
use amp_plots::figures::{figure, renyi, FIGURES};
use amp_plots::format::{compact_number, json_string};
use amp_plots::pages::{check_together, sampling};
use amp_plots::param as p;
use amp_plots::params::{by_name_or_alias as param_or_alias, ParamValues, PARAMS};
use amp_plots::svg::{render_svg, SIZE};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(out) => {
            if !out.is_empty() {
                println!("{out}");
            }
            ExitCode::SUCCESS
        }
        Err(msg) => {
            // One line, whatever the message contained.
            eprintln!("amplify: {}", msg.replace('\n', " "));
            ExitCode::from(2)
        }
    }
}

fn usage() -> String {
    let mut s = String::from(
        "amplify: privacy amplification numbers and figures\n\n\
         usage:\n  \
         amplify subsample --scheme poisson|without-replacement|with-replacement --eps E [--delta D]\n                    \
         (--p P | --m M --n N) [--invert] [--json]\n  \
         amplify ratio (--eps E --p P | --c C) [--json]\n  \
         amplify regime --dataset-size N --batch-size B (--epochs E | --steps K) --total-eps E [--json]\n  \
         amplify accuracy --eps E (--rate R | --target-q Q) [--delta D] [--json]\n  \
         amplify median-sim [--population lognormal|bimodal|beta] --eps E --n SAMPLE [--N POP] [--runs T] [--seed S] [--json]\n  \
         amplify rdp --mechanism gaussian|laplace|randomized-response|kary-randomized-response (--sigma S | --scale B | --eps E [--k K])\n              \
         [--q Q [--scheme poisson|without-replacement] [--n N]] [--bound exact|upper|lower] --orders A1,A2,... [--json]\n  \
         amplify account --accountant rdp --mechanism ... --q Q [--scheme ...] [--n N] --steps K (--delta D | --target-eps E)\n                  \
         [--conversion improved|classic] [--json]\n  \
         amplify account --accountant pld --mechanism gaussian|laplace (--sigma S | --scale B) --q Q --steps K (--delta D | --target-eps E) [--grid H] [--json]\n  \
         amplify account --accountant pld --mechanism randomized-response|kary-randomized-response --eps E [--k K] --steps K (--delta D | --target-eps E) [--json]\n  \
         amplify calibrate --q Q --steps K --delta D --target-eps E [--accountant pld|rdp] [--grid H] [--json]\n  \
         amplify shuffle --eps0 E0 --users N --delta D --bound efmrtt19|bbgn19-hoeffding|bbgn19-bennett|fmt21|fmt21-numerical|best\n                  \
         [--randomizer generic|k-rr [--k K]] [--json]\n  \
         amplify shuffle --target-eps E --users N --delta D --bound ... --invert [--randomizer ...] [--json]\n  \
         amplify subsampled-rr --eps E --p P [--json]\n  \
         amplify iteration --iterations T --sigma S [--delta D] [--step-size H --smoothness B] [--json]\n  \
         amplify figures [--json]\n  \
         amplify plot <figure-id> [--<parameter> VALUE ...] --out FILE [--format svg|csv|json] [--width W] [--height H]\n\n\
         parameters:\n",
    );
    for p in PARAMS {
        s.push_str(&format!(
            "  --{:<10} {} ({}; default {})\n",
            if p.aliases.is_empty() {
                p.name.to_string()
            } else {
                format!("{} (or --{})", p.name, p.aliases.join(", --"))
            },
            p.help,
            p.domain_text(),
            p.format(p.default)
        ));
    }
    s.trim_end().to_string()
}

/// Flags as given: `--name value` or `--name=value`; switches (`--json`, `--invert`) map to "".
struct Flags {
    values: BTreeMap<String, String>,
    positional: Vec<String>,
}

const SWITCHES: &[&str] = &["json", "invert", "help"];

fn parse_flags(args: &[String]) -> Result<Flags, String> {
    let mut values = BTreeMap::new();
    let mut positional = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if let Some(flag) = a.strip_prefix("--") {
            let (name, value) = match flag.split_once('=') {
                Some((n, v)) => (n.to_string(), Some(v.to_string())),
                None => (flag.to_string(), None),
            };
            let value = if SWITCHES.contains(&name.as_str()) {
                if value.is_some() {
                    return Err(format!("--{name} takes no value"));
                }
                String::new()
            } else if let Some(v) = value {
                v
            } else {
                i += 1;
                args.get(i)
                    .cloned()
                    .ok_or_else(|| format!("--{name} needs a value"))?
            };
            if values.insert(name.clone(), value).is_some() {
                return Err(format!("--{name} is given twice"));
            }
        } else {
            positional.push(a.clone());
        }
        i += 1;
    }
    Ok(Flags { values, positional })
}

/// Parameter values from flags, through the shared declarations; `allowed` limits which
/// parameters the command reads, `extra` names its other flags.
fn param_values(flags: &Flags, allowed: &[&str], extra: &[&str]) -> Result<ParamValues, String> {
    let mut values = ParamValues::default();
    for (name, text) in &flags.values {
        if extra.contains(&name.as_str()) {
            continue;
        }
        let spec = param_or_alias(name);
        let Some(spec) = spec.filter(|s| allowed.contains(&s.name)) else {
            return Err(if spec.is_some() {
                format!(
                    "--{name} is not used here (this command reads: {})",
                    flag_list(allowed)
                )
            } else {
                format!("unknown option --{name} (see amplify --help)")
            });
        };
        values.set_text(spec, text)?;
    }
    check_together(&values).map_err(|(_, msg)| msg)?;
    Ok(values)
}

/// Whether the parameter `name` was given, under its name or an alias.
fn given(flags: &Flags, name: &str) -> bool {
    flags
        .values
        .keys()
        .any(|k| param_or_alias(k).is_some_and(|s| s.name == name))
}

fn flag_list(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("--{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn run(args: &[String]) -> Result<String, String> {
    let Some(command) = args.first() else {
        return Err(
            "no command given (subsample, ratio, regime, accuracy, median-sim, rdp, account, calibrate, shuffle, subsampled-rr, iteration, figures or plot; see amplify --help)"
                .into(),
        );
    };
    let flags = parse_flags(&args[1..])?;
    match command.as_str() {
        "--help" | "-h" | "help" => Ok(usage()),
        "subsample" => subsample(&flags),
        "figures" => figures(&flags),
        "ratio" => ratio(&flags),
        "accuracy" => accuracy_cmd(&flags),
        "median-sim" => median_sim_cmd(&flags),
        "regime" => regime_cmd(&flags),
        "plot" => plot(&flags),
        "rdp" => rdp_cmd(&flags),
        "account" => account_cmd(&flags),
        "calibrate" => calibrate_cmd(&flags),
        "iteration" => iteration_cmd(&flags),
        "shuffle" => shuffle_cmd(&flags),
        "subsampled-rr" => subsampled_rr_cmd(&flags),
        other => Err(format!(
            "unknown command “{other}” (subsample, ratio, regime, accuracy, median-sim, rdp, account, calibrate, shuffle, subsampled-rr, iteration, figures or plot; see amplify --help)"
        )),
    }
}

fn subsample(flags: &Flags) -> Result<String, String> {
    if !flags.positional.is_empty() {
        return Err(format!("unexpected argument “{}”", flags.positional[0]));
    }
    if !flags.values.contains_key("eps") {
        return Err("--eps is required".into());
    }
    let scheme_id = flags
        .values
        .get("scheme")
        .map(String::as_str)
        .unwrap_or("poisson");
    let scheme = Scheme::from_id(scheme_id).ok_or_else(|| {
        format!(
            "--scheme must be poisson, without-replacement or with-replacement, not “{scheme_id}”"
        )
    })?;
    let sizes: &[&str] = match scheme {
        Scheme::Poisson => &["p"],
        _ => &["m", "n"],
    };
    for needed in sizes {
        if !flags.values.contains_key(*needed) {
            return Err(format!(
                "--scheme {} needs {}",
                scheme.id(),
                flag_list(sizes)
            ));
        }
    }
    let mut allowed = vec!["scheme", "eps", "delta"];
    allowed.extend_from_slice(sizes);
    let values = param_values(flags, &allowed, &["json", "invert"])?;
    let s = sampling(&values);
    let given =
        EpsDelta::new(values.real(p::EPS), values.real(p::DELTA)).map_err(|e| e.to_string())?;
    let invert = flags.values.contains_key("invert");
    let json = flags.values.contains_key("json");
    // (ε, δ or why there is none, relation)
    let (eps, delta, relation) = if invert {
        let b = base_for_target(&s, given).map_err(|e| e.to_string())?;
        (b.epsilon, b.delta.map_err(|e| e.to_string()), b.relation)
    } else {
        let a = amplify(&s, given).map_err(|e| e.to_string())?;
        (a.guarantee.epsilon, Ok(a.guarantee.delta), a.relation)
    };
    if !eps.is_finite() || delta.as_ref().is_ok_and(|d| !d.is_finite()) {
        return Err("the result is not a finite number".into());
    }
    if json {
        let delta_json = match &delta {
            Ok(d) => compact_number(*d),
            Err(why) => format!("null,\"delta_note\":{}", json_string(why)),
        };
        return Ok(format!(
            "{{\"scheme\":{},\"relation\":{},\"epsilon\":{},\"delta\":{}}}",
            json_string(scheme.id()),
            json_string(relation.id()),
            compact_number(eps),
            delta_json
        ));
    }
    let delta_text = match &delta {
        Ok(d) => compact_number(*d),
        Err(why) => format!("none ({why})"),
    };
    if invert {
        Ok(format!(
            "base ε = {}, δ = {} for the target ε′ = {}, δ′ = {} ({}, {})",
            compact_number(eps),
            delta_text,
            compact_number(given.epsilon),
            compact_number(given.delta),
            scheme.label(),
            relation.label()
        ))
    } else {
        Ok(format!(
            "ε′ = {}, δ′ = {} ({}, {})",
            compact_number(eps),
            delta_text,
            scheme.label(),
            relation.label()
        ))
    }
}

/// Print a flat JSON object, or `key = value` lines.
fn output(flags: &Flags, pairs: &[(&str, f64)]) -> Result<String, String> {
    if let Some((k, _)) = pairs.iter().find(|(_, v)| !v.is_finite()) {
        return Err(format!("{k} is not a finite number at these settings"));
    }
    if flags.values.contains_key("json") {
        let body: Vec<String> = pairs
            .iter()
            .map(|(k, v)| format!("{}:{}", json_string(k), compact_number(*v)))
            .collect();
        Ok(format!("{{{}}}", body.join(",")))
    } else {
        Ok(pairs
            .iter()
            .map(|(k, v)| format!("{k} = {}", compact_number(*v)))
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

fn no_positional(flags: &Flags) -> Result<(), String> {
    match flags.positional.first() {
        Some(a) => Err(format!("unexpected argument “{a}”")),
        None => Ok(()),
    }
}

/// A JSON value for [`object`]: a number (null when not finite), a string, a flag, or null.
enum Json {
    Num(f64),
    Text(String),
    Flag(bool),
    Null,
}

/// A flat JSON object, or `key = value` lines (nulls left out of the lines).
fn object(flags: &Flags, pairs: &[(&str, Json)]) -> String {
    let json = flags.values.contains_key("json");
    let text = |v: &Json| match v {
        Json::Num(x) if x.is_finite() => Some(compact_number(*x)),
        Json::Num(_) | Json::Null => None,
        Json::Text(t) => Some(if json { json_string(t) } else { t.clone() }),
        Json::Flag(b) => Some(b.to_string()),
    };
    if json {
        let body: Vec<String> = pairs
            .iter()
            .map(|(k, v)| {
                format!(
                    "{}:{}",
                    json_string(k),
                    text(v).unwrap_or_else(|| "null".into())
                )
            })
            .collect();
        format!("{{{}}}", body.join(","))
    } else {
        pairs
            .iter()
            .filter_map(|(k, v)| text(v).map(|t| format!("{k} = {t}")))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// `amplify shuffle`: the central ε of one shuffle bound (or the tightest valid one) at
/// (ε₀, n, δ), or with `--invert` the largest ε₀ that meets a target central ε (replace one).
fn shuffle_cmd(flags: &Flags) -> Result<String, String> {
    use amp_math::shuffle::{
        best_with, largest_eps0_over, shuffle_epsilon_with, Bound, Choice, Randomizer,
    };
    no_positional(flags)?;
    let bound_text = flags
        .values
        .get("bound")
        .ok_or("shuffle needs --bound (efmrtt19, bbgn19-hoeffding, bbgn19-bennett, fmt21, fmt21-numerical or best)")?;
    let choice = Choice::from_id(bound_text).ok_or_else(|| {
        format!(
            "--bound “{}” is not one of efmrtt19, bbgn19-hoeffding, bbgn19-bennett, fmt21, fmt21-numerical, best",
            amp_plots::format::escape_display(bound_text)
        )
    })?;
    let invert = flags.values.contains_key("invert");
    let needed: &[&str] = if invert {
        &["target-eps", "users", "delta"]
    } else {
        &["eps0", "users", "delta"]
    };
    for n in needed {
        if !given(flags, n) {
            return Err(format!(
                "shuffle{} needs --{n}",
                if invert { " --invert" } else { "" }
            ));
        }
    }
    let mut allowed = needed.to_vec();
    allowed.extend(["randomizer", "k"]);
    let v = param_values(flags, &allowed, &["json", "invert", "bound"])?;
    if given(flags, "k") && v.choice(p::RANDOMIZER) != amp_plots::params::RandomizerKind::KRr {
        return Err("--k only applies with --randomizer k-rr".into());
    }
    let randomizer = amp_plots::figures::shuffle::randomizer(&v);
    let (n, delta) = (v.count(p::USERS), v.real(p::DELTA));
    let e = |x: amp_math::MathError| x.to_string();
    let r_text = match randomizer {
        Randomizer::Generic => "generic".to_string(),
        Randomizer::KRr { k } => format!("{k}-rr"),
    };
    if invert {
        let target = v.real(p::TARGET_EPS);
        let bounds: Vec<Bound> = match choice {
            Choice::Best => Bound::ALL.to_vec(),
            Choice::One(b) => vec![b],
        };
        let (b, l) = largest_eps0_over(&bounds, randomizer, target, n, delta).map_err(e)?;
        return Ok(object(
            flags,
            &[
                ("bound", Json::Text(b.id().into())),
                ("eps0", Json::Num(l.eps0)),
                ("target_epsilon", Json::Num(target)),
                ("delta", Json::Num(delta)),
                ("users", Json::Num(n as f64)),
                ("randomizer", Json::Text(r_text)),
                ("relation", Json::Text("replace-one".into())),
                (
                    "limited_by_validity",
                    l.limited_by_validity
                        .map_or(Json::Null, |t| Json::Text(t.into())),
                ),
            ],
        ));
    }
    let eps0 = v.real(p::EPS0);
    let r = match choice {
        Choice::Best => best_with(randomizer, eps0, n, delta).map_err(e)?,
        Choice::One(b) => shuffle_epsilon_with(b, randomizer, eps0, n, delta).map_err(e)?,
    };
    let num = |x: Option<f64>| x.map_or(Json::Null, Json::Num);
    // Lower and upper where the bound has both: the exact clone evaluation's two ends.
    let (lower, upper) = match r.exact_lower {
        Some(lo) => (num(Some(lo)), num(r.epsilon)),
        None => (Json::Null, Json::Null),
    };
    Ok(object(
        flags,
        &[
            ("bound", Json::Text(r.bound.id().into())),
            ("epsilon", num(r.epsilon)),
            ("valid", Json::Flag(r.valid)),
            ("epsilon_lower", lower),
            ("epsilon_upper", upper),
            ("published_lower", num(r.lower)),
            ("published_upper", num(r.upper)),
            ("no_amplification", Json::Flag(r.no_amplification)),
            (
                "reason_invalid",
                r.reason_invalid
                    .map_or(Json::Null, |t| Json::Text(t.into())),
            ),
            ("randomizer", Json::Text(r_text)),
            ("relation", Json::Text("replace-one".into())),
        ],
    ))
}

/// `amplify subsampled-rr --eps E --p P`: randomized response on a Poisson sample (seed 004,
/// §1.3): its exact ε, the subsampling theorem and the linear heuristic εp.
fn subsampled_rr_cmd(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    for n in ["eps", "p"] {
        if !given(flags, n) {
            return Err(format!("subsampled-rr needs --{n}"));
        }
    }
    let v = param_values(flags, &["eps", "p"], &["json"])?;
    let s = amp_math::shuffle::subsampled_rr(v.real(p::EPS), v.real(p::P))
        .map_err(|e| e.to_string())?;
    output(
        flags,
        &[
            ("epsilon_exact", s.exact),
            ("epsilon_theorem", s.theorem),
            ("epsilon_linear", s.linear),
        ],
    )
}

/// `amplify iteration --iterations T --sigma S [--delta D] [--step-size H --smoothness B]`: ε at
/// δ of the last iterate of one pass of noisy SGD for the first record, the middle one, and
/// without amplification (Feldman, Mironov, Talwar & Thakurta 2018; replace one).
fn iteration_cmd(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    for needed in ["iterations", "sigma"] {
        if !given(flags, needed) {
            return Err(format!("iteration needs --{needed}"));
        }
    }
    let v = param_values(
        flags,
        &["iterations", "sigma", "step-size", "smoothness", "delta"],
        &["json"],
    )?;
    let r = amp_plots::figures::iteration::readouts(&v);
    output(
        flags,
        &[
            ("epsilon_first", r.first.map_err(|e| e.to_string())?),
            ("epsilon_middle", r.middle.map_err(|e| e.to_string())?),
            ("epsilon_plain", r.composition.map_err(|e| e.to_string())?),
            ("delta", v.real(p::DELTA)),
        ],
    )
}

/// `amplify ratio --eps E --p P` or `amplify ratio --c C` (seed 001, eqs. 6–8).
fn ratio(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    let e = |x: amp_math::MathError| x.to_string();
    if given(flags, "c") {
        if given(flags, "eps") || given(flags, "p") {
            return Err("ratio takes either --c, or --eps and --p".into());
        }
        let v = param_values(flags, &["c"], &["json"])?;
        let c = v.real(p::C);
        return output(
            flags,
            &[
                ("ratio_floor", limits::ratio_floor(c).map_err(e)?),
                ("noise_factor", limits::noise_factor_bound(c).map_err(e)?),
            ],
        );
    }
    if !given(flags, "eps") || !given(flags, "p") {
        return Err("ratio needs --eps and --p (or --c)".into());
    }
    let v = param_values(flags, &["eps", "p"], &["json"])?;
    let (eps, p) = (v.real(p::EPS), v.real(p::P));
    let (lower, upper) = limits::noise_ratio_bounds(eps, p).map_err(e)?;
    output(
        flags,
        &[
            ("epsilon_p", limits::epsilon_p(eps, p).map_err(e)?),
            ("noise_ratio", limits::noise_ratio(eps, p).map_err(e)?),
            ("noise_factor", limits::noise_factor(eps, p).map_err(e)?),
            ("lower_bound", lower),
            ("upper_bound", upper),
        ],
    )
}

/// `amplify regime --dataset-size N --batch-size B (--epochs E | --steps K) --total-eps E`.
fn regime_cmd(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    for (needed, flag) in [
        ("dataset", "--dataset-size"),
        ("batch", "--batch-size"),
        ("total-eps", "--total-eps"),
    ] {
        if !given(flags, needed) {
            return Err(format!("regime needs {flag}"));
        }
    }
    let duration = match (given(flags, "epochs"), given(flags, "steps")) {
        (true, false) => "epochs",
        (false, true) => "steps",
        _ => return Err("regime needs exactly one of --epochs and --steps".into()),
    };
    let v = param_values(
        flags,
        &["dataset", "batch", "total-eps", duration],
        &["json"],
    )?;
    let d = if duration == "epochs" {
        limits::Duration::Epochs(v.real(p::EPOCHS))
    } else {
        limits::Duration::Steps(v.count(p::STEPS))
    };
    let (dataset, batch, total) = (v.count(p::DATASET), v.count(p::BATCH), v.real(p::TOTAL_EPS));
    let r = limits::regime(dataset, batch, d, total).map_err(|x| x.to_string())?;
    let numbers = output(
        flags,
        &[
            ("p", r.p),
            ("steps", r.steps as f64),
            ("epochs", r.epochs),
            ("epsilon_per_step", r.epsilon_per_step),
            ("c", r.c),
            ("noise_factor", r.noise_factor),
            ("noise_factor_bound", r.noise_factor_bound),
        ],
    )?;
    let sentence = amp_plots::figures::regime_sentence(dataset, batch, total, &r);
    if flags.values.contains_key("json") {
        // One object: the numbers and the sentence the page shows.
        Ok(format!(
            "{},\"sentence\":{}}}",
            numbers.trim_end_matches('}'),
            json_string(&sentence)
        ))
    } else {
        Ok(format!("{numbers}\n{sentence}"))
    }
}

/// `amplify accuracy --eps E (--rate R | --target-q Q) [--delta D]` (seed 002, eqs. 5 and 8).
fn accuracy_cmd(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    if !given(flags, "eps") {
        return Err("accuracy needs --eps".into());
    }
    let by_rate = match (given(flags, "rate"), given(flags, "target-q")) {
        (true, false) => true,
        (false, true) => false,
        _ => return Err("accuracy needs exactly one of --rate and --target-q".into()),
    };
    let allowed: &[&str] = if by_rate {
        &["eps", "delta", "rate"]
    } else {
        &["eps", "delta", "target-q"]
    };
    let v = param_values(flags, allowed, &["json"])?;
    let e = |x: amp_math::MathError| x.to_string();
    let eps = v.real(p::EPS);
    let rate = if by_rate {
        v.real(p::RATE)
    } else {
        amp_math::accuracy::rate_for_variance_fraction(eps, v.real(p::TARGET_Q)).map_err(e)?
    };
    output(
        flags,
        &[
            (
                "epsilon_n",
                amp_math::accuracy::epsilon_n(eps, rate).map_err(e)?,
            ),
            (
                "delta_n",
                amp_math::accuracy::delta_n(v.real(p::DELTA), rate).map_err(e)?,
            ),
            (
                "q",
                amp_math::accuracy::variance_fraction(eps, rate).map_err(e)?,
            ),
            (
                "r",
                amp_math::accuracy::mean_noise_ratio(eps, rate).map_err(e)?,
            ),
            ("rate", rate),
        ],
    )
}

/// `amplify median-sim --population P --eps E --n SAMPLE --runs T --seed S [--N POP]`: one cell of
/// the median simulation of seed 002, the same numbers the app draws for that ε and sample size.
fn median_sim_cmd(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    for needed in ["eps", "n"] {
        if !given(flags, needed) {
            return Err(format!("median-sim needs --{needed}"));
        }
    }
    let v = param_values(
        flags,
        &["population", "eps", "n", "N", "runs", "seed"],
        &["json"],
    )?;
    let big_n = v.count(p::POPULATION_SIZE) as usize;
    let n = v.count(p::N) as usize;
    if n.is_multiple_of(2) || n > big_n {
        return Err(format!(
            "--n must be an odd sample size at most N = {big_n} (the median of an odd count)"
        ));
    }
    let mut config = amp_plots::figures::accuracy::sim_config(&v)?;
    let eps = v.real(p::EPS);
    config.epsilons = vec![eps];
    config.rates = vec![n as f64 / big_n as f64];
    let mut sim = amp_math::median_sim::Simulation::new(config).map_err(|e| e.to_string())?;
    sim.run_to_end();
    let cell = &sim.cells()[0];
    if cell.n != n {
        return Err(format!("internal: sample size {} instead of {n}", cell.n));
    }
    let pop = &sim.population_cells()[0];
    let q = |xs: &[f64]| amp_math::median_sim::quantiles(xs, &[0.25, 0.5, 0.75]);
    let ratio = q(&cell.sensitivity_ratio);
    let mags: Vec<f64> = cell.noise.iter().map(|x| x.abs()).collect();
    let noise = q(&mags);
    let pairs: Vec<(&str, f64)> = vec![
        ("epsilon_n", cell.epsilon_n),
        ("delta_n", cell.delta_n),
        ("sensitivity_ratio_q1", ratio[0]),
        ("sensitivity_ratio_median", ratio[1]),
        ("sensitivity_ratio_q3", ratio[2]),
        ("noise_magnitude_q1", noise[0]),
        ("noise_magnitude_median", noise[1]),
        ("noise_magnitude_q3", noise[2]),
        ("mse_sample", cell.mse()),
        ("mse_population", pop.mse()),
        ("population_median", sim.population().median()),
    ];
    output(flags, &pairs)
}

/// The mechanism flags of `rdp` and `account`: the mechanism's own parameter is required, the
/// others are refused.
fn rdp_setting(
    flags: &Flags,
    more_params: &[&str],
    more_flags: &[&str],
) -> Result<(ParamValues, renyi::RdpSetting), String> {
    if !given(flags, "mech") {
        return Err("--mechanism is required (gaussian, laplace, randomized-response or kary-randomized-response)".into());
    }
    let mech_text = flags
        .values
        .iter()
        .find(|(k, _)| param_or_alias(k).is_some_and(|s| s.name == "mech"))
        .map(|(_, v)| v.trim().to_string())
        .unwrap_or_default();
    let own: &[&str] = match mech_text.as_str() {
        "gaussian" => &["sigma"],
        "laplace" => &["scale"],
        "randomized-response" => &["eps"],
        "kary-randomized-response" => &["eps", "k"],
        other => {
            return Err(format!(
                "--mechanism must be gaussian, laplace, randomized-response or kary-randomized-response, not “{other}”"
            ))
        }
    };
    for needed in own {
        if !given(flags, needed) {
            return Err(format!("--mechanism {mech_text} needs --{needed}"));
        }
    }
    let sampled = given(flags, "q");
    if !sampled && (given(flags, "scheme") || given(flags, "n")) {
        return Err("--scheme and --n need --q (the sampling rate)".into());
    }
    if given(flags, "n")
        && flags.values.get("scheme").map(String::as_str) != Some("without-replacement")
    {
        return Err(
            "--n is used only with --scheme without-replacement (m = q·n of n records)".into(),
        );
    }
    let mut allowed: Vec<&str> = vec!["mech"];
    allowed.extend_from_slice(own);
    allowed.extend_from_slice(&["q", "scheme", "n"]);
    allowed.extend_from_slice(more_params);
    let mut other_flags: Vec<&str> = vec!["json"];
    other_flags.extend_from_slice(more_flags);
    let mut values = param_values(flags, &allowed, &other_flags)?;
    if !sampled {
        // No sampling: the base mechanism (q = 1 under Poisson is the base curve).
        values.set(p::Q.spec, amp_plots::params::Value::Real(1.0))?;
    }
    if given(flags, "scheme")
        && !given(flags, "n")
        && values.choice(p::SCHEME) == Scheme::WithoutReplacement
    {
        return Err(
            "--scheme without-replacement needs --n (the sample is m = q·n of n records)".into(),
        );
    }
    let st = renyi::setting(&values).map_err(|e| e.to_string())?;
    Ok((values, st))
}

/// `amplify rdp`: ε(α) of a base or subsampled mechanism at the given orders (seed 003).
fn rdp_cmd(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    let (values, st) = rdp_setting(flags, &["bound"], &["orders"])?;
    let orders_text = flags
        .values
        .get("orders")
        .ok_or("--orders is required (e.g. --orders 1.5,2,3)")?;
    if orders_text.len() > 10_000 {
        return Err("--orders is too long (at most 10,000 characters)".into());
    }
    let orders: Vec<f64> = orders_text
        .split(',')
        .map(|t| {
            let a: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("--orders: “{}” is not a number", t.trim()))?;
            if a > 1.0 && a <= amp_math::rdp::MAX_ORDER {
                Ok(a)
            } else {
                Err(format!(
                    "--orders: every order must be above 1 and at most 10,000 (got {a})"
                ))
            }
        })
        .collect::<Result<_, String>>()?;
    let bound: Bound = values.choice(p::BOUND);
    let rdp: Vec<f64> = orders
        .iter()
        .map(|&a| subsampled(&st.mech, st.sampling, bound, a).map_err(|e| e.to_string()))
        .collect::<Result<_, String>>()?;
    if rdp.iter().any(|v| !v.is_finite()) {
        return Err("the result is not a finite number at these settings".into());
    }
    if flags.values.contains_key("json") {
        let list = |v: &[f64]| {
            v.iter()
                .map(|x| compact_number(*x))
                .collect::<Vec<_>>()
                .join(",")
        };
        Ok(format!(
            "{{\"orders\":[{}],\"rdp\":[{}],\"bound\":{},\"relation\":{}}}",
            list(&orders),
            list(&rdp),
            json_string(bound.id()),
            json_string(st.sampling.relation().id())
        ))
    } else {
        Ok(orders
            .iter()
            .zip(&rdp)
            .map(|(a, r)| format!("ε({}) = {}", compact_number(*a), compact_number(*r)))
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

/// `amplify account --accountant rdp`: k compositions converted to (ε, δ) over the default order
/// grid (seed 003; Canonne, Kamath & Steinke 2020).
fn account_cmd(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    match flags.values.get("accountant").map(String::as_str) {
        Some("rdp") => {}
        Some("pld") => return account_pld(flags),
        Some(other) => {
            return Err(format!(
                "--accountant {other} is not available (rdp or pld)"
            ))
        }
        None => return Err("--accountant is required (rdp or pld)".into()),
    }
    if !given(flags, "steps") {
        return Err("--steps is required".into());
    }
    let (by_delta, by_eps) = (given(flags, "delta"), given(flags, "target-eps"));
    if by_delta == by_eps {
        return Err("give exactly one of --delta (to get ε) and --target-eps (to get δ)".into());
    }
    let (values, st) = rdp_setting(
        flags,
        &["steps", "delta", "target-eps", "conversion"],
        &["accountant"],
    )?;
    let conversion: Conversion = values.choice(p::CONVERSION);
    let curve = renyi::step_curve(&st)
        .map_err(|e| e.to_string())?
        .times(values.real(p::STEPS));
    let c = if by_delta {
        epsilon_for_delta(&curve, values.real(p::DELTA), conversion)
    } else {
        delta_for_epsilon(&curve, values.real(p::TARGET_EPS), conversion)
    }
    .map_err(|e| e.to_string())?;
    let exact = amp_math::rdp_accounting::guarantee_is_exact(&st.mech, st.sampling);
    if flags.values.contains_key("json") {
        if !(c.epsilon.is_finite() && c.delta.is_finite() && c.order.is_finite()) {
            return Err("the result is not a finite number at these settings".into());
        }
        Ok(format!(
            "{{\"epsilon\":{},\"delta\":{},\"order\":{},\"conversion\":{},\"curve\":{},\"relation\":{}}}",
            compact_number(c.epsilon),
            compact_number(c.delta),
            compact_number(c.order),
            json_string(conversion.id()),
            json_string(if exact { "exact" } else { "upper" }),
            json_string(st.sampling.relation().id())
        ))
    } else {
        output(
            flags,
            &[
                ("epsilon", c.epsilon),
                ("delta", c.delta),
                ("order", c.order),
            ],
        )
    }
}

/// `amplify account --accountant pld`: the tight accountant (privacy loss distributions, FFT
/// composition): a certified upper bound and a lower bound on ε (or δ).
fn account_pld(flags: &Flags) -> Result<String, String> {
    use amp_math::pld::{self, Estimate};
    use amp_math::rdp::Mechanism;
    use amp_math::rdp_accounting::Sampling;
    if !given(flags, "steps") {
        return Err("--steps is required".into());
    }
    let (by_delta, by_eps) = (given(flags, "delta"), given(flags, "target-eps"));
    if by_delta == by_eps {
        return Err("give exactly one of --delta (to get ε) and --target-eps (to get δ)".into());
    }
    if given(flags, "conversion") {
        return Err("--conversion applies to the RDP accountant only".into());
    }
    let (values, st) = rdp_setting(
        flags,
        &["steps", "delta", "target-eps"],
        &["accountant", "grid"],
    )?;
    let grid = grid_step(flags)?;
    let steps = values.real(p::STEPS);
    if steps.fract() != 0.0 || steps < 1.0 {
        return Err(format!(
            "--steps must be a whole number of at least 1 (got {steps})"
        ));
    }
    let q = match st.sampling {
        Sampling::Poisson { q } => q,
        Sampling::Full => 1.0,
        Sampling::WithoutReplacement { .. } => return Err(
            "the PLD accountant supports Poisson sampling (add/remove) only; use --scheme poisson"
                .into(),
        ),
    };
    if q == 0.0 {
        return Err("--q must be above 0 for the PLD accountant".into());
    }
    let build = |est: Estimate| -> Result<pld::PldPair, String> {
        let h = grid;
        let pair = match st.mech {
            Mechanism::Gaussian { sigma } => pld::poisson_gaussian(sigma, q, h, est),
            Mechanism::Laplace { scale } => pld::poisson_laplace(scale, q, h, est),
            Mechanism::RandomizedResponse { epsilon } if q == 1.0 => {
                pld::randomized_response(epsilon, 2, pld::step_dividing(epsilon, h), est)
            }
            Mechanism::KaryRandomizedResponse { epsilon, k } if q == 1.0 => {
                pld::randomized_response(epsilon, k, pld::step_dividing(epsilon, h), est)
            }
            _ => {
                return Err(
                    "randomized response is accounted without sampling here (omit --q)".into(),
                )
            }
        }
        .map_err(|e| e.to_string())?;
        pair.self_compose(steps as u64).map_err(|e| e.to_string())
    };
    let (hi, lo) = (build(Estimate::Pessimistic)?, build(Estimate::Optimistic)?);
    let relation = json_string(st.sampling.relation().id());
    let json = flags.values.contains_key("json");
    if by_delta {
        let delta = values.real(p::DELTA);
        let e_hi = hi.epsilon_for_delta(delta).map_err(|e| e.to_string())?;
        let e_lo = lo.epsilon_for_delta(delta).map_err(|e| e.to_string())?;
        if json {
            Ok(format!(
                "{{\"epsilon\":{},\"epsilon_lower\":{},\"delta\":{},\"accountant\":\"pld\",\"relation\":{}}}",
                compact_number(e_hi),
                compact_number(e_lo),
                compact_number(delta),
                relation
            ))
        } else {
            output(
                flags,
                &[("epsilon", e_hi), ("epsilon_lower", e_lo), ("delta", delta)],
            )
        }
    } else {
        let eps = values.real(p::TARGET_EPS);
        let (d_hi, d_lo) = (hi.delta_for_epsilon(eps), lo.delta_for_epsilon(eps));
        if json {
            Ok(format!(
                "{{\"epsilon\":{},\"delta\":{},\"delta_lower\":{},\"accountant\":\"pld\",\"relation\":{}}}",
                compact_number(eps),
                compact_number(d_hi),
                compact_number(d_lo),
                relation
            ))
        } else {
            output(
                flags,
                &[("epsilon", eps), ("delta", d_hi), ("delta_lower", d_lo)],
            )
        }
    }
}

/// The PLD grid step: `--grid H` (in [1e-6, 100]), default [`amp_math::pld::DEFAULT_STEP`]
/// (dp_accounting's default).
fn grid_step(flags: &Flags) -> Result<f64, String> {
    let Some(text) = flags.values.get("grid") else {
        return Ok(amp_math::pld::DEFAULT_STEP);
    };
    let (lo, hi) = amp_math::pld::STEP_RANGE;
    match text.trim().parse::<f64>() {
        Ok(h) if (lo..=hi).contains(&h) => Ok(h),
        _ => Err(format!(
            "--grid must be a number between {lo:e} and {hi} (the PLD grid step), not “{}”",
            text.trim()
        )),
    }
}

/// `amplify calibrate`: the noise multiplier σ of the Poisson-subsampled Gaussian that meets a
/// target ε at δ over k steps, with the PLD accountant (certified upper bound, default) or RDP.
fn calibrate_cmd(flags: &Flags) -> Result<String, String> {
    no_positional(flags)?;
    for need in ["q", "steps", "delta", "target-eps"] {
        if !given(flags, need) {
            return Err(format!("--{need} is required"));
        }
    }
    let accountant = flags
        .values
        .get("accountant")
        .map(String::as_str)
        .unwrap_or("pld");
    if !matches!(accountant, "pld" | "rdp") {
        return Err(format!(
            "--accountant {accountant} is not available (pld or rdp)"
        ));
    }
    let values = param_values(
        flags,
        &["q", "steps", "delta", "target-eps"],
        &["accountant", "json", "grid"],
    )?;
    let grid = grid_step(flags)?;
    let (q, steps, delta, target) = (
        values.real(p::Q),
        values.real(p::STEPS),
        values.real(p::DELTA),
        values.real(p::TARGET_EPS),
    );
    if q == 0.0 {
        return Err("--q must be above 0".into());
    }
    if steps.fract() != 0.0 || steps < 1.0 {
        return Err(format!(
            "--steps must be a whole number of at least 1 (got {steps})"
        ));
    }
    if delta <= 0.0 {
        return Err("--delta must be above 0".into());
    }
    let sigma = if accountant == "pld" {
        // The certified (pessimistic) bound alone: the σ found is enough.
        amp_math::pld::calibrate_sigma(
            |s| amp_math::pld::Noise::Gaussian(s).upper_epsilon(q, steps as u64, delta, grid),
            target,
        )
    } else {
        let orders = amp_math::rdp_accounting::default_orders();
        amp_math::pld::calibrate_sigma(
            |s| {
                let curve = amp_math::rdp_accounting::Curve::of(
                    &amp_math::rdp::Mechanism::Gaussian { sigma: s },
                    amp_math::rdp_accounting::Sampling::Poisson { q },
                    &orders,
                )?
                .times(steps);
                Ok(epsilon_for_delta(&curve, delta, Conversion::Improved)?.epsilon)
            },
            target,
        )
    }
    .map_err(|e| e.to_string())?;
    if flags.values.contains_key("json") {
        Ok(format!(
            "{{\"sigma\":{},\"accountant\":{}}}",
            compact_number(sigma),
            json_string(accountant)
        ))
    } else {
        output(flags, &[("sigma", sigma)])
    }
}

fn figures(flags: &Flags) -> Result<String, String> {
    if let Some(name) = flags.values.keys().find(|k| k.as_str() != "json") {
        return Err(format!("unknown option --{name} for figures"));
    }
    if flags.values.contains_key("json") {
        let items: Vec<String> = FIGURES
            .iter()
            .map(|f| {
                let params: Vec<String> = f.params.iter().map(|p| json_string(p.name)).collect();
                format!(
                    "{{\"id\":{},\"title\":{},\"page\":{},\"params\":[{}]}}",
                    json_string(f.id.as_str()),
                    json_string(f.title),
                    json_string(f.page.id()),
                    params.join(",")
                )
            })
            .collect();
        Ok(format!("[{}]", items.join(",")))
    } else {
        Ok(FIGURES
            .iter()
            .map(|f| format!("{:<28} {:<12} {}", f.id.as_str(), f.page.id(), f.title))
            .collect::<Vec<_>>()
            .join("\n"))
    }
}

fn plot(flags: &Flags) -> Result<String, String> {
    let id = match flags.positional.as_slice() {
        [id] => id,
        [] => return Err("plot needs a figure id (see amplify figures)".into()),
        [_, extra, ..] => return Err(format!("unexpected argument “{extra}”")),
    };
    let fig = figure(id).ok_or_else(|| format!("no figure “{id}” (see amplify figures)"))?;
    let out = flags
        .values
        .get("out")
        .ok_or("plot needs --out FILE (.svg, or .csv / .json with --format)")?;
    let format = flags.values.get("format").map_or("svg", String::as_str);
    if !["svg", "csv", "json"].contains(&format) {
        return Err(format!(
            "--format must be svg, csv or json, not “{}”",
            amp_plots::format::escape_display(format)
        ));
    }
    let dim = |name: &str, default: u32| -> Result<u32, String> {
        match flags.values.get(name) {
            None => Ok(default),
            Some(t) => t
                .parse::<u32>()
                .ok()
                .filter(|v| (200..=4000).contains(v))
                .ok_or_else(|| {
                    format!("--{name} must be a whole number of pixels from 200 to 4000")
                }),
        }
    };
    let size = (dim("width", SIZE.0)?, dim("height", SIZE.1)?);
    let names: Vec<&str> = fig.params.iter().map(|p| p.name).collect();
    let values = param_values(flags, &names, &["out", "width", "height", "format"])?;
    let chart = |v: &ParamValues| fig.chart(v).map_err(|e| e.to_string());
    let text = match format {
        "csv" => amp_plots::export::chart_csv(fig, &values, &chart(&values)?),
        "json" => amp_plots::export::chart_json(fig, &values, &chart(&values)?),
        _ => render_svg(fig, &values, size)?,
    };
    std::fs::write(out, text).map_err(|e| format!("cannot write {out}: {e}"))?;
    Ok(String::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use amp_plots::params::Domain;

    #[test]
    fn every_parameter_flag_is_documented_in_usage() {
        let u = usage();
        for p in PARAMS {
            assert!(u.contains(&format!("--{}", p.name)), "{}", p.name);
            if let Domain::Choice(options) = p.domain {
                for o in options {
                    assert!(u.contains(o.id));
                }
            }
        }
    }
}
