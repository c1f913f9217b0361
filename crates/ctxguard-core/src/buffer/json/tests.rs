use super::*;
use proptest::prelude::*;

/// A region read in place ends at its closing brace, whatever its
/// last field is and whatever whitespace stands before the brace.
#[test]
fn a_region_read_in_place_ends_at_its_brace() {
    let cases = [
        (r#"{}, next"#, 2),
        ("{ \n\t}, next", 5),
        (r#"{"id": "a"}, next"#, 11),
        (r#"{"id": "a", "other": {"x": [1, "}"]}  }, next"#, 39),
        (r#"  {"text": "a } b" , "tokens": 3 } ,"#, 34),
    ];
    for (text, end) in cases {
        let mut cursor = Cursor { text, at: 0 };
        let mut fields = JsonRegion::empty();
        assert_eq!(cursor.region(&mut fields), Some(()), "{text}");
        assert_eq!(cursor.at, end, "{text}");
    }
    // The fields of one region are not left in the next.
    let text = r#"{"id": "a", "key": "k"} {"id": "b"}"#;
    let mut cursor = Cursor { text, at: 0 };
    let mut fields = JsonRegion::empty();
    cursor.region(&mut fields);
    cursor.spaces();
    cursor.region(&mut fields);
    assert_eq!(
        fields.0[Name::ID.index()].map(RawValue::get),
        Some(r#""b""#)
    );
    assert!(fields.0[Name::KEY.index()].is_none());
    // Not a mapping, or not closed: no region.
    for text in [r#"[1]"#, r#"{"id": "a""#, r#"{"id": "a", "id": "b"}"#] {
        let mut cursor = Cursor { text, at: 0 };
        assert_eq!(cursor.region(&mut JsonRegion::empty()), None, "{text}");
    }
}

/// What reading `text` (one region) gives: its plain typing, if it has
/// one, and its full typing.
fn both(
    text: &str,
    lines: bool,
) -> (
    Option<Plain>,
    Result<crate::buffer::trace::Region, String>,
    Arc<SourceFile>,
) {
    let file = SourceFile::new("t.json", text);
    // Read from the file's own text: spans are where fields are in it.
    let mut fields = JsonRegion::empty();
    let mut values = serde_json::Deserializer::from_str(file.text());
    (Fill(&mut fields).deserialize(&mut values))
        .and_then(|_| values.end())
        .unwrap_or_else(|e| panic!("{e}: {text}"));
    let written = || Written {
        fields: &fields,
        span: lines.then_some(0..text.len()),
        index: 3,
        listed: !lines,
    };
    let plain = plain(&file, &written());
    let mut raw = RawRegion::empty();
    let full = written()
        .typed(&file, &mut raw)
        .and_then(|()| crate::buffer::trace::region(&file, &mut raw))
        .map_err(|d| d.message);
    (plain, full, file)
}

/// One change to a plain region: a field set to another value, or
/// dropped (`None`), or a field added.
const CHANGES: &[(&str, Option<&str>)] = &[
    ("id", Some(r#""""#)),
    ("id", Some(r#""r\u0031""#)),
    ("id", Some(r#""a\nb""#)),
    ("id", Some("5")),
    ("id", None),
    ("kind", Some(r#""constraint""#)),
    ("kind", Some(r#""narr\u0061tive""#)),
    ("kind", Some(r#""unclassified""#)),
    ("kind", Some("3")),
    ("kind", None),
    ("text", Some(r#""a\nb\t\"c\"""#)),
    ("text", Some(r#""\u00e9""#)),
    ("text", Some(r#""\ud800""#)),
    ("text", Some(r#""\\u""#)),
    ("text", Some("7")),
    ("text", Some(r#"{"a": 1}"#)),
    ("text", None),
    ("tokens", Some("0")),
    ("tokens", Some("1.5")),
    ("tokens", Some("-3")),
    ("tokens", Some("null")),
    ("tokens", Some(r#""12""#)),
    ("tokens", Some("99999999999999999999")),
    ("tokens", Some("123456789012345678")),
    ("tokens", None),
    ("role", Some(r#""tool""#)),
    ("role", Some(r#""assistant""#)),
    ("role", Some(r#""system""#)),
    ("role", Some(r#""narrator""#)),
    ("role", Some(r#""to\u006fl""#)),
    ("role", Some("1")),
    ("role", None),
    ("key", Some(r#""k""#)),
    ("status", Some(r#""active""#)),
    ("x-extra", Some("[1, 2]")),
    ("record", Some("{}")),
    ("at", Some("3")),
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A region typed as plain is the region full typing gives, field
    /// for field and span for span, in JSON and in JSON Lines: a plain
    /// region with up to two of its fields changed, dropped or added.
    #[test]
    fn a_plain_region_is_the_region_it_stands_for(
        changes in proptest::collection::vec(proptest::sample::select(CHANGES), 0..3),
        order in any::<u64>(),
        spaced in any::<bool>(),
        lines in any::<bool>(),
    ) {
        let mut fields: Vec<(&str, Option<&str>)> = vec![
            ("id", Some(r#""r1""#)),
            ("kind", Some(r#""narrative""#)),
            ("text", Some(r#""plain text""#)),
            ("tokens", Some("12")),
            ("role", Some(r#""user""#)),
        ];
        for &(name, value) in &changes {
            match fields.iter_mut().find(|(field, _)| *field == name) {
                Some(field) => field.1 = value,
                None => fields.push((name, value)),
            }
        }
        // Fields in any order.
        let turn = (order as usize) % fields.len();
        fields.rotate_left(turn);
        let written: Vec<String> = (fields.iter())
            .filter_map(|(name, value)| value.map(|value| format!("\"{name}\": {value}")))
            .collect();
        let sep = if spaced { ",\n  " } else { "," };
        let region = format!("{{{}}}", written.join(sep));
        let (plain, full, file) = both(&region, lines);
        // Not an empty test: a region as most are written is plain.
        prop_assert!(!changes.is_empty() || plain.is_some(), "not plain: {}", region);
        if let Some(plain) = plain {
            let full = full.unwrap_or_else(|e| panic!("typed as plain, refused in full: {e}: {region}"));
            prop_assert_eq!(format!("{:?}", plain.region(&file)), format!("{full:?}"), "{}", region);
        }
    }
}

#[test]
fn a_narrative_region_as_most_are_written_is_plain() {
    let region = r#"{"id": "r7", "kind": "narrative", "text": "ran the suite\nok", "tokens": 5, "role": "tool"}"#;
    for lines in [false, true] {
        let (plain, full, file) = both(region, lines);
        let plain = plain.unwrap_or_else(|| panic!("plain"));
        assert_eq!(&file.text()[plain.id()], "r7");
        assert_eq!(
            format!("{:?}", plain.region(&file)),
            format!("{:?}", full.unwrap_or_else(|e| panic!("{e}")))
        );
    }
    // Anything else is typed in full.
    for other in [
        r#"{"id": "r7", "kind": "narrative", "text": "\u00e9"}"#,
        r#"{"id": "r7", "kind": "narrative", "text": "x", "key": "k"}"#,
        r#"{"id": "r7", "kind": "narrative", "text": "x", "tokens": 1.0}"#,
        r#"{"id": "r7", "text": "x"}"#,
    ] {
        assert!(both(other, false).0.is_none(), "{other}");
    }
}
