//! JSON Schemas of the trace and plan formats, for editors and CI, and of
//! an audited compaction, for what reads `audit --format json|jsonl`
//! (`ctxguard schema`): derived from the models themselves; the places the
//! readers remember are left out.

use schemars::generate::SchemaSettings;
use serde_json::Value;

/// A format with a JSON Schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schema {
    /// The buffer before compaction.
    Trace,
    /// The buffer after it.
    Plan,
    /// One audited compaction: a line of `audit --format jsonl`, an element
    /// of `events` in `audit --format json`.
    Audit,
    /// What compaction did across a fleet: `audit --fleet-report FILE.json`.
    Fleet,
}

impl Schema {
    /// The JSON Schema, pretty-printed (JSON Schema 2020-12).
    pub fn json(self) -> String {
        schema(self)
    }
}

fn schema(which: Schema) -> String {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let schema = match which {
        Schema::Trace => generator.into_root_schema_for::<ctxguard_core::buffer::trace::Trace>(),
        Schema::Plan => generator.into_root_schema_for::<ctxguard_core::buffer::plan::Plan>(),
        Schema::Audit => generator.into_root_schema_for::<ctxguard_runtimes::audit::EventAudit>(),
        Schema::Fleet => generator.into_root_schema_for::<super::fleet::FleetSummary>(),
    };
    let mut schema = schema.to_value();
    drop_null_defaults(&mut schema);
    serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
}

/// An optional field's `"default": null` would tell editors to write `null`.
fn drop_null_defaults(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if map.get("default") == Some(&Value::Null) {
                map.remove("default");
            }
            map.values_mut().for_each(drop_null_defaults);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null_defaults),
        _ => {}
    }
}
