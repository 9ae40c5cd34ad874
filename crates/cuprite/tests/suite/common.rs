//! Shared helpers of the integration tests: loading NumPy-computed fixtures written by
//! `scripts/fixtures/*.py` (format described in `scripts/fixtures/common.py`).

#![allow(dead_code)]

use cuprite::prelude::*;
use cuprite::Scalar;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

fn real(v: &Value) -> f64 {
    match v {
        Value::String(s) => match s.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            other => panic!("fixture: unknown special value {other:?}"),
        },
        Value::Number(n) => n.as_f64().expect("fixture: number"),
        other => panic!("fixture: expected a real number, got {other}"),
    }
}

fn scalar(v: &Value) -> Scalar {
    match v {
        Value::Bool(b) => Scalar::Bool(*b),
        Value::Number(n) if n.is_i64() => Scalar::I64(n.as_i64().unwrap()),
        Value::Number(n) if n.is_u64() => Scalar::I64(n.as_u64().unwrap() as i64),
        Value::Array(p) if p.len() == 2 => Scalar::C128(c128::new(real(&p[0]), real(&p[1]))),
        other => Scalar::F64(real(other)),
    }
}

/// The path of fixture file `file`: under `CUPRITE_FIXTURES_DIR` when set (a bundle run
/// elsewhere points at its own copy of the fixtures), else in this crate's `tests/fixtures`.
pub fn fixture_path(file: &str) -> String {
    let dir = std::env::var("CUPRITE_FIXTURES_DIR")
        .unwrap_or_else(|_| format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR")));
    format!("{dir}/{file}")
}

fn load(topic: &str) -> Value {
    static CACHE: OnceLock<Mutex<HashMap<String, Value>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = cache.lock().unwrap();
    map.entry(topic.to_string())
        .or_insert_with(|| {
            let path = fixture_path(&format!("{topic}.json"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("fixture file {path}: {e}"));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("fixture file {path}: {e}"))
        })
        .clone()
}

/// The names of the cases of fixture file `topic`.
pub fn fixture_names(topic: &str) -> Vec<String> {
    match load(topic) {
        Value::Object(cases) => cases.keys().cloned().collect(),
        _ => panic!("fixture file {topic}: not an object of cases"),
    }
}

/// The data (converted to `T`) and shape of case `name` of fixture file `topic`.
pub fn fixture_vec<T: Element>(topic: &str, name: &str) -> (Vec<T>, Vec<usize>) {
    let all = load(topic);
    let case = all
        .get(name)
        .unwrap_or_else(|| panic!("fixture {topic}/{name} missing: regenerate the fixtures"));
    let shape: Vec<usize> = case["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_u64().unwrap() as usize)
        .collect();
    let data = case["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| T::from_scalar(scalar(v)))
        .collect();
    (data, shape)
}

/// Case `name` of fixture file `topic` as an array on `dev`.
pub fn fixture<T: Element, B: ArrayBackend>(dev: &B, topic: &str, name: &str) -> Array<T, B> {
    let (data, shape) = fixture_vec::<T>(topic, name);
    Array::from_vec(data, &shape, dev).unwrap()
}

/// The NumPy dtype name (`float64`, `complex64`, ...) of case `name` of fixture file `topic`.
pub fn fixture_dtype(topic: &str, name: &str) -> String {
    let all = load(topic);
    all.get(name)
        .and_then(|case| case["dtype"].as_str())
        .unwrap_or_else(|| panic!("fixture {topic}/{name} missing: regenerate the fixtures"))
        .to_string()
}
