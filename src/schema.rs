//! The trace and plan formats (CONTRACT §3 and §4) as Rust types, for JSON
//! Schemas that editors and CI validate against (`ctxguard schema`). The
//! readers do not use these types: they keep every field's place in the
//! file. These types only describe what the readers accept.

#![allow(dead_code)]

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

/// The buffer before compaction: an ordered list of regions.
#[derive(JsonSchema)]
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

#[derive(JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Status {
    Active,
    Discharged,
}

/// The buffer after compaction, in order.
#[derive(JsonSchema)]
#[schemars(title = "ctxguard plan", extend("additionalProperties" = true))]
struct Plan {
    /// The format version.
    #[schemars(range(min = 1, max = 1))]
    version: u32,
    regions: Vec<PlanRegion>,
}

#[derive(JsonSchema)]
#[serde(untagged)]
enum PlanRegion {
    Keep(Keep),
    Summary(Summary),
    Narrative(Narrative),
    Commitment(Commitment),
}

/// A trace region, re-injected verbatim.
#[derive(JsonSchema)]
struct Keep {
    /// The trace region's id.
    keep: String,
    /// Must stay the trace's status.
    #[serde(default)]
    #[schemars(with = "Status")]
    status: Option<Status>,
    #[serde(default)]
    #[schemars(with = "u64")]
    tokens: Option<u64>,
}

#[derive(JsonSchema)]
enum SummaryKind {
    #[serde(rename = "summary")]
    Summary,
}

/// Replaces the covered regions, which must all be narrative.
#[derive(JsonSchema)]
struct Summary {
    kind: SummaryKind,
    /// Ids of the narrative regions it replaces.
    covers: Vec<String>,
    text: String,
    #[serde(default)]
    #[schemars(with = "u64")]
    tokens: Option<u64>,
}

#[derive(JsonSchema)]
enum NarrativeKind {
    #[serde(rename = "narrative")]
    Narrative,
}

/// A narrative region kept; `text`, if given, must equal the trace's.
#[derive(JsonSchema)]
struct Narrative {
    kind: NarrativeKind,
    /// The trace region's id.
    from: String,
    #[serde(default)]
    #[schemars(with = "String")]
    text: Option<String>,
    #[serde(default)]
    #[schemars(with = "u64")]
    tokens: Option<u64>,
}

/// A commitment written out in full; it must equal the trace's commitment `kind:key`.
#[derive(JsonSchema)]
#[schemars(extend("oneOf" = [{"required": ["text"]}, {"required": ["record"]}]))]
struct Commitment {
    /// A commitment kind the policy declares.
    kind: String,
    key: String,
    #[serde(default)]
    #[schemars(with = "String")]
    text: Option<String>,
    #[serde(default)]
    #[schemars(with = "Value")]
    record: Option<Value>,
    #[serde(default)]
    #[schemars(with = "Status")]
    status: Option<Status>,
    #[serde(default)]
    #[schemars(with = "u64")]
    tokens: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Trace,
    Plan,
}

/// The JSON Schema of a trace or a plan, pretty-printed.
pub fn schema(which: Which) -> String {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let schema = match which {
        Which::Trace => generator.into_root_schema_for::<Trace>(),
        Which::Plan => generator.into_root_schema_for::<Plan>(),
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
