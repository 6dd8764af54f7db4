//! Printing a command's record: one JSON object (`--json`, through serde_json), or `name = value`
//! lines. Numbers print as the shortest text that reads back as the same f64 in both forms, so a
//! script gets exactly the number the app shows.

use amp_format::compact_number;
use amp_site::pages::{Readings, ReadoutSpec};
use serde::Serialize;
use serde_json::Value as Json;

/// The record as one JSON object, or as `name = value` lines (absent values left out).
pub fn emit<T: Serialize>(record: &T, json: bool) -> Result<String, String> {
    if json {
        serde_json::to_string(record).map_err(|e| format!("internal: {e}"))
    } else {
        Ok(lines(&to_value(record)?, &[]))
    }
}

/// The record as a JSON value (fields in declaration order).
pub fn to_value<T: Serialize>(record: &T) -> Result<Json, String> {
    serde_json::to_value(record).map_err(|e| format!("internal: {e}"))
}

/// `name = value` lines of an object's fields, without `skip` and without nulls.
pub fn lines(record: &Json, skip: &[&str]) -> String {
    let Json::Object(fields) = record else {
        return text(record);
    };
    fields
        .iter()
        .filter(|(k, v)| !v.is_null() && !skip.contains(&k.as_str()))
        .map(|(k, v)| format!("{k} = {}", text(v)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One value as text: numbers as in JSON, strings without quotes.
fn text(v: &Json) -> String {
    match v {
        Json::Number(n) => n.as_f64().map_or_else(|| n.to_string(), compact_number),
        Json::String(s) => s.clone(),
        Json::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(", "),
        other => other.to_string(),
    }
}

/// The number, or a one-line reason when it is not finite (never printed as if it were one).
pub fn finite(name: &str, x: f64) -> Result<f64, String> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{name} is not a finite number at these settings"))
    }
}

/// A page readout's value for printing: the number, or why there is none.
pub fn reading(r: &Readings, spec: &ReadoutSpec) -> Result<f64, String> {
    let x = r.number(spec).map_err(|e| e.to_string())?;
    finite(spec.label, x)
}
