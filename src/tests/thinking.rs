//! Claude's extended thinking (`with_claude_thinking`): over every fixture, a
//! tool is offered and never forced, and nothing else of the request changes.

use super::golden::with_documents;
use crate::{ClaudeMechanism, Enforcement, Mode, Options, Provider};
use serde_json::{Value, json};

/// Where the tool choice sits in a body: Anthropic's, then Converse's.
fn choice(body: &mut Value) -> Option<&mut Value> {
    if body.get("tool_choice").is_some() {
        return body.get_mut("tool_choice");
    }
    body.pointer_mut("/toolConfig/toolChoice")
}

#[test]
fn ok_thinking_offers_the_tool_and_changes_nothing_else() {
    let mechanisms =
        [None, Some(ClaudeMechanism::Tool), Some(ClaudeMechanism::StrictTool), Some(ClaudeMechanism::OutputFormat)];
    let (mut offered, mut unchanged, mut wrong) = (0, 0, Vec::new());
    for (group, case, path) in super::fixtures() {
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        for provider in [Provider::Claude, Provider::Bedrock] {
            for mechanism in mechanisms {
                for (mode, json_tool) in [(Mode::Schema, false), (Mode::Json, true)] {
                    let mut opts = Options::new(provider).with_mode(mode).with_claude_json_tool(json_tool);
                    if let Some(m) = mechanism {
                        opts = opts.with_claude_mechanism(m);
                    }
                    let opts = with_documents(&group, opts);
                    let at = format!("{group}/{case} {provider} {mechanism:?} {mode:?} json tool {json_tool}");
                    let (plain, thinking) =
                        match (opts.compile(&schema), opts.clone().with_claude_thinking(true).compile(&schema)) {
                            (Ok(p), Ok(t)) => (p, t),
                            (Err(a), Err(b)) if a.to_string() == b.to_string() => continue,
                            _ => {
                                wrong.push(format!("{at}: compiles with thinking and not without, or the other way"));
                                continue;
                            }
                        };
                    let (mut sent, mut expected) = (thinking.body().clone(), plain.body().clone());
                    match (choice(&mut sent), choice(&mut expected)) {
                        (Some(c), Some(forced)) => {
                            let auto = if provider == Provider::Bedrock {
                                json!({"auto": {}})
                            } else {
                                json!({"type": "auto"})
                            };
                            if *c != auto {
                                wrong.push(format!("{at}: tool choice {c}"));
                            }
                            if thinking.enforcement() != Enforcement::Prompt {
                                wrong.push(format!("{at}: an offered tool promises {}", thinking.enforcement()));
                            }
                            // Apart from the choice, the same request.
                            *c = forced.clone();
                            offered += 1;
                        }
                        (None, None) => {
                            if thinking.enforcement() != plain.enforcement() {
                                wrong.push(format!("{at}: enforcement changed without a tool"));
                            }
                            unchanged += 1;
                        }
                        _ => wrong.push(format!("{at}: a tool with thinking and not without, or the other way")),
                    }
                    if sent != expected {
                        wrong.push(format!("{at}: the body changed beyond the tool choice"));
                    }
                    if thinking.headers() != plain.headers() {
                        wrong.push(format!("{at}: the headers changed"));
                    }
                    // With reshape: an offered tool's schema is the caller's own shape.
                    if thinking.tool.is_some()
                        && let Ok(reshaped) =
                            opts.clone().with_reshape(true).with_claude_thinking(true).compile(&schema)
                        && reshaped.tool.is_some()
                        && (reshaped.is_reshaped() || reshaped.body() != thinking.body())
                    {
                        wrong.push(format!("{at}: an offered tool was reshaped"));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} cases:\n{}", wrong.len(), wrong.join("\n"));
    assert!(offered > 1000 && unchanged > 500, "both kinds are exercised: {offered} offered, {unchanged} unchanged");
}

/// An offered tool may be called or not: `decode` reads the input, else the text.
#[test]
fn ok_offered_tool_answer_decodes_from_the_input_or_the_text() {
    let schema = json!({"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
        "additionalProperties": false});
    let em = Options::new(Provider::Claude)
        .with_claude_mechanism(ClaudeMechanism::StrictTool)
        .with_claude_thinking(true)
        .compile(&schema)
        .expect("compiles");
    let thinking = json!({"type": "thinking", "thinking": "…", "signature": "s"});
    let called = json!({"type": "message", "role": "assistant", "stop_reason": "tool_use", "content": [thinking,
        {"type": "text", "text": "Recording it."},
        {"type": "tool_use", "id": "t", "name": "emit_structured_output", "input": {"city": "Oslo"}}]});
    let texted = json!({"type": "message", "role": "assistant", "stop_reason": "end_turn", "content": [thinking,
        {"type": "text", "text": "{\"city\": \"Oslo\"}"}]});
    for body in [called, texted] {
        assert_eq!(em.decode(&body).expect("decodes").value(), &json!({"city": "Oslo"}), "{body}");
    }
    let wrong = json!({"type": "message", "role": "assistant", "stop_reason": "end_turn", "content": [
        {"type": "text", "text": "{\"town\": \"Oslo\"}"}]});
    assert_eq!(em.decode(&wrong).expect_err("validated").kind(), "schema_violation");
}
