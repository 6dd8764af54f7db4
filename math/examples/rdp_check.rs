#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::rdp::*;
fn main() {
    let opacus: Vec<f64> = (1..100)
        .map(|x| 1.0 + x as f64 / 10.0)
        .chain((12..64).map(|x| x as f64))
        .collect();
    let g = Mechanism::Gaussian { sigma: 1.5 };
    let c = Curve::of(&g, Sampling::Poisson { q: 0.04 }, &opacus)
        .unwrap()
        .times(2250.0);
    for conv in [Conversion::Classic, Conversion::Improved] {
        println!(
            "opacus {:?} {:?}",
            conv,
            epsilon_for_delta(&c, 1e-5, conv).unwrap()
        );
    }
    let g = Mechanism::Gaussian { sigma: 1.3 };
    let q = 150.0 / 60000.0;
    let steps = 15.0 * 60000.0 / 150.0;
    let c = Curve::of(&g, Sampling::Poisson { q }, &opacus)
        .unwrap()
        .times(steps);
    for conv in [Conversion::Classic, Conversion::Improved] {
        println!(
            "tfp {:?} {:?}",
            conv,
            epsilon_for_delta(&c, 1e-5, conv).unwrap()
        );
    }
    let t = std::time::Instant::now();
    let d = default_orders();
    for _ in 0..10 {
        let c = Curve::of(&g, Sampling::Poisson { q: 0.001 }, &d).unwrap();
        std::hint::black_box(c);
    }
    println!("gauss exact curve {:?}", t.elapsed() / 10);
    let t = std::time::Instant::now();
    let l = Mechanism::Laplace { scale: 0.5 };
    for _ in 0..10 {
        let c = Curve::of(&l, Sampling::Poisson { q: 0.001 }, &d).unwrap();
        std::hint::black_box(c);
    }
    println!("laplace upper curve {:?}", t.elapsed() / 10);
    let c = Curve::of(&g, Sampling::Poisson { q: 0.001 }, &d)
        .unwrap()
        .times(1e5);
    println!("{:?}", epsilon_for_delta(&c, 1e-8, Conversion::Improved));
}
#[allow(dead_code)]
fn unused() {}
