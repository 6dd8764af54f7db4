#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::rdp::*;
fn main() {
    let mut worst = (std::time::Duration::ZERO, 0.0, 0.0, 0.0);
    for &s in &[0.1, 0.3, 0.5, 1.0, 5.0, 50.0] {
        for &q in &[1e-9, 1e-4, 0.01, 0.1, 0.3, 0.49, 0.5, 0.7, 0.99] {
            for &a in &[1.001, 1.01, 1.5, 2.5, 10.5, 100.5, 1000.5] {
                let t = std::time::Instant::now();
                let r = poisson_gaussian(s, q, a);
                let e = t.elapsed();
                match r {
                    Ok(v) if v.is_finite() && v >= 0.0 => {}
                    other => println!("σ={s} q={q} α={a}: {other:?}"),
                }
                if e > worst.0 {
                    worst = (e, s, q, a);
                }
            }
        }
    }
    println!("worst {worst:?}");
}
