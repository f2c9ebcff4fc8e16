//! Plain Lua data (booleans, numbers, strings, tables) as read from `mapinfo.lua`, kept in order,
//! so unknown and custom keys survive a round trip through the project's `map.toml`.

use std::fmt::Write as _;

/// A table key: Lua tables mix integer and string keys.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LuaKey {
    Int(i64),
    Str(String),
}

/// A Lua value as data. Functions and userdata do not survive reading; `nil` is absence.
#[derive(Clone, Debug, PartialEq)]
pub enum LuaValue {
    Bool(bool),
    Number(f64),
    String(String),
    Table(LuaTable),
}

/// A Lua table with its keys in a stable order (insertion order).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LuaTable {
    entries: Vec<(LuaKey, LuaValue)>,
}

impl LuaKey {
    /// The key lowercased, as the engine's parser sees it.
    pub fn lowercased(&self) -> LuaKey {
        match self {
            LuaKey::Str(s) => LuaKey::Str(s.to_lowercase()),
            k => k.clone(),
        }
    }
}

impl From<&str> for LuaKey {
    fn from(s: &str) -> LuaKey {
        LuaKey::Str(s.to_string())
    }
}
impl From<i64> for LuaKey {
    fn from(i: i64) -> LuaKey {
        LuaKey::Int(i)
    }
}

impl LuaTable {
    pub fn new() -> LuaTable {
        LuaTable::default()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn iter(&self) -> impl Iterator<Item = (&LuaKey, &LuaValue)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Sets `key`, replacing an existing entry in place or appending.
    pub fn insert(&mut self, key: impl Into<LuaKey>, value: LuaValue) {
        let key = key.into();
        match self.entries.iter_mut().find(|(k, _)| *k == key) {
            Some(e) => e.1 = value,
            None => self.entries.push((key, value)),
        }
    }

    /// The value under a string key, compared case-insensitively (as the engine does).
    pub fn get(&self, key: &str) -> Option<&LuaValue> {
        self.entries.iter().find_map(|(k, v)| match k {
            LuaKey::Str(s) if s.eq_ignore_ascii_case(key) => Some(v),
            _ => None,
        })
    }

    pub fn get_index(&self, index: i64) -> Option<&LuaValue> {
        self.entries.iter().find_map(|(k, v)| match k {
            LuaKey::Int(i) if *i == index => Some(v),
            _ => None,
        })
    }

    /// Removes and returns the value under a string key (case-insensitive).
    pub fn remove(&mut self, key: &str) -> Option<LuaValue> {
        let i = self
            .entries
            .iter()
            .position(|(k, _)| matches!(k, LuaKey::Str(s) if s.eq_ignore_ascii_case(key)))?;
        Some(self.entries.remove(i).1)
    }

    pub fn get_table(&self, key: &str) -> Option<&LuaTable> {
        match self.get(key) {
            Some(LuaValue::Table(t)) => Some(t),
            _ => None,
        }
    }

    pub fn get_number(&self, key: &str) -> Option<f64> {
        self.get(key).and_then(LuaValue::as_number)
    }

    /// A copy with every string key lowercased, at every depth (the engine's `lowerkeys`).
    pub fn lowercased_keys(&self) -> LuaTable {
        let mut out = LuaTable::new();
        for (k, v) in &self.entries {
            let v = match v {
                LuaValue::Table(t) => LuaValue::Table(t.lowercased_keys()),
                v => v.clone(),
            };
            out.insert(k.lowercased(), v);
        }
        out
    }

    /// True when the keys are exactly 1..=n (a Lua sequence).
    fn is_sequence(&self) -> bool {
        self.entries
            .iter()
            .enumerate()
            .all(|(i, (k, _))| *k == LuaKey::Int(i as i64 + 1))
    }

    /// A sequence table from values.
    pub fn sequence(values: impl IntoIterator<Item = LuaValue>) -> LuaTable {
        LuaTable {
            entries: values
                .into_iter()
                .enumerate()
                .map(|(i, v)| (LuaKey::Int(i as i64 + 1), v))
                .collect(),
        }
    }
}

impl LuaValue {
    pub fn as_number(&self) -> Option<f64> {
        match self {
            LuaValue::Number(n) => Some(*n),
            LuaValue::String(s) => s.trim().parse().ok(),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            LuaValue::Bool(b) => Some(*b),
            LuaValue::Number(n) => Some(*n != 0.0),
            _ => None,
        }
    }
    pub fn as_str(&self) -> Option<&str> {
        match self {
            LuaValue::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_table(&self) -> Option<&LuaTable> {
        match self {
            LuaValue::Table(t) => Some(t),
            _ => None,
        }
    }
    /// The numbers of a sequence table (`{0.5, 0.5, 0.5}`); `None` if any entry is not a number.
    pub fn as_numbers(&self) -> Option<Vec<f64>> {
        let t = self.as_table()?;
        let mut out = Vec::with_capacity(t.len());
        for i in 1..=t.len() as i64 {
            out.push(t.get_index(i)?.as_number()?);
        }
        Some(out)
    }
    /// A colour or vector from the numbers of a sequence table.
    pub fn numbers(values: &[f32]) -> LuaValue {
        LuaValue::Table(LuaTable::sequence(
            values.iter().map(|&v| LuaValue::Number(v as f64)),
        ))
    }
}

// ---------------------------------------------------------------------------------------------
// Lua source

/// Writes `value` as Lua source, tables indented by `indent` tabs.
pub fn write_lua_value(out: &mut String, value: &LuaValue, indent: usize) {
    match value {
        LuaValue::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        LuaValue::Number(n) => write_lua_number(out, *n),
        LuaValue::String(s) => write_lua_string(out, s),
        LuaValue::Table(t) => write_lua_table(out, t, indent),
    }
}

/// A number in its shortest round-tripping form; integers without a fraction.
fn write_lua_number(out: &mut String, n: f64) {
    if n.is_finite() && n == n.trunc() && n.abs() < 1e15 {
        let _ = write!(out, "{}", n as i64);
    } else if n.is_finite() {
        let _ = write!(out, "{n}");
    } else if n.is_nan() {
        out.push_str("(0/0)");
    } else if n > 0.0 {
        out.push_str("math.huge");
    } else {
        out.push_str("-math.huge");
    }
}

/// A double-quoted Lua string with escapes.
fn write_lua_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 32 => {
                let _ = write!(out, "\\{}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn is_identifier(s: &str) -> bool {
    const KEYWORDS: &[&str] = &[
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in",
        "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
    ];
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&s)
}

/// Writes a table key as `name = ` or `[key] = `.
pub fn write_lua_key(out: &mut String, key: &LuaKey) {
    match key {
        LuaKey::Str(s) if is_identifier(s) => out.push_str(s),
        LuaKey::Str(s) => {
            out.push('[');
            write_lua_string(out, s);
            out.push(']');
        }
        LuaKey::Int(i) => {
            let _ = write!(out, "[{i}]");
        }
    }
    out.push_str(" = ");
}

fn write_lua_table(out: &mut String, t: &LuaTable, indent: usize) {
    let short_numbers =
        t.is_sequence() && t.len() <= 4 && t.iter().all(|(_, v)| matches!(v, LuaValue::Number(_)));
    if t.is_empty() {
        out.push_str("{}");
    } else if short_numbers {
        out.push_str("{ ");
        for (i, (_, v)) in t.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            write_lua_value(out, v, indent);
        }
        out.push_str(" }");
    } else {
        let seq = t.is_sequence();
        out.push_str("{\n");
        for (k, v) in t.iter() {
            push_indent(out, indent + 1);
            if !seq {
                write_lua_key(out, k);
            }
            write_lua_value(out, v, indent + 1);
            out.push_str(",\n");
        }
        push_indent(out, indent);
        out.push('}');
    }
}

pub fn push_indent(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push('\t');
    }
}

// ---------------------------------------------------------------------------------------------
// TOML (the project folder)

impl LuaValue {
    /// The value as TOML: sequences become arrays, other tables become tables (integer keys
    /// written as their decimal text).
    fn to_toml(&self) -> toml::Value {
        match self {
            LuaValue::Bool(b) => toml::Value::Boolean(*b),
            LuaValue::Number(n) if *n == n.trunc() && n.abs() < 9.0e15 => {
                toml::Value::Integer(*n as i64)
            }
            LuaValue::Number(n) => toml::Value::Float(*n),
            LuaValue::String(s) => toml::Value::String(s.clone()),
            LuaValue::Table(t) if t.is_sequence() && !t.is_empty() => {
                toml::Value::Array(t.iter().map(|(_, v)| v.to_toml()).collect())
            }
            LuaValue::Table(t) => toml::Value::Table(t.to_toml()),
        }
    }

    /// The value from TOML; dates become strings.
    fn from_toml(v: &toml::Value) -> LuaValue {
        match v {
            toml::Value::Boolean(b) => LuaValue::Bool(*b),
            toml::Value::Integer(i) => LuaValue::Number(*i as f64),
            toml::Value::Float(f) => LuaValue::Number(*f),
            toml::Value::String(s) => LuaValue::String(s.clone()),
            toml::Value::Datetime(d) => LuaValue::String(d.to_string()),
            toml::Value::Array(a) => {
                LuaValue::Table(LuaTable::sequence(a.iter().map(LuaValue::from_toml)))
            }
            toml::Value::Table(t) => LuaValue::Table(LuaTable::from_toml(t)),
        }
    }
}

impl LuaTable {
    fn to_toml(&self) -> toml::Table {
        let mut out = toml::Table::new();
        for (k, v) in self.iter() {
            let key = match k {
                LuaKey::Int(i) => i.to_string(),
                LuaKey::Str(s) => s.clone(),
            };
            out.insert(key, v.to_toml());
        }
        out
    }

    /// From a TOML table; keys that are decimal integers become integer keys.
    fn from_toml(t: &toml::Table) -> LuaTable {
        let mut out = LuaTable::new();
        for (k, v) in t {
            let key = match k.parse::<i64>() {
                Ok(i) => LuaKey::Int(i),
                Err(_) => LuaKey::Str(k.clone()),
            };
            out.insert(key, LuaValue::from_toml(v));
        }
        out
    }
}

impl serde::Serialize for LuaTable {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_toml().serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for LuaTable {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let t = toml::Table::deserialize(d)?;
        Ok(LuaTable::from_toml(&t))
    }
}

/// A number as text, integers without a fraction.
pub fn number_text(n: f64) -> String {
    let mut s = String::new();
    write_lua_number(&mut s, n);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lua_source_quotes_and_indexes() {
        let mut t = LuaTable::new();
        t.insert("name", LuaValue::String("a \"b\"\n".into()));
        t.insert(0, LuaValue::numbers(&[0.5, 1.0]));
        t.insert("end", LuaValue::Bool(true));
        let mut s = String::new();
        write_lua_value(&mut s, &LuaValue::Table(t), 0);
        assert_eq!(
            s,
            "{\n\tname = \"a \\\"b\\\"\\n\",\n\t[0] = { 0.5, 1 },\n\t[\"end\"] = true,\n}"
        );
    }

    #[test]
    fn toml_round_trip_keeps_integer_keys_and_sequences() {
        let mut t = LuaTable::new();
        t.insert(255, LuaValue::String("roads".into()));
        t.insert("color", LuaValue::numbers(&[0.25, 0.5, 1.0]));
        let back = LuaTable::from_toml(&t.to_toml());
        assert_eq!(back.get_index(255), t.get_index(255));
        assert_eq!(
            back.get("color").unwrap().as_numbers().unwrap(),
            vec![0.25, 0.5, 1.0]
        );
    }
}
