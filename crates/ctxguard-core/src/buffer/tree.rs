//! A runtime config read into one spanned tree, whatever its format: JSON,
//! JSON with comments and JSON5 (jsonc-parser), TOML (toml_edit), YAML
//! (saphyr). Every value and every key keeps its byte range in the file,
//! so each finding points at the exact place.

use std::sync::Arc;

use crate::diagnostics::codes::runtime as codes;
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span};

/// The syntax a config is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// JSON, JSON with comments, JSON5.
    Json,
    /// TOML.
    Toml,
    /// YAML.
    Yaml,
}

/// A value and where it stands.
#[derive(Clone, Debug)]
pub struct Node {
    /// Its bytes in the file.
    pub span: Span,
    /// The value.
    pub value: Value,
}

/// A config value.
#[derive(Clone, Debug)]
pub enum Value {
    /// `null`, YAML `~`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// A number, as written.
    Number(f64),
    /// A string.
    Str(String),
    /// A list.
    List(Vec<Node>),
    /// A map, in file order.
    Map(Vec<Entry>),
    /// A TOML date or time, a YAML alias: nothing a check reads.
    Other,
}

/// A key of a map, its place, and its value.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The key.
    pub key: String,
    /// Where the key is written.
    pub key_span: Span,
    /// Its value.
    pub node: Node,
}

impl Node {
    /// The entry `key` of a map: the last, where a key is written twice,
    /// as the runtimes read it (`JSON.parse`, Python's `json`).
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        match &self.value {
            Value::Map(entries) => entries.iter().rfind(|e| e.key == key),
            _ => None,
        }
    }

    /// The value at `key` of a map.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.node)
    }

    /// The value at a path of keys.
    pub fn at(&self, path: &[&str]) -> Option<&Node> {
        path.iter().try_fold(self, |node, key| node.get(key))
    }

    /// The entries of a map (none for anything else).
    pub fn entries(&self) -> &[Entry] {
        match &self.value {
            Value::Map(entries) => entries,
            _ => &[],
        }
    }

    /// The items of a list (none for anything else).
    pub fn items(&self) -> &[Node] {
        match &self.value {
            Value::List(items) => items,
            _ => &[],
        }
    }

    /// A string value.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(text) => Some(text),
            _ => None,
        }
    }

    /// A number value.
    pub fn as_f64(&self) -> Option<f64> {
        match &self.value {
            Value::Number(n) => Some(*n),
            _ => None,
        }
    }

    /// A boolean value.
    pub fn as_bool(&self) -> Option<bool> {
        match &self.value {
            Value::Bool(flag) => Some(*flag),
            _ => None,
        }
    }

    /// What the value is, for "expected a number, found a string".
    pub fn type_name(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::Str(_) => "a string",
            Value::List(_) => "a list",
            Value::Map(_) => "a map",
            Value::Other => "a date or an alias",
        }
    }
}

/// Reads `file` as `syntax`; a file that does not parse is `invalid-config`
/// at the place the parser stopped.
pub fn read(file: &Arc<SourceFile>, syntax: Syntax) -> Result<Node, Box<Diagnostic>> {
    match syntax {
        Syntax::Json => json(file),
        Syntax::Toml => toml(file),
        Syntax::Yaml => yaml(file),
    }
}

fn json(file: &Arc<SourceFile>) -> Result<Node, Box<Diagnostic>> {
    use jsonc_parser::ast;
    let text = file.text();
    let parsed = jsonc_parser::parse_to_ast(
        text,
        &jsonc_parser::CollectOptions::default(),
        &jsonc_parser::ParseOptions::default(),
    )
    .map_err(|error| {
        let range = error.range();
        Box::new(codes::unparsable(
            file,
            range.start..range.end.max(range.start),
            "JSON",
            &error.kind().to_string(),
        ))
    })?;
    fn node(value: &ast::Value<'_>) -> Node {
        let range = |r: &jsonc_parser::common::Range| r.start..r.end;
        match value {
            ast::Value::StringLit(s) => Node {
                span: range(&s.range),
                value: Value::Str(s.value.to_string()),
            },
            ast::Value::NumberLit(n) => Node {
                span: range(&n.range),
                value: n
                    .value
                    .parse::<f64>()
                    .map(Value::Number)
                    .unwrap_or_else(|_| Value::Str(n.value.to_owned())),
            },
            ast::Value::BooleanLit(b) => Node {
                span: range(&b.range),
                value: Value::Bool(b.value),
            },
            ast::Value::NullKeyword(n) => Node {
                span: range(&n.range),
                value: Value::Null,
            },
            ast::Value::Array(a) => Node {
                span: range(&a.range),
                value: Value::List(a.elements.iter().map(node).collect()),
            },
            ast::Value::Object(o) => Node {
                span: range(&o.range),
                value: Value::Map(
                    o.properties
                        .iter()
                        .map(|p| {
                            let (key, key_span) = match &p.name {
                                ast::ObjectPropName::String(s) => {
                                    (s.value.to_string(), range(&s.range))
                                }
                                ast::ObjectPropName::Word(w) => {
                                    (w.value.to_owned(), range(&w.range))
                                }
                            };
                            Entry {
                                key,
                                key_span,
                                node: node(&p.value),
                            }
                        })
                        .collect(),
                ),
            },
        }
    }
    Ok(parsed.value.as_ref().map_or(
        Node {
            span: 0..0,
            value: Value::Map(Vec::new()),
        },
        node,
    ))
}

fn toml(file: &Arc<SourceFile>) -> Result<Node, Box<Diagnostic>> {
    use toml_edit::{Item, Value as TomlValue};
    let text = file.text();
    let document = toml_edit::Document::parse(text).map_err(|error| {
        let span = error.span().unwrap_or(0..0);
        Box::new(codes::unparsable(file, span, "TOML", error.message()))
    })?;
    fn value(v: &TomlValue) -> Node {
        let span = v.span().unwrap_or(0..0);
        let value = match v {
            TomlValue::String(s) => Value::Str(s.value().clone()),
            TomlValue::Integer(i) => Value::Number(*i.value() as f64),
            TomlValue::Float(f) => Value::Number(*f.value()),
            TomlValue::Boolean(b) => Value::Bool(*b.value()),
            TomlValue::Datetime(_) => Value::Other,
            TomlValue::Array(a) => Value::List(a.iter().map(value).collect()),
            TomlValue::InlineTable(t) => Value::Map(
                t.iter()
                    .map(|(k, v)| Entry {
                        key: k.to_owned(),
                        key_span: t.key(k).and_then(|k| k.span()).unwrap_or(0..0),
                        node: value(v),
                    })
                    .collect(),
            ),
        };
        Node { span, value }
    }
    fn table(t: &toml_edit::Table) -> Node {
        Node {
            span: t.span().unwrap_or(0..0),
            value: Value::Map(
                t.iter()
                    .map(|(k, item)| {
                        let key_span = t.key(k).and_then(|k| k.span()).unwrap_or(0..0);
                        Entry {
                            key: k.to_owned(),
                            key_span: key_span.clone(),
                            node: toml_item(item, key_span),
                        }
                    })
                    .collect(),
            ),
        }
    }
    fn toml_item(item: &Item, key_span: Span) -> Node {
        let mut node = match item {
            Item::None => Node {
                span: 0..0,
                value: Value::Null,
            },
            Item::Value(v) => value(v),
            Item::Table(t) => table(t),
            Item::ArrayOfTables(a) => Node {
                span: a.span().unwrap_or(0..0),
                value: Value::List(a.iter().map(table).collect()),
            },
        };
        if node.span == (0..0) {
            node.span = key_span;
        }
        node
    }
    let mut root = table(document.as_table());
    root.span = 0..text.len();
    Ok(root)
}

fn yaml(file: &Arc<SourceFile>) -> Result<Node, Box<Diagnostic>> {
    use saphyr::{LoadableYamlNode, MarkedYaml, Scalar, YamlData};
    let text = file.text();
    // Marks count characters; spans are bytes.
    let bytes: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let byte = |index: usize| bytes.get(index).copied().unwrap_or(text.len());
    let documents = MarkedYaml::load_from_str(text).map_err(|error| {
        let at = byte(error.marker().index());
        Box::new(codes::unparsable(file, at..at, "YAML", error.info()))
    })?;
    fn node(n: &MarkedYaml<'_>, byte: &dyn Fn(usize) -> usize) -> Node {
        let span = byte(n.span.start.index())..byte(n.span.end.index());
        let value = match &n.data {
            YamlData::Value(Scalar::Null) => Value::Null,
            YamlData::Value(Scalar::Boolean(b)) => Value::Bool(*b),
            YamlData::Value(Scalar::Integer(i)) => Value::Number(*i as f64),
            YamlData::Value(Scalar::FloatingPoint(f)) => Value::Number(f.into_inner()),
            YamlData::Value(Scalar::String(s)) => Value::Str(s.to_string()),
            YamlData::Representation(s, _, _) => Value::Str(s.to_string()),
            YamlData::Sequence(items) => Value::List(items.iter().map(|i| node(i, byte)).collect()),
            YamlData::Mapping(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| {
                        let key = node(k, byte);
                        Entry {
                            key: match &key.value {
                                Value::Str(s) => s.clone(),
                                Value::Number(n) => n.to_string(),
                                Value::Bool(b) => b.to_string(),
                                _ => String::new(),
                            },
                            key_span: key.span,
                            node: node(v, byte),
                        }
                    })
                    .collect(),
            ),
            _ => Value::Other,
        };
        Node { span, value }
    }
    Ok(documents.first().map_or(
        Node {
            span: 0..0,
            value: Value::Map(Vec::new()),
        },
        |d| node(d, &byte),
    ))
}

/// Every key written twice in one map of the tree: (first, last).
pub fn duplicates(root: &Node) -> Vec<(&Entry, &Entry)> {
    let mut found = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match &node.value {
            Value::Map(entries) => {
                let mut seen: std::collections::HashMap<&str, &Entry> =
                    std::collections::HashMap::new();
                for entry in entries {
                    if let Some(first) = seen.get(entry.key.as_str()) {
                        found.push((*first, entry));
                    } else {
                        seen.insert(&entry.key, entry);
                    }
                    stack.push(&entry.node);
                }
            }
            Value::List(items) => stack.extend(items.iter()),
            _ => {}
        }
    }
    found.sort_by_key(|(first, _)| first.key_span.start);
    found
}
