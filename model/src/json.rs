//! The run file's JSON: a value type and its writer, shared by the app and the CLI so that both
//! write the same bytes. Not a formula. Reading is the platform's: in the browser its own
//! `JSON.parse` (no JSON parser in the wasm, whose budget is a few kilobytes), elsewhere
//! serde_json; each value is walked into a [`Json`]. Errors are one line.

/// A JSON value. Objects keep their members in order (a file written and read back is the same).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number.
    Number(f64),
    /// A string.
    Text(String),
    /// An array.
    Array(Vec<Json>),
    /// An object, members in order.
    Object(Vec<(String, Json)>),
}

/// Deepest nesting accepted (a hostile file cannot exhaust the stack).
const MAX_DEPTH: usize = 32;

impl Json {
    /// Parse a whole document. In the browser, the browser's own parser reads it (`JSON.parse`:
    /// the same values, numbers correctly rounded as here, and 4 KB less wasm); its error
    /// sentence is the browser's.
    pub fn parse(text: &str) -> Result<Json, String> {
        #[cfg(target_arch = "wasm32")]
        {
            in_browser::parse(text)
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            parse_here(text)
        }
    }

    /// The value as JSON text, on one line, numbers in Rust's shortest round-trip form.
    pub fn write(&self) -> String {
        let mut out = String::new();
        self.write_to(&mut out);
        out
    }

    /// The member `key` of an object.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    fn write_to(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Number(x) if x.is_finite() => out.push_str(&number(*x)),
            Json::Number(_) => out.push_str("null"),
            Json::Text(s) => quote(s, out),
            Json::Array(items) => {
                out.push('[');
                for (i, v) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    v.write_to(out);
                }
                out.push(']');
            }
            Json::Object(members) => {
                out.push('{');
                for (i, (k, v)) in members.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    quote(k, out);
                    out.push_str(": ");
                    v.write_to(out);
                }
                out.push('}');
            }
        }
    }
}

/// A number as JSON: whole numbers without a fraction, others in Rust's shortest form (with an
/// exponent where Rust would print many zeros).
fn number(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let plain = format!("{x}");
        if plain.len() > 12 {
            format!("{x:e}")
        } else {
            plain
        }
    }
}

fn quote(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// The browser's `JSON.parse`, its result walked into a [`Json`].
#[cfg(target_arch = "wasm32")]
mod in_browser {
    use super::{Json, MAX_DEPTH};
    use js_sys::wasm_bindgen::{JsCast, JsValue};
    use js_sys::{Array, Object, JSON};

    pub(super) fn parse(text: &str) -> Result<Json, String> {
        match JSON::parse(text) {
            Ok(v) => convert(&v, 0),
            Err(e) => {
                let why = e
                    .dyn_ref::<js_sys::Error>()
                    .and_then(|e| e.message().as_string())
                    .unwrap_or_default();
                Err(format!("not valid JSON: {why}"))
            }
        }
    }

    fn convert(v: &JsValue, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err("not valid JSON: nested too deeply".into());
        }
        if v.is_null() {
            return Ok(Json::Null);
        }
        if let Some(b) = v.as_bool() {
            return Ok(Json::Bool(b));
        }
        if let Some(x) = v.as_f64() {
            return Ok(Json::Number(x));
        }
        if let Some(s) = v.as_string() {
            return Ok(Json::Text(s));
        }
        if Array::is_array(v) {
            let mut items = Vec::new();
            for item in Array::from(v).iter() {
                items.push(convert(&item, depth + 1)?);
            }
            return Ok(Json::Array(items));
        }
        let mut members = Vec::new();
        for pair in Object::entries(v.unchecked_ref::<Object>()).iter() {
            let pair: Array = pair.unchecked_into();
            let key = pair.get(0).as_string().unwrap_or_default();
            members.push((key, convert(&pair.get(1), depth + 1)?));
        }
        Ok(Json::Object(members))
    }
}

/// [`Json::parse`] off the browser (the CLI, the tests): serde_json's reader, its value walked
/// into a [`Json`] (members in the file's order, numbers read back bit for bit). A member named
/// twice keeps its last value, as `JSON.parse` does.
#[cfg(not(target_arch = "wasm32"))]
fn parse_here(text: &str) -> Result<Json, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    convert(&v, 0)
}

#[cfg(not(target_arch = "wasm32"))]
fn convert(v: &serde_json::Value, depth: usize) -> Result<Json, String> {
    use serde_json::Value;
    if depth > MAX_DEPTH {
        return Err("not valid JSON: nested too deeply".into());
    }
    Ok(match v {
        Value::Null => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Number(x) => Json::Number(x.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => Json::Text(s.clone()),
        Value::Array(items) => Json::Array(
            items
                .iter()
                .map(|x| convert(x, depth + 1))
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(members) => {
            let mut out = Vec::with_capacity(members.len());
            for (k, x) in members {
                out.push((k.clone(), convert(x, depth + 1)?));
            }
            Json::Object(out)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_it_writes() {
        let text = r#"{"delta": 1e-5, "phases": [{"mechanism": "gaussian", "sigma": 0.8, "steps": 300, "ok": true, "none": null, "name": "a\"b\\c\nd"}]}"#;
        let v = Json::parse(text).unwrap();
        assert_eq!(v.get("delta"), Some(&Json::Number(1e-5)));
        let again = Json::parse(&v.write()).unwrap();
        assert_eq!(again, v);
        assert_eq!(Json::Number(300.0).write(), "300");
        assert_eq!(Json::Number(0.1).write(), "0.1");
        assert_eq!(Json::Number(1e-300).write(), "1e-300");
        assert_eq!(Json::parse(" [ ] ").unwrap(), Json::Array(vec![]));
        assert_eq!(Json::parse("\"\\u00e9\"").unwrap(), Json::Text("é".into()));
    }

    #[test]
    fn says_where_a_bad_document_goes_wrong() {
        for bad in [
            "",
            "{",
            "{\"a\" 1}",
            "{\"a\": 1,}",
            "[1 2]",
            "01",
            "1.",
            "+1",
            "\"abc",
            "1 2",
            "nul",
        ] {
            let err = Json::parse(bad).unwrap_err();
            assert!(err.starts_with("not valid JSON: "), "{bad:?}: {err}");
            assert!(err.contains("line 1 column"), "{bad:?}: {err}");
            assert!(!err.contains('\n'), "{bad:?}: {err}");
        }
        // Nesting deeper than MAX_DEPTH is refused (serde_json's own limit is deeper).
        let deep = format!("{}{}", "[".repeat(40), "]".repeat(40));
        assert!(Json::parse(&deep).unwrap_err().contains("deeply"));
        let err = Json::parse("{\n  \"a\": 1,\n  \"b\" 2\n}").unwrap_err();
        assert!(err.contains("line 3 column"), "{err}");
        // A member named twice keeps its last value, as in the browser.
        let twice = Json::parse("{\"a\": 1, \"a\": 2}").unwrap();
        assert_eq!(twice.get("a"), Some(&Json::Number(2.0)));
        // Numbers come back bit for bit.
        for x in [0.1, 1e-300, 1.0 / 3.0, 123_456.789, 5e-324] {
            assert_eq!(
                Json::parse(&format!("{x:e}")).unwrap(),
                Json::Number(x),
                "{x}"
            );
        }
    }
}
