//! Values as a trace or plan holds them, read strictly: two different
//! inputs must never become one value, or an altered record could pass as
//! the original. A JSON object with a key written twice is refused (serde
//! keeps the last one silently); so are YAML values JSON cannot hold
//! (`.inf`, `.nan`, keys that are not strings, tags), which would otherwise
//! become `null` or a string and compare equal to another input.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// Reads one JSON value, refusing an object with a repeated key.
pub(crate) fn json_value(text: &str) -> Result<Value, serde_json::Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = Strict.deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

struct Strict;

impl<'de> DeserializeSeed<'de> for Strict {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::from(value))
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom("a number JSON cannot hold"))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element_seed(Strict)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value_seed(Strict)?;
            if object.contains_key(&key) {
                return Err(de::Error::custom(format!(
                    "the key `{}` is written twice in one object",
                    crate::diagnostics::codes::echo(&key)
                )));
            }
            object.insert(key, value);
        }
        Ok(Value::Object(object))
    }
}

/// A YAML value as JSON, or why it has no JSON form.
pub(crate) fn yaml_value(value: serde_yaml::Value) -> Result<Value, String> {
    use serde_yaml::Value as Yaml;
    Ok(match value {
        Yaml::Null => Value::Null,
        Yaml::Bool(value) => Value::Bool(value),
        Yaml::Number(number) => {
            if let Some(n) = number.as_u64() {
                Value::from(n)
            } else if let Some(n) = number.as_i64() {
                Value::from(n)
            } else {
                let n = number.as_f64().unwrap_or(f64::NAN);
                Value::Number(Number::from_f64(n).ok_or_else(|| {
                    format!("`{number}` is not a number a trace can hold; write it as a string, like `\"{number}\"`")
                })?)
            }
        }
        Yaml::String(value) => Value::String(value),
        Yaml::Sequence(items) => Value::Array(
            items
                .into_iter()
                .map(yaml_value)
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Mapping(mapping) => {
            let mut object = Map::new();
            for (key, value) in mapping {
                let Yaml::String(key) = key else {
                    return Err(format!(
                        "a mapping key is {}, not a string; quote it, like `\"1\": ...`",
                        kind_of(&key)
                    ));
                };
                object.insert(key, yaml_value(value)?);
            }
            Value::Object(object)
        }
        Yaml::Tagged(tagged) => {
            return Err(format!(
                "the tag `{}` has no JSON form; remove it",
                crate::diagnostics::codes::echo(&tagged.tag.to_string())
            ))
        }
    })
}

fn kind_of(value: &serde_yaml::Value) -> &'static str {
    match value {
        serde_yaml::Value::Null => "null",
        serde_yaml::Value::Bool(_) => "a boolean",
        serde_yaml::Value::Number(_) => "a number",
        serde_yaml::Value::String(_) => "a string",
        serde_yaml::Value::Sequence(_) => "a list",
        serde_yaml::Value::Mapping(_) => "a mapping",
        serde_yaml::Value::Tagged(_) => "a tagged value",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_and_non_json_values_are_refused() {
        assert!(json_value(r#"{"a": 1, "b": {"c": 2}}"#).is_ok());
        assert!(json_value(r#"{"a": 1, "a": 2}"#).is_err());
        assert!(json_value(r#"[{"x": {"a": 1, "a": 1}}]"#).is_err());
        let yaml = |text: &str| {
            serde_yaml::from_str::<serde_yaml::Value>(text)
                .map_err(|e| e.to_string())
                .and_then(yaml_value)
        };
        assert!(yaml("{a: 1.5, b: [x]}").is_ok());
        for bad in [
            "{x: .inf}",
            "{x: -.inf}",
            "{x: .nan}",
            "{1: a}",
            "{true: a}",
            "{x: !foo 1}",
        ] {
            assert!(yaml(bad).is_err(), "{bad}");
        }
    }
}
