//! The work the web app hands to its compute worker, and the answers, as text both ways.
//!
//! The app runs everything that can take longer than a frame (a page's refined numbers, the
//! slow figures) in a Web Worker holding its own instance of the same WebAssembly module. The page
//! sends a request ([`Job::request`]): what to compute and the parameter values, every value that
//! differs from its default, each written as in a URL ([`amp_model::params::ParamSpec::format`],
//! which round-trips exactly). The worker calls [`answer`], which computes with the very code the
//! page and the CLI call ([`crate::pages::PageSpec::readouts`] at [`Precision::Fine`],
//! [`crate::figures::FigureSpec::chart`]), and sends back text the page reads with
//! [`read_readings`] or [`read_chart`]: the numbers come back bit for bit
//! ([`Readings::carry`], [`Chart::carry`]), so a worker's number equals the CLI's.
//!
//! A request is lines: first `r <page id>` (a page's refined numbers), `q <page id>` (its quick
//! numbers) or `f <figure id>` (a figure's chart), then `<parameter> <value>` a line (fields separated by a tab). An answer is
//! `r` and the numbers in [`Readings::carry`]'s form, `c` and a chart in [`Chart::carry`]'s form,
//! `e` and why the figure cannot be drawn (one sentence for the reader), or `x` and why the
//! request itself was refused (never, for a request the app wrote).

use crate::figures::{FigureId, FigureSpec};
use crate::pages::{Page, Precision, Readings};
use amp_chart::Chart;
use amp_model::param::{by_name, PARAMS};
use amp_model::params::ParamValues;

/// What a worker computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Job {
    /// A page's numbers at [`Precision::Fine`].
    Readings(Page),
    /// A page's numbers at [`Precision::Quick`] (on a page whose quick numbers can take longer
    /// than a frame).
    Quick(Page),
    /// A figure's chart.
    Chart(FigureId),
}

impl Job {
    /// The request for this job at `values` (see the module's description).
    pub fn request(self, values: &ParamValues) -> String {
        let mut out = match self {
            Job::Readings(p) => format!("r\t{}", p.id()),
            Job::Quick(p) => format!("q\t{}", p.id()),
            Job::Chart(f) => format!("f\t{}", f.as_str()),
        };
        for spec in PARAMS {
            let v = values.get(spec);
            if v != spec.default {
                out += &format!("\n{}\t{}", spec.name, spec.format(v));
            }
        }
        out
    }

    /// The compute worker's slot for this job (a newer request in a slot supersedes an older
    /// one): `quick:<page>`, `readings:<page>` or `figure:<figure id>` (`public/worker.js` names
    /// a figure's measure after it).
    pub fn slot(self) -> String {
        match self {
            Job::Readings(p) => format!("readings:{}", p.id()),
            Job::Quick(p) => format!("quick:{}", p.id()),
            Job::Chart(f) => format!("figure:{}", f.as_str()),
        }
    }

    /// The job and the values a request names; why not, in one sentence.
    pub fn parse(request: &str) -> Result<(Job, ParamValues), String> {
        let mut lines = request.split('\n');
        let head = lines.next().unwrap_or_default();
        let job = match head.split_once('\t') {
            Some(("r", id)) => {
                Job::Readings(Page::from_id(id).ok_or_else(|| format!("there is no page “{id}”"))?)
            }
            Some(("q", id)) => {
                Job::Quick(Page::from_id(id).ok_or_else(|| format!("there is no page “{id}”"))?)
            }
            Some(("f", id)) => Job::Chart(
                FigureId::from_id(id).ok_or_else(|| format!("there is no figure “{id}”"))?,
            ),
            _ => return Err("a request starts with r, q or f and an id".into()),
        };
        let mut values = ParamValues::default();
        for line in lines {
            let (name, text) = line
                .split_once('\t')
                .ok_or_else(|| format!("“{line}” is not a parameter and a value"))?;
            let spec = by_name(name).ok_or_else(|| format!("there is no parameter “{name}”"))?;
            values.set_text(spec, text)?;
        }
        Ok((job, values))
    }
}

/// Compute what a request asks for (see the module's description). Never panics on a bad
/// request: it is answered with `x` and the reason.
pub fn answer(request: &str) -> String {
    match Job::parse(request) {
        Err(why) => format!("x\n{why}"),
        Ok((Job::Readings(page), values)) => readings(page, &values, Precision::Fine),
        Ok((Job::Quick(page), values)) => readings(page, &values, Precision::Quick),
        Ok((Job::Chart(id), values)) => match chart(id.spec(), &values) {
            Ok(c) => format!("c\n{}", c.carry()),
            Err(why) => format!("e\n{why}"),
        },
    }
}

/// A page's numbers at `precision`, as an answer.
fn readings(page: Page, values: &ParamValues, precision: Precision) -> String {
    let spec = page.spec();
    format!("r\n{}", spec.carry(&(spec.readouts)(values, precision)))
}

/// A figure's chart as the app shows it: the reason in words where there is none. A figure
/// drawn from the median simulation is not the worker's (the page runs the simulation in slices
/// and draws from it): refused, so the simulation's code stays out of [`answer`]'s reach.
fn chart(spec: &FigureSpec, values: &ParamValues) -> Result<Chart, String> {
    spec.chart_with(values, None).map_err(|e| e.to_string())
}

/// The numbers of `page` in a worker's answer; `None` if the answer is not that.
pub fn read_readings(page: Page, answer: &str) -> Option<Readings> {
    page.spec().adopt(answer.strip_prefix("r\n")?)
}

/// The chart in a worker's answer, or why the figure cannot be drawn; `None` if the answer is
/// neither.
pub fn read_chart(answer: &str) -> Option<Result<Chart, String>> {
    let (kind, body) = answer.split_once('\n')?;
    match kind {
        "c" => Chart::adopt(body).map(Ok),
        "e" => Some(Err(body.to_string())),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::figures::FIGURES;
    use amp_model::params::Value;

    /// The worker's chart is the page's chart: every figure at its defaults and at other
    /// values, compared through `Debug` (which writes every number in its shortest round-trip
    /// form, so equal text is equal bits, NaN included).
    #[test]
    fn a_chart_comes_back_bit_for_bit() {
        let mut other = ParamValues::default();
        for spec in PARAMS {
            // Every slider a quarter of the way along: values no default shares.
            if let Some(v) = spec.from_slider(ParamSpec::SLIDER_STEPS / 4) {
                if spec.check(v).is_ok() {
                    other.set(spec, v).unwrap();
                }
            }
        }
        let mut drawn = 0;
        for values in [ParamValues::default(), other] {
            for f in FIGURES.iter().filter(|f| !f.is_simulated()) {
                let direct = f.chart(&values).map_err(|e| e.to_string());
                let text = answer(&Job::Chart(f.id).request(&values));
                let back = read_chart(&text).expect("an answer the page reads");
                assert_eq!(format!("{back:?}"), format!("{direct:?}"), "{}", f.id);
                drawn += direct.is_ok() as usize;
            }
        }
        assert!(drawn > 50, "only {drawn} charts drawn");
    }

    use amp_model::params::ParamSpec;

    #[test]
    fn refined_numbers_come_back_bit_for_bit() {
        let mut values = ParamValues::default();
        values
            .set(by_name("sigma").unwrap(), Value::Real(0.8125))
            .unwrap();
        for (page, precision) in Page::ALL
            .into_iter()
            .flat_map(|p| [(p, Precision::Fine), (p, Precision::Quick)])
        {
            let spec = page.spec();
            let direct = (spec.readouts)(&values, precision);
            let job = match precision {
                Precision::Fine => Job::Readings(page),
                Precision::Quick => Job::Quick(page),
            };
            let back = read_readings(page, &answer(&job.request(&values)))
                .expect("an answer the page reads");
            assert_eq!(spec.carry(&back), spec.carry(&direct), "{}", page.id());
            for (a, b) in back.numbers.iter().zip(&direct.numbers) {
                assert_eq!(a.spec.id, b.spec.id);
                match (&a.value, &b.value) {
                    (Ok(x), Ok(y)) => assert_eq!(x.to_bits(), y.to_bits(), "{}", a.spec.id),
                    (x, y) => assert_eq!(x.is_ok(), y.is_ok(), "{}", a.spec.id),
                }
                assert_eq!(a.bound(), b.bound(), "{}", a.spec.id);
            }
        }
    }

    #[test]
    fn a_request_carries_every_value_that_is_not_a_default() {
        let mut values = ParamValues::default();
        values
            .set(by_name("eps").unwrap(), Value::Real(0.1 + 0.2))
            .unwrap();
        let text = Job::Readings(Page::Subsampling).request(&values);
        assert_eq!(text.lines().count(), 2, "{text}");
        let (job, back) = Job::parse(&text).unwrap();
        assert_eq!(job, Job::Readings(Page::Subsampling));
        assert_eq!(back, values);
        for job in [
            Job::Chart(FigureId::RdpBase),
            Job::Quick(Page::Risk),
            Job::Readings(Page::Training),
        ] {
            assert_eq!(
                Job::parse(&job.request(&ParamValues::default())),
                Ok((job, ParamValues::default()))
            );
        }
    }

    #[test]
    fn each_job_has_its_own_slot_and_a_figure_says_it_is_one() {
        let jobs = [
            Job::Quick(Page::Risk),
            Job::Readings(Page::Risk),
            Job::Chart(FigureId::TradeoffCurve),
        ];
        let slots: Vec<String> = jobs.iter().map(|j| j.slot()).collect();
        assert_eq!(
            slots,
            ["quick:risk", "readings:risk", "figure:tradeoff-curve"]
        );
    }

    #[test]
    fn the_views_that_use_the_worker_say_so() {
        use crate::pages::View;
        for (view, uses) in [
            (View::Page(Page::Risk), true),
            (View::Page(Page::Training), true),
            (View::Page(Page::Shuffling), true),
            (View::Page(Page::Subsampling), false),
            (View::Page(Page::Accuracy), false),
            (View::Embed(FigureId::TradeoffCurve.spec()), true),
            (View::Embed(FigureId::RdpBase.spec()), false),
        ] {
            assert_eq!(view.uses_worker(), uses, "{view:?}");
        }
    }

    #[test]
    fn a_bad_request_is_refused_in_words() {
        for bad in [
            "",
            "q\tx",
            "r\tnowhere",
            "f\tno-figure",
            "r\thome\neps",
            "r\thome\neps\t-3",
            "r\thome\nzzz\t1",
        ] {
            let a = answer(bad);
            assert!(a.starts_with("x\n") && a.len() > 3, "{bad:?} → {a:?}");
        }
        assert_eq!(read_chart("x\nwhy"), None);
        assert_eq!(read_chart("c\n1\t2"), None);
        assert!(read_readings(Page::Home, "c\nsomething").is_none());
    }

    #[test]
    fn a_malformed_chart_text_is_refused() {
        let c = FigureId::RdpBase
            .spec()
            .chart(&ParamValues::default())
            .unwrap();
        let text = c.carry();
        assert!(Chart::adopt(&text).is_some());
        assert!(Chart::adopt(&format!("{text}\textra")).is_none());
        let cut: Vec<&str> = text.split('\t').collect();
        assert!(Chart::adopt(&cut[..cut.len() - 1].join("\t")).is_none());
        assert!(Chart::adopt("x\t0\t0\t1\t99999999999\t").is_none());
        assert!(Chart::adopt("bad\\q").is_none());
    }
}
