//! JSON Schemas of the trace and plan formats, for editors and CI
//! (`ctxguard schema`). The plan's is derived from the plan model itself.
//! The trace's is derived from a description of what the trace reader
//! accepts: the trace model holds what the verifier needs (a resolved
//! kind, a role), not the format as written.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

use crate::buffer::trace::Status;

/// The buffer before compaction: an ordered list of regions.
#[derive(JsonSchema)]
#[allow(dead_code)] // describes the format; never built
#[schemars(title = "ctxguard trace", extend("additionalProperties" = true))]
struct Trace {
    /// The format version.
    #[schemars(range(min = 1, max = 1))]
    version: u32,
    regions: Vec<TraceRegion>,
}

/// A region: narrative, unclassified, or a commitment of a declared kind.
/// It holds exactly one of `text` and `record`.
#[derive(JsonSchema)]
#[allow(dead_code)]
#[schemars(extend("oneOf" = [{"required": ["text"]}, {"required": ["record"]}]))]
struct TraceRegion {
    /// Unique within the trace.
    id: String,
    /// `narrative`, `unclassified`, or a commitment kind the policy declares. Missing means `unclassified`.
    #[serde(default)]
    #[schemars(with = "String")]
    kind: Option<String>,
    /// A commitment's stable identity is `kind:key`; required for commitments.
    #[serde(default)]
    #[schemars(with = "String")]
    key: Option<String>,
    /// The content, compared byte for byte.
    #[serde(default)]
    #[schemars(with = "String")]
    text: Option<String>,
    /// Structured content, compared structurally (object key order ignored).
    #[serde(default)]
    #[schemars(with = "Value")]
    record: Option<Value>,
    /// Precomputed token count; otherwise counted with the policy's tokenizer.
    #[schemars(range(min = 0))]
    #[serde(default)]
    #[schemars(with = "u64")]
    tokens: Option<u64>,
    /// Append sequence number.
    #[serde(default)]
    #[schemars(with = "u64")]
    at: Option<u64>,
    /// Sequence number at which the tag was applied; later than `at` is a retrofitted tag.
    #[serde(default)]
    #[schemars(with = "u64")]
    tagged_at: Option<u64>,
    /// Who wrote the region; informational, but tool output is never taken for an untagged commitment.
    #[serde(default)]
    #[schemars(with = "String")]
    role: Option<String>,
    /// For commitments: `discharged` means already carried out. Missing means `active`.
    #[serde(default)]
    #[schemars(with = "Status")]
    status: Option<Status>,
}

/// A format with a JSON Schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schema {
    /// The buffer before compaction.
    Trace,
    /// The buffer after it.
    Plan,
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
        Schema::Trace => generator.into_root_schema_for::<Trace>(),
        Schema::Plan => generator.into_root_schema_for::<crate::buffer::plan::Plan>(),
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
