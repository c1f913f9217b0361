//! Values as a trace or plan holds them, read strictly: two different
//! inputs must never become one value, or an altered record could pass as
//! the original. A JSON object with a key written twice is refused (serde
//! keeps the last one silently); so are YAML values JSON cannot hold
//! (`.inf`, `.nan`, keys that are not strings, tags), which would otherwise
//! become `null` or a string and compare equal to another input.

use std::fmt;

use saphyr::{Scalar, ScalarStyle, Tag, Yaml};
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

/// A YAML value as JSON, or why it has no JSON form. Scalars come as
/// written (the loader is told not to resolve them) and are resolved here by
/// the YAML 1.2 core schema, with integers up to `u64::MAX` kept exact.
pub(crate) fn yaml_value(value: Yaml<'_>) -> Result<Value, String> {
    Ok(match value {
        Yaml::Representation(text, style, tag) => scalar(&text, style, tag.as_deref())?,
        Yaml::Value(value) => resolved(value)?,
        Yaml::Sequence(items) => Value::Array(
            items
                .into_iter()
                .map(yaml_value)
                .collect::<Result<_, _>>()?,
        ),
        Yaml::Mapping(mapping) => {
            let mut object = Map::new();
            for (key, value) in mapping {
                let key = match yaml_value(key)? {
                    Value::String(key) => key,
                    other => {
                        return Err(format!(
                            "a mapping key is {}, not a string; quote it, like `\"1\": ...`",
                            crate::buffer::fields::type_name(&other)
                        ))
                    }
                };
                // Keys are compared as written (`a` and `"a"` differ there), so
                // the same key spelled twice is caught here, by its value.
                if object.contains_key(&key) {
                    return Err(format!(
                        "the key `{}` is written twice in one mapping",
                        crate::diagnostics::codes::echo(&key)
                    ));
                }
                object.insert(key, yaml_value(value)?);
            }
            Value::Object(object)
        }
        Yaml::Tagged(tag, inner) if core_suffix(&tag).is_some() => yaml_value(*inner)?,
        Yaml::Tagged(tag, _) => return Err(tag_error(&tag)),
        Yaml::Alias(_) | Yaml::BadValue => {
            return Err("an alias to an anchor that is not defined before it".to_owned())
        }
    })
}

/// The core-schema type a tag names (`!!str`, or verbatim
/// `!<tag:yaml.org,2002:str>`), or `None` for any other tag.
fn core_suffix(tag: &Tag) -> Option<&str> {
    const CORE: &str = "tag:yaml.org,2002:";
    if tag.is_yaml_core_schema() {
        return Some(&tag.suffix);
    }
    match tag.handle.as_str() {
        "" | "!" => tag.suffix.strip_prefix(CORE),
        _ => None,
    }
}

fn scalar(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Result<Value, String> {
    let tag = match tag {
        Some(tag) => match core_suffix(tag) {
            Some(suffix) => Some(Tag {
                handle: "tag:yaml.org,2002:".to_owned(),
                suffix: suffix.to_owned(),
            }),
            None => return Err(tag_error(tag)),
        },
        None => None,
    };
    let tag = tag.as_ref();
    let int_allowed = tag.is_none_or(|tag| tag.suffix == "int");
    if style == ScalarStyle::Plain && int_allowed {
        // Past i64 the core schema's reading would be a float; a token count
        // of 2^64 - 1 must stay exact.
        if let Ok(n) = text.parse::<u64>() {
            return Ok(Value::from(n));
        }
    }
    let owned = tag.map(|tag| std::borrow::Cow::Owned(tag.clone()));
    match Scalar::parse_from_cow_and_metadata(text.into(), style, owned.as_ref()) {
        Some(value) => resolved(value),
        None => Err(format!(
            "`{}` is not a value of its tag `{}`",
            crate::diagnostics::codes::echo(text),
            tag.map(ToString::to_string).unwrap_or_default()
        )),
    }
}

fn resolved(value: Scalar<'_>) -> Result<Value, String> {
    Ok(match value {
        Scalar::Null => Value::Null,
        Scalar::Boolean(value) => Value::Bool(value),
        Scalar::Integer(value) => Value::from(value),
        Scalar::FloatingPoint(value) => {
            let n = value.into_inner();
            Value::Number(Number::from_f64(n).ok_or_else(|| {
                format!(
                    "`{n}` is not a number a trace can hold; write it as a string, like `\"{n}\"`"
                )
            })?)
        }
        Scalar::String(value) => Value::String(value.into_owned()),
    })
}

fn tag_error(tag: &Tag) -> String {
    format!(
        "the tag `{}` has no JSON form; remove it",
        crate::diagnostics::codes::echo(&tag.to_string())
    )
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
            crate::buffer::yaml::load(text)
                .map_err(|e| e.to_string())
                .and_then(yaml_value)
        };
        assert!(yaml("{a: 1.5, b: [x]}").is_ok());
        assert_eq!(
            yaml("{n: 18446744073709551615, m: -3, s: '.inf', t: ~, u: 0x10, '1': yes}"),
            Ok(serde_json::json!({
                "n": u64::MAX, "m": -3, "s": ".inf", "t": null, "u": 16, "1": "yes"
            }))
        );
        assert_eq!(
            yaml("{!<tag:yaml.org,2002:str> a: !!str 1, b: !!map {c: !!float 2}}"),
            Ok(serde_json::json!({"a": "1", "b": {"c": 2.0}}))
        );
        for bad in [
            "{x: .inf}",
            "{x: -.inf}",
            "{x: .nan}",
            "{1: a}",
            "{true: a}",
            "{x: !foo 1}",
            "{x: !foo [1]}",
            "{a: 1, \"a\": 2}",
            "{x: !!int abc}",
            "{x: !<tag:example.com,2000:a> 1}",
        ] {
            assert!(yaml(bad).is_err(), "{bad}");
        }
    }
}
