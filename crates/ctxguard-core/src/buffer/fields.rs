//! Typed access to a raw region's fields, shared by the trace and plan
//! readers, with errors that say what was expected and where.

use std::sync::Arc;

use serde_json::Value;

use crate::buffer::document::{Field, FieldValue, Name, RawRegion};
use crate::buffer::trace::{Content, Place, Status};
use crate::diagnostics::codes::input as codes;
use crate::diagnostics::Diagnostic;
use crate::source::{SourceFile, Span, Text};

pub(crate) fn place(file: &SourceFile, raw: &RawRegion) -> Place {
    Place {
        index: raw.index,
        span: raw.opening(file.text()),
        listed: raw.listed,
    }
}

/// Typed access to a raw region's fields, with errors that say what was expected.
pub(crate) struct Fields<'a> {
    pub file: &'a Arc<SourceFile>,
    pub raw: &'a mut RawRegion,
}

/// What a JSON value is, as messages name it: `a list`, `null`.
pub(crate) fn type_name(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

fn field_u64(value: &FieldValue) -> Option<u64> {
    match value {
        FieldValue::Other(value) => value.as_u64(),
        FieldValue::Str(_) | FieldValue::List(_) | FieldValue::Strings(_) => None,
    }
}

impl Fields<'_> {
    fn where_(&self) -> String {
        match &self.raw.pointer() {
            Some(pointer) => format!("region `{pointer}`"),
            None => format!(
                "the region on line {}",
                self.file.line_col(self.raw.span.start).0
            ),
        }
    }

    pub fn error(&self, span: Span, message: String, label: &str, help: String) -> Box<Diagnostic> {
        let mut diagnostic = codes::invalid_input(message)
            .label(self.file, span, label)
            .help(help);
        if let Some(label) = diagnostic.labels.first_mut() {
            label.pointer = self.raw.pointer();
        }
        Box::new(diagnostic)
    }

    fn wrong_type(&self, name: Name, field: &Field, expected: &str) -> Box<Diagnostic> {
        self.error(
            field.span.clone(),
            format!(
                "`{name}` of {} must be {expected}, not {}",
                self.where_(),
                field.value.type_name()
            ),
            &format!("expected {expected}"),
            format!("write `{name}` as {expected}"),
        )
    }

    /// Each accessor moves its field out of the raw region: no copies.
    pub fn string(&mut self, name: Name) -> Result<Option<(String, Span)>, Box<Diagnostic>> {
        Ok(self
            .text(name)?
            .map(|(text, span)| (text.into_string(), span)))
    }

    /// A string as read, still shared with its file when it can be: for
    /// a field that is only compared (`kind`, `role`, `status`).
    pub fn text(&mut self, name: Name) -> Result<Option<(Text, Span)>, Box<Diagnostic>> {
        match self.raw.take(name) {
            None => Ok(None),
            Some(Field {
                value: FieldValue::Str(text),
                span,
                ..
            }) => Ok(Some((text, span))),
            Some(field) => Err(self.wrong_type(name, &field, "a string")),
        }
    }

    pub fn required_string(&mut self, name: Name) -> Result<(String, Span), Box<Diagnostic>> {
        self.string(name)?.ok_or_else(|| {
            self.error(
                self.raw.opening(self.file.text()),
                format!("{} has no `{name}`", self.where_()),
                &format!("expected `{name}` in this region"),
                format!("every region needs `{name}`"),
            )
        })
    }

    /// A non-negative whole number (`tokens`, `at`, `tagged_at`).
    pub fn count(&mut self, name: Name) -> Result<Option<(u64, Span)>, Box<Diagnostic>> {
        match self.raw.take(name) {
            None
            | Some(Field {
                value: FieldValue::Other(Value::Null),
                ..
            }) => Ok(None),
            Some(field) => match field_u64(&field.value) {
                Some(n) => Ok(Some((n, field.span))),
                None => Err(self.wrong_type(name, &field, "a whole number, 0 or more")),
            },
        }
    }

    pub fn status(&mut self) -> Result<(Option<Status>, Option<Span>), Box<Diagnostic>> {
        match self.text(Name::STATUS)? {
            None => Ok((None, None)),
            Some((status, span)) => match status.as_str() {
                "active" => Ok((Some(Status::Active), Some(span))),
                "discharged" => Ok((Some(Status::Discharged), Some(span))),
                other => Err(self.error(
                    span,
                    format!("`status` of {} is `{other}`", self.where_()),
                    "expected `active` or `discharged`",
                    "a commitment is `active` (the default) or `discharged` (already carried out)"
                        .to_owned(),
                )),
            },
        }
    }

    /// A field that is a mapping of a known shape (`source`), typed by serde.
    pub fn typed<T: serde::de::DeserializeOwned>(
        &mut self,
        name: Name,
        expected: &str,
    ) -> Result<Option<T>, Box<Diagnostic>> {
        let Some(field) = self.raw.take(name) else {
            return Ok(None);
        };
        match serde_json::from_value::<T>(field.value.clone().into_value()) {
            Ok(value) => Ok(Some(value)),
            Err(error) => Err(self.error(
                field.span.clone(),
                format!("`{name}` of {} cannot be read: {error}", self.where_()),
                &format!("expected {expected}"),
                format!("write `{name}` as {expected}, or leave it out"),
            )),
        }
    }

    /// Exactly one of `text` (a string) and `record` (any value).
    pub fn content(&mut self) -> Result<(Content, Span), Box<Diagnostic>> {
        match (self.raw.take(Name::TEXT), self.raw.take(Name::RECORD)) {
            (Some(text), Some(record)) => Err(self.error(
                record.span.clone(),
                format!("{} has both `text` and `record`", self.where_()),
                "second content",
                format!(
                    "keep one: `text` (at line {}) or `record`",
                    self.file.line_col(text.span.start).0
                ),
            )),
            (
                Some(Field {
                    value: FieldValue::Str(text),
                    span,
                    ..
                }),
                None,
            ) => Ok((Content::Text(text), span)),
            (Some(field), None) => Err(self.wrong_type(Name::TEXT, &field, "a string")),
            (None, Some(record)) => Ok((
                Content::Record(Box::new(record.value.into_value())),
                record.span,
            )),
            (None, None) => Err(self.error(
                self.raw.opening(self.file.text()),
                format!("{} has no content", self.where_()),
                "expected `text` or `record`",
                "give the region its content as `text` (a string) or `record` (any value)"
                    .to_owned(),
            )),
        }
    }
}
