//! Formulas as MathML Core (rendered natively by the browser; no JavaScript math library).
//! Static strings only: nothing user-supplied is ever inserted here.

/// ε′ = log(1 + p(e^ε − 1)),  δ′ = pδ — Steinke (seed 000), Theorem 1.
pub const POISSON_THEOREM: &str = r#"<math display="block"><mrow><msup><mi>ε</mi><mo>′</mo></msup><mo>=</mo><mi>log</mi><mo>(</mo><mn>1</mn><mo>+</mo><mi>p</mi><mo>(</mo><msup><mi>e</mi><mi>ε</mi></msup><mo>−</mo><mn>1</mn><mo>)</mo><mo>)</mo><mo separator="true">,</mo><mspace width="2em"></mspace><msup><mi>δ</mi><mo>′</mo></msup><mo>=</mo><mi>p</mi><mi>δ</mi></mrow></math>"#;

/// ε = log(1 + (e^ε′ − 1)/p) — the inverse (seed 000; seed 002, Section 3).
pub const INVERSE: &str = r#"<math display="block"><mrow><mi>ε</mi><mo>=</mo><mi>log</mi><mo>(</mo><mn>1</mn><mo>+</mo><mfrac><mrow><msup><mi>e</mi><msup><mi>ε</mi><mo>′</mo></msup></msup><mo>−</mo><mn>1</mn></mrow><mi>p</mi></mfrac><mo>)</mo></mrow></math>"#;

/// pε ≤ ε′ ≤ min(ε, p(e^ε − 1)).
pub const BOUNDS: &str = r#"<math display="block"><mrow><mi>p</mi><mi>ε</mi><mo>≤</mo><msup><mi>ε</mi><mo>′</mo></msup><mo>≤</mo><mi>min</mi><mo>(</mo><mi>ε</mi><mo separator="true">,</mo><mi>p</mi><mo>(</mo><msup><mi>e</mi><mi>ε</mi></msup><mo>−</mo><mn>1</mn><mo>)</mo><mo>)</mo></mrow></math>"#;

/// η = 1 − (1 − 1/n)^m and δ′ = Σ_k C(m,k) n^{−k}(1 − 1/n)^{m−k} δ_k(ε) — Balle, Barthe & Gaboardi
/// 2018, sampling with replacement.
pub const WITH_REPLACEMENT: &str = r#"<math display="block"><mrow><mi>η</mi><mo>=</mo><mn>1</mn><mo>−</mo><msup><mrow><mo>(</mo><mn>1</mn><mo>−</mo><mfrac><mn>1</mn><mi>n</mi></mfrac><mo>)</mo></mrow><mi>m</mi></msup><mo separator="true">,</mo><mspace width="2em"></mspace><msup><mi>δ</mi><mo>′</mo></msup><mo>=</mo><munderover><mo>∑</mo><mrow><mi>k</mi><mo>=</mo><mn>1</mn></mrow><mi>m</mi></munderover><mrow><mo>(</mo><mfrac linethickness="0"><mi>m</mi><mi>k</mi></mfrac><mo>)</mo></mrow><msup><mi>n</mi><mrow><mo>−</mo><mi>k</mi></mrow></msup><msup><mrow><mo>(</mo><mn>1</mn><mo>−</mo><mfrac><mn>1</mn><mi>n</mi></mfrac><mo>)</mo></mrow><mrow><mi>m</mi><mo>−</mo><mi>k</mi></mrow></msup><msub><mi>δ</mi><mi>k</mi></msub><mo>(</mo><mi>ε</mi><mo>)</mo></mrow></math>"#;

/// δ_k(ε) ≤ d + (1 − d)(e^{kε} − e^ε)/(e^{kε} + 1), d = δ(e^{kε} − 1)/(e^ε − 1) — our two-sided
/// group-privacy bound.
pub const GROUP_BOUND: &str = r#"<math display="block"><mrow><msub><mi>δ</mi><mi>k</mi></msub><mo>(</mo><mi>ε</mi><mo>)</mo><mo>≤</mo><mi>d</mi><mo>+</mo><mo>(</mo><mn>1</mn><mo>−</mo><mi>d</mi><mo>)</mo><mfrac><mrow><msup><mi>e</mi><mrow><mi>k</mi><mi>ε</mi></mrow></msup><mo>−</mo><msup><mi>e</mi><mi>ε</mi></msup></mrow><mrow><msup><mi>e</mi><mrow><mi>k</mi><mi>ε</mi></mrow></msup><mo>+</mo><mn>1</mn></mrow></mfrac><mo separator="true">,</mo><mspace width="1.5em"></mspace><mi>d</mi><mo>=</mo><mi>δ</mi><mfrac><mrow><msup><mi>e</mi><mrow><mi>k</mi><mi>ε</mi></mrow></msup><mo>−</mo><mn>1</mn></mrow><mrow><msup><mi>e</mi><mi>ε</mi></msup><mo>−</mo><mn>1</mn></mrow></mfrac></mrow></math>"#;
