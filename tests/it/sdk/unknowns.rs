//! The `unknown` census: over the fixture corpus, nothing TypeScript can express may
//! degrade to `unknown`; the malformed fixture degrades exactly where it is malformed.

use codemode::code::sdk::unknown_types;

use super::{CORPUS, fixture};

#[test]
fn no_expressible_schema_degrades_to_unknown() {
    for (name, path) in CORPUS {
        if name == "malformed" {
            continue;
        }
        let unknowns = unknown_types(&fixture(path));
        assert!(
            unknowns.is_empty(),
            "{name}: {} degraded to unknown: {unknowns:#?}",
            unknowns.len()
        );
    }
}

#[test]
fn malformed_schemas_degrade_exactly_where_they_are_malformed() {
    let unknowns = unknown_types(&fixture("tools/malformed.tools.json"));
    let expected = [
        "\"malformed_schemas\" args#/properties/number_schema",
        "\"malformed_schemas\" args#/properties/bad_type/type",
        "\"malformed_schemas\" args#/properties/bad_type_array/type",
        "\"malformed_schemas\" args#/properties/bad_enum/enum",
        "\"malformed_schemas\" args#/properties/external_ref/$ref",
        "\"malformed_schemas\" args#/properties/anchor_ref/$ref",
        "\"malformed_schemas\" args#/properties/missing_ref/$ref",
        "\"malformed_schemas\" args#/properties/bad_properties/properties",
        "\"malformed_schemas\" args#/properties/bad_any_of/anyOf",
        "\"malformed_schemas\" output#/properties",
        "type MalformedSchemasLoop: refers to itself",
    ];
    assert_eq!(unknowns, expected);
}
