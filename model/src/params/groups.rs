//! Groups of parameters that belong together (a mechanism and its noise, a sampling scheme and its
//! sizes, a training run's length), each declared once with the rules that say when a member
//! matters. A page's controls and a figure's parameter list are built from groups ([`params!`]);
//! which controls are shown (the site's `pages::is_relevant`) and the CLI's conditional flags
//! (required when, refused unless) are derived from the same rules.
//!
//! A group applies to a view (a page or an embed) when the view shows every one of its members,
//! so the same parameter can follow different rules in different contexts (n is read only without
//! replacement where the rate is q, and with either fixed-size scheme where it is p).

use super::{ParamSpec, ParamValues, Value};

/// A member matters only while a choice parameter has one of some values.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The member it governs.
    pub param: &'static ParamSpec,
    /// The choice parameter it looks at.
    pub when: &'static ParamSpec,
    /// The option ids of `when` under which `param` matters.
    pub is: &'static [&'static str],
}

/// Parameters declared together, with their rules.
#[derive(Debug)]
pub struct Group {
    /// A short name (for messages and tests).
    pub name: &'static str,
    /// The members, in the order their controls appear.
    pub params: &'static [&'static ParamSpec],
    /// When members matter (a member without a rule always matters).
    pub rules: &'static [Rule],
}

impl Rule {
    /// Whether the rule holds for these values (its choice parameter has one of its options).
    pub fn holds(&self, values: &ParamValues) -> bool {
        match (values.get(self.when), self.when.domain) {
            (Value::Choice(i), super::Domain::Choice(options)) => {
                options.get(i).is_some_and(|o| self.is.contains(&o.id))
            }
            _ => true,
        }
    }
}

impl Group {
    /// Whether the group applies to a view that shows `shown`: every member is shown.
    pub fn applies(&self, shown: &[&ParamSpec]) -> bool {
        self.params
            .iter()
            .all(|p| shown.iter().any(|s| s.name == p.name))
    }

    /// Whether `spec` matters at these values by this group's rules, in a view that shows `shown`
    /// (a rule whose choice parameter the view does not show does not apply).
    pub fn allows(&self, values: &ParamValues, spec: &ParamSpec, shown: &[&ParamSpec]) -> bool {
        self.rules_for(spec)
            .filter(|r| shown.iter().any(|s| s.name == r.when.name))
            .all(|r| r.holds(values))
    }

    /// The rules governing `spec`.
    pub fn rules_for<'a>(&'a self, spec: &'a ParamSpec) -> impl Iterator<Item = &'a Rule> + 'a {
        self.rules.iter().filter(move |r| r.param.name == spec.name)
    }
}

/// The total length of several lists (for [`params!`]).
pub const fn total(parts: &[&[&'static ParamSpec]]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < parts.len() {
        n += parts[i].len();
        i += 1;
    }
    n
}

/// Several lists one after the other, as one array of N entries (for [`params!`]; N must be
/// their total length, and a parameter listed twice is a compile-time error).
pub const fn concat<const N: usize>(parts: &[&[&'static ParamSpec]]) -> [&'static ParamSpec; N] {
    assert!(total(parts) == N && N > 0, "params!: wrong length");
    let mut first = 0;
    while parts[first].is_empty() {
        first += 1;
    }
    let mut out = [parts[first][0]; N];
    let mut k = 0;
    let mut i = 0;
    while i < parts.len() {
        let mut j = 0;
        while j < parts[i].len() {
            let mut m = 0;
            while m < k {
                assert!(
                    !same(out[m].name, parts[i][j].name),
                    "params!: a parameter listed twice"
                );
                m += 1;
            }
            out[k] = parts[i][j];
            k += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// A `&'static [&'static ParamSpec]` made of groups' members and single parameters, at compile
/// time: `params![p::NOISE.params, &[p::DELTA.spec, p::TARGET_EPS.spec]]`. Each part is a
/// slice of `&'static ParamSpec`.
#[macro_export]
macro_rules! params {
    ($($part:expr),+ $(,)?) => {{
        const PARTS: &[&[&'static $crate::params::ParamSpec]] = &[$($part),+];
        const N: usize = $crate::params::groups::total(PARTS);
        const LIST: [&'static $crate::params::ParamSpec; N] =
            $crate::params::groups::concat::<N>(PARTS);
        &LIST
    }};
}
