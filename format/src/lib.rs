//! Number formatting shared by the app, the CLI and the figures.

// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]
/// The shortest text that parses back to exactly `x`, in plain notation for moderate magnitudes
/// and in exponent notation (`1e-6`, `1.5e12`) otherwise. Used in URLs, CLI flags, JSON output and
/// `data-value` attributes, so the app and the CLI print identical strings for identical numbers.
/// Non-finite input gives "null" (never shown as a number).
pub fn compact_number(x: f64) -> String {
    if !x.is_finite() {
        return "null".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    if (1e-4..1e15).contains(&a) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Parses decimal text into the nearest `f64`, with the grammar and value of `str::parse::<f64>`:
/// an optional sign, then digits with an optional point and an optional exponent (`12`, `.5`,
/// `1.`, `-3.2e-7`), or `inf`, `infinity`, `nan` in any case; anything else (spaces, hex, an empty
/// exponent) is `None`. Correctly rounded, so it agrees bit for bit with Rust's parser. In the
/// browser the value comes from JavaScript's `parseFloat` (also correctly rounded, ECMA-262
/// §7.1.4.1.1) once the grammar has been checked here: Rust's own parser brings 11 KB of tables
/// into the WebAssembly. Every parse of user or URL text in the app goes through this function.
pub fn parse_f64(s: &str) -> Option<f64> {
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let signed = |v: f64| Some(if neg { -v } else { v });
    if ["inf", "infinity"]
        .iter()
        .any(|w| body.eq_ignore_ascii_case(w))
    {
        return signed(f64::INFINITY);
    }
    if body.eq_ignore_ascii_case("nan") {
        return Some(f64::NAN);
    }
    let b = body.as_bytes();
    let mut i = 0;
    let run = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let mut digits = run(&mut i);
    if b.get(i) == Some(&b'.') {
        i += 1;
        digits += run(&mut i);
    }
    if digits == 0 {
        return None;
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if run(&mut i) == 0 {
            return None;
        }
    }
    (i == b.len()).then(|| decimal_value(s))
}

/// The value of text already checked by [`parse_f64`].
#[cfg(target_arch = "wasm32")]
fn decimal_value(s: &str) -> f64 {
    js_sys::parse_float(s)
}

/// The value of text already checked by [`parse_f64`].
#[cfg(not(target_arch = "wasm32"))]
fn decimal_value(s: &str) -> f64 {
    s.parse().unwrap_or(f64::NAN)
}

/// A number rounded to `digits` significant digits for display: "0.01703", "5.152", "1.000e-8".
/// Exponent notation below 1e-4 and from 1e6. Non-finite input gives "—".
pub fn display_number(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return "—".into();
    }
    if x == 0.0 {
        return "0".into();
    }
    let a = x.abs();
    let digits = digits.max(1);
    if x.fract() == 0.0 && a < 1e6 {
        // Whole numbers (step counts, sizes) without a decimal tail.
        return format!("{x}");
    }
    if !(1e-4..1e6).contains(&a) {
        return format!("{:.*e}", digits - 1, x);
    }
    let magnitude = libm::log10(a).floor() as i32;
    let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
    let s = format!("{x:.decimals$}");
    // A value like 9.99996 rounds up to 10.000: drop one decimal to keep `digits` significant.
    let rounded = parse_f64(&s).unwrap_or(x);
    if decimals > 0 && rounded.abs() >= libm::pow(10.0, f64::from(magnitude + 1)) {
        return format!("{:.*}", decimals - 1, x);
    }
    s
}

/// Like [`display_number`] but without trailing zeros: "0.1", "2", "0.01703".
pub fn short_number(x: f64, digits: usize) -> String {
    let s = display_number(x, digits);
    match s.split_once('e') {
        Some((mantissa, exp)) if mantissa.contains('.') => {
            let m = mantissa.trim_end_matches('0').trim_end_matches('.');
            format!("{m}e{exp}")
        }
        Some(_) => s,
        None if s.contains('.') => s.trim_end_matches('0').trim_end_matches('.').to_string(),
        None => s,
    }
}

/// A JSON string literal (quotes and escapes included).
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// User text shortened to at most 40 characters and stripped of control characters, for quoting
/// in a message.
pub fn escape_display(s: &str) -> String {
    let cleaned: String = s.chars().filter(|c| !c.is_control()).collect();
    if cleaned.chars().count() > 40 {
        let head: String = cleaned.chars().take(37).collect();
        format!("{head}…")
    } else {
        cleaned
    }
}

/// Tick label for a log axis at 10^k: "0.001", "1", "100", or "1e-9" outside that range.
pub fn decade_label(k: i32) -> String {
    match k {
        -3..=-1 => format!("{}", libm::pow(10.0, f64::from(k))),
        0..=3 => format!("{}", 10i64.pow(k as u32)),
        _ => format!("1e{k}"),
    }
}

/// 60000 → "60,000".
pub fn group_digits(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn parse_f64_agrees_with_rust_on_grammar_and_value() {
        let cases = [
            "0",
            "-0",
            "+1",
            "12",
            ".5",
            "1.",
            "-3.2e-7",
            "1E5",
            "1e+5",
            "2.5e308",
            "1e-400",
            "4.9e-324",
            "0.30000000000000004",
            "123456789012345678901234567890",
            "inf",
            "-Infinity",
            "NaN",
            "",
            "-",
            "+",
            ".",
            "e5",
            "1e",
            "1e+",
            "1.2.3",
            " 1",
            "1 ",
            "0x10",
            "1_000",
            "--1",
            "1e5.5",
            "infinit",
            "∞",
            "1,5",
        ];
        for t in cases {
            let ours = parse_f64(t);
            let rust = t.parse::<f64>().ok();
            match (ours, rust) {
                (Some(a), Some(b)) => assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{t}: {a} vs {b}"
                ),
                (None, None) => {}
                _ => panic!("{t}: ours {ours:?}, Rust {rust:?}"),
            }
        }
    }

    #[test]
    fn compact_round_trips() {
        for &x in &[
            1.0,
            0.01,
            1e-6,
            1e-12,
            5.152_334_f64,
            60000.0,
            1e15,
            -3.5e-7,
            0.1 + 0.2,
        ] {
            let s = compact_number(x);
            assert_eq!(s.parse::<f64>().unwrap(), x, "{s}");
        }
        assert_eq!(compact_number(1e-6), "1e-6");
        assert_eq!(compact_number(0.01), "0.01");
        assert_eq!(compact_number(f64::NAN), "null");
    }

    #[test]
    fn display_rounds_to_significant_digits() {
        assert_eq!(display_number(0.017_032_1, 4), "0.01703");
        assert_eq!(display_number(5.152_33, 5), "5.1523");
        assert_eq!(display_number(1e-8, 4), "1.000e-8");
        assert_eq!(display_number(123_456.7, 4), "123457");
        assert_eq!(display_number(9.999_96, 4), "10.00");
        assert_eq!(display_number(f64::INFINITY, 4), "—");
        assert_eq!(display_number(703.0, 6), "703");
    }

    #[test]
    fn short_drops_trailing_zeros() {
        assert_eq!(short_number(0.1, 3), "0.1");
        assert_eq!(short_number(2.0, 3), "2");
        assert_eq!(short_number(1e-8, 3), "1e-8");
        assert_eq!(short_number(0.017_032, 4), "0.01703");
    }

    #[test]
    fn json_strings_escape() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
    }
}
