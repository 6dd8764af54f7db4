use amp_math::pld::{self, Estimate};
use std::io::Write;
fn main() {
    let tag = std::env::args().nth(1).unwrap();
    for (name, sigma, q, steps) in [("opacus", 1.5, 0.04, 2250u64), ("s1", 1.0, 0.01, 10_000)] {
        for est in [Estimate::Pessimistic, Estimate::Optimistic] {
            let p = pld::poisson_gaussian(sigma, q, pld::DEFAULT_STEP, est).unwrap();
            let c = p.self_compose(steps).unwrap();
            let e = c.epsilon_for_delta(1e-5).unwrap();
            let er = c.remove.epsilon_for_delta(1e-5).unwrap();
            let ea = c.add.epsilon_for_delta(1e-5).unwrap();
            println!(
                "{name} {est:?}: ε = {e:.16} (remove {er:.16}, add {ea:.16}) offset {} len {}",
                c.remove.offset,
                c.remove.masses.len()
            );
            let mut f = std::fs::File::create(format!("/tmp/{tag}_{name}_{est:?}.bin")).unwrap();
            for pl in [&c.remove, &c.add] {
                f.write_all(&(pl.offset as i64).to_le_bytes()).unwrap();
                f.write_all(&(pl.masses.len() as u64).to_le_bytes())
                    .unwrap();
                for m in &pl.masses {
                    f.write_all(&m.to_le_bytes()).unwrap();
                }
            }
        }
    }
}
