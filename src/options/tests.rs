use super::*;
use serde_json::json;

#[test]
fn ok_a_name_made_from_any_text() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": false});
    let name = |t: &str| {
        let e = Options::new(Provider::OpenAi).with_name_from(t).compile(&schema).expect("compiles");
        e.body()["response_format"]["json_schema"]["name"].clone()
    };
    assert_eq!(name("Page[Item]"), "Page_Item_");
    assert_eq!(name(&"x".repeat(80)), json!("x".repeat(64)));
    assert_eq!(name("caf\u{e9}-2"), "caf_-2");
    assert_eq!(name(""), "structured_output", "an empty text keeps the default");
}
