//! A small JSON reader and writer for the run file, shared by the app and the CLI so that both read
//! and write the same bytes. Not a formula. Written here instead of using serde_json: the web app
//! must carry it, and its whole budget is a few kilobytes (serde_json's parser alone is several
//! times that). Reads RFC 8259 JSON (numbers as doubles through [`amp_format::parse_f64`]);
//! errors say where, in one line.

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

/// [`Json::parse`] by this module's own reader (the CLI's, and the tests').
#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
fn parse_here(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    p.space();
    let v = p.value(0)?;
    p.space();
    if p.i < p.s.len() {
        return Err(p.error("text after the end of the document"));
    }
    Ok(v)
}

#[cfg_attr(target_arch = "wasm32", allow(dead_code))]
struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        // Line and column of the byte where reading stopped.
        let before = &self.s[..self.i.min(self.s.len())];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let col = before.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        format!("not valid JSON at line {line}, column {col}: {what}")
    }

    fn space(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn literal(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.error("expected a value"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        match self.s.get(self.i) {
            None => Err(self.error("the document ends where a value was expected")),
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::Text),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("expected a value")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, String> {
        self.i += 1;
        let mut members: Vec<(String, Json)> = Vec::new();
        self.space();
        if self.eat(b'}') {
            return Ok(Json::Object(members));
        }
        loop {
            self.space();
            if self.s.get(self.i) != Some(&b'"') {
                return Err(self.error("expected a member name in quotes"));
            }
            let key = self.string()?;
            if members.iter().any(|(k, _)| *k == key) {
                return Err(self.error(&format!("the member \"{key}\" appears twice")));
            }
            self.space();
            if !self.eat(b':') {
                return Err(self.error("expected ':' after a member name"));
            }
            self.space();
            let v = self.value(depth + 1)?;
            members.push((key, v));
            self.space();
            if self.eat(b',') {
                continue;
            }
            if self.eat(b'}') {
                return Ok(Json::Object(members));
            }
            return Err(self.error("expected ',' or '}'"));
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, String> {
        self.i += 1;
        let mut items = Vec::new();
        self.space();
        if self.eat(b']') {
            return Ok(Json::Array(items));
        }
        loop {
            self.space();
            items.push(self.value(depth + 1)?);
            self.space();
            if self.eat(b',') {
                continue;
            }
            if self.eat(b']') {
                return Ok(Json::Array(items));
            }
            return Err(self.error("expected ',' or ']'"));
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.i < self.s.len() && !matches!(self.s[self.i], b'"' | b'\\') {
                if self.s[self.i] < 0x20 {
                    return Err(self.error("a control character inside a string"));
                }
                self.i += 1;
            }
            out.push_str(
                std::str::from_utf8(&self.s[start..self.i])
                    .map_err(|_| self.error("a string that is not UTF-8"))?,
            );
            match self.s.get(self.i) {
                None => return Err(self.error("a string without its closing quote")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                _ => {
                    self.i += 1;
                    let c = match self.s.get(self.i) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'/') => '/',
                        Some(b'b') => '\u{8}',
                        Some(b'f') => '\u{c}',
                        Some(b'n') => '\n',
                        Some(b'r') => '\r',
                        Some(b't') => '\t',
                        Some(b'u') => {
                            let hex = self
                                .s
                                .get(self.i + 1..self.i + 5)
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .ok_or_else(|| self.error("a bad \\u escape"))?;
                            self.i += 4;
                            // Surrogate pairs are not needed by the run file; a lone one is
                            // replaced.
                            char::from_u32(hex).unwrap_or('\u{fffd}')
                        }
                        _ => return Err(self.error("a bad escape in a string")),
                    };
                    out.push(c);
                    self.i += 1;
                }
            }
        }
    }

    fn number(&mut self) -> Result<Json, String> {
        let start = self.i;
        while self.i < self.s.len()
            && matches!(
                self.s[self.i],
                b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9'
            )
        {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        // JSON's grammar: no leading '+', no leading zeros, digits around the point.
        let body = text.strip_prefix('-').unwrap_or(text);
        let int_end = body.find(['.', 'e', 'E']).unwrap_or(body.len());
        let int = &body[..int_end];
        let grammar = !int.is_empty()
            && int.bytes().all(|b| b.is_ascii_digit())
            && (int.len() == 1 || !int.starts_with('0'))
            && !body[int_end..].starts_with(".e")
            && !body.ends_with('.');
        match (grammar, amp_format::parse_f64(text)) {
            (true, Some(x)) if x.is_finite() => Ok(Json::Number(x)),
            _ => {
                self.i = start;
                Err(self.error(&format!("\"{text}\" is not a number")))
            }
        }
    }
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
        for (bad, why) in [
            ("", "ends"),
            ("{", "member name"),
            ("{\"a\" 1}", "':'"),
            ("{\"a\": 1,}", "member name"),
            ("[1 2]", "',' or ']'"),
            ("01", "not a number"),
            ("1.", "not a number"),
            ("+1", "expected a value"),
            ("{\"a\": 1, \"a\": 2}", "twice"),
            ("\"abc", "closing quote"),
            ("1 2", "after the end"),
            ("nul", "expected a value"),
        ] {
            let err = Json::parse(bad).unwrap_err();
            assert!(err.contains(why), "{bad:?}: {err}");
            assert!(err.starts_with("not valid JSON at line 1"), "{err}");
        }
        let deep = "[".repeat(100);
        assert!(Json::parse(&deep).unwrap_err().contains("deeply"));
        let err = Json::parse("{\n  \"a\": tru\n}").unwrap_err();
        assert!(err.contains("line 2, column 8"), "{err}");
    }
}
