//! The shuffle model over many rounds: ε against the number of rounds (certified band and Rényi
//! DP), and the optimal attacker's trade-off after R rounds.

use super::*;

/// Rounds on the x axis of `shuffle-epsilon-vs-rounds`: 1 to max(1000, 10·R), at most 10⁵.
fn rounds_axis(r: u64) -> u64 {
    r.saturating_mul(10).clamp(1000, 100_000)
}

/// `shuffle-rounds`' certified band: ε at δ of the clone pair's loss distribution composed R
/// times, for each R of `rs`, from one release on the grid of the longest run `last` (every R from
/// one forward transform, at the quick bucket budget); (R, lower, upper), lower kept positive.
fn rounds_band(
    leaf: &amp_math::accounting::Event,
    last: u64,
    rs: &[u64],
    delta: f64,
) -> Result<Vec<(f64, f64, f64)>, ModelError> {
    use amp_math::pld::Band as PldBand;
    let err = |e: amp_math::MathError| e.to_string();
    let acc = amp_model::training::accountant(
        amp_model::training::QUICK,
        amp_math::accounting::EpochSettings::FINE,
    );
    let (step, up, lo) = acc.release(leaf, last).map_err(err)?;
    let ups = up.self_compose_many(rs).map_err(err)?;
    let los = lo.self_compose_many(rs).map_err(err)?;
    let mut band = Vec::with_capacity(rs.len());
    for ((&r, u), l) in rs.iter().zip(ups).zip(los) {
        let b = PldBand {
            step,
            upper: u,
            lower: l,
        };
        if let Ok((hi, lo)) = b.epsilon(delta) {
            if hi.is_finite() && hi > 0.0 {
                band.push((r as f64, lo.max(hi * 1e-6).min(hi), hi));
            }
        }
    }
    Ok(band)
}

/// `shuffle-rounds`' Rényi line: ε at δ of the clone pair's Rényi curve composed R times.
fn rounds_rdp(leaf: &amp_math::accounting::Event, rs: &[u64], delta: f64) -> Vec<(f64, f64)> {
    use amp_math::accounting::{Accountant, RdpAccountant};
    use amp_math::shuffle::rdp_orders;
    let rdp_acc = RdpAccountant {
        orders: rdp_orders(),
        ..Default::default()
    };
    rs.iter()
        .filter_map(|&r| {
            rdp_acc
                .epsilon(&leaf.clone().repeated(r), delta)
                .ok()
                .filter(|b| b.upper.is_finite() && b.upper > 0.0)
                .map(|b| (r as f64, b.upper))
        })
        .collect()
}

/// `shuffle-epsilon-vs-rounds`: central ε after R rounds against R (log axes) at the reader's
/// n, ε₀ and δ: the clone pair's privacy loss distribution composed R times (a certified band;
/// Koskela, Heikkilä & Honkela 2023 compose this pair numerically), the one-round ε composed by
/// the classic theorems (the better of basic and advanced), and Rényi DP of the same pair
/// composed. FMT23's stronger clones for k-ary randomized response, FMT21's otherwise.
pub fn epsilon_vs_rounds(values: &ParamValues) -> ChartResult {
    use amp_math::accounting::Event;
    use amp_math::shuffle::{clone_numerical, clone_numerical_delta, composed_guarantee_epsilon};
    use amp_model::shuffle::{rounds, stronger_allowed};
    let (eps0, n, delta) = setting(values);
    let stronger = stronger_allowed(values);
    let here = values.count(p::ROUNDS);
    let last = rounds_axis(here);
    let mut rs: Vec<u64> = log_grid(1.0, last as f64, 25)
        .into_iter()
        .map(|x| x.round() as u64)
        .collect();
    rs.dedup();
    let leaf = Event::Shuffle {
        eps0,
        users: n,
        stronger,
    };
    let band = rounds_band(&leaf, last, &rs, delta)?;
    // The classic compositions of the one-round guarantee.
    let one_round = |d: f64| clone_numerical(eps0, n, stronger, d).map(|x| x.1);
    let one_round_delta = |e: f64| clone_numerical_delta(e, eps0, n, stronger).map(|x| x.1);
    let naive: Vec<(f64, f64)> = rs
        .iter()
        .filter_map(|&r| {
            composed_guarantee_epsilon(&one_round, &one_round_delta, eps0, r, delta)
                .ok()
                .filter(|(e, _)| e.is_finite() && *e > 0.0)
                .map(|(e, _)| (r as f64, e))
        })
        .collect();
    let rdp = rounds_rdp(&leaf, &rs, delta);
    if band.len() < 2 && naive.len() < 2 && rdp.len() < 2 {
        return Err(ModelError::from(format!(
            "at δ = {} the central ε is 0 at every R shown: nothing to draw on log axes",
            short_number(delta, 3)
        )));
    }
    let clones = if stronger {
        "stronger clones (FMT23)"
    } else {
        "clones (FMT21)"
    };
    let mut chart = Chart::new(
        Axis::numeric("rounds R", true, 1.0, last as f64),
        Axis::numeric("ε after R rounds", true, 0.01, 1.0),
        LegendCorner::UpperLeft,
        String::new(),
    );
    chart.bands.push(Band {
        label: format!("{clones}: loss distribution composed, certified band"),
        points: band.clone(),
    });
    chart.series.push(Series {
        label: "loss distribution composed (certified upper)".into(),
        points: band.iter().map(|&(x, _, hi)| (x, hi)).collect(),
        role: Role::Highlight,
    });
    chart.series.push(Series {
        label: "one-round (ε, δ) composed: basic or advanced theorem".into(),
        points: naive.clone(),
        role: Role::Family(0),
    });
    chart.series.push(Series {
        label: "Rényi DP of the clone pair, composed".into(),
        points: rdp,
        role: Role::Family(2),
    });
    let at = rounds(values, stronger, amp_model::training::FINE)?;
    chart.markers.push(Marker {
        x: here as f64,
        y: at.upper,
        label: format!("R = {here}: {}", short_number(at.upper, 4)),
    });
    let (y_lo, y_hi) = y_axis_of(&chart, &[]);
    chart.y.min = y_lo;
    chart.y.max = y_hi;
    chart.summary = format!(
        "Central ε (replace one) at δ = {} after R rounds of shuffling n = {n} users' ε₀ = {}-LDP reports ({clones}), R from 1 to {last}: the privacy loss distribution of the pair composed R times (certified band), the one-round guarantee composed by the basic or advanced composition theorem, and Rényi DP of the pair. At your R = {here}: {} by the loss distribution, {} by composing the one-round guarantee ({}).",
        short_number(delta, 3),
        short_number(eps0, 4),
        short_number(at.upper, 4),
        short_number(at.naive, 4),
        at.naive_method,
    );
    Ok(chart)
}

/// `shuffle-tradeoff`: the optimal membership attacker after R rounds of the shuffle model, as on
/// the risk page: the certified trade-off band of the clone pair composed R times (β against α, or
/// TPR against FPR), what the R-round (ε, δ) allows, random guessing, the reader's FPR marked.
/// Replace one: the attacker tells whether user 1 holds one record or another.
pub fn shuffle_tradeoff(values: &ParamValues) -> ChartResult {
    use crate::risk::{tradeoff_finish, tradeoff_start, TradeoffAxes};
    use amp_model::risk::percent;
    use amp_model::shuffle::{rounds_attack, stronger_allowed};
    let (eps0, n, delta) = setting(values);
    let stronger = stronger_allowed(values);
    // The figure at the quick budget (its marker's TPR may differ from the refined readout in
    // the last digits).
    let a = rounds_attack(values, stronger, amp_model::training::QUICK)?;
    let fpr = values.real(p::FPR);
    let view = TradeoffAxes::new(
        fpr,
        values.choice(p::TRADEOFF_VIEW) == amp_model::params::TradeoffView::Roc,
    );
    let mut c = tradeoff_start(&a, &view, delta);
    let (up, low) = tradeoff_finish(&mut c, &a, &view, fpr)?;
    let r = values.count(p::ROUNDS);
    c.summary = format!(
        "After {r} rounds of shuffling n = {n} users' ε₀ = {}-LDP reports, an attacker who wrongly \
         accuses {} of the time that user 1 held one value rather than another is right at most {} \
         of the time (certified), and the best test reaches {}. Random guessing: {}.",
        short_number(eps0, 4),
        percent(fpr),
        percent(up),
        percent(low),
        percent(fpr)
    );
    Ok(c)
}
