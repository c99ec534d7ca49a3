//! Tool definitions, tool_choice and tool sets: the documented examples in
//! corpus/protocol/ round trip exactly, convert across vendors and back, and
//! malformed input gives typed errors.

use std::path::PathBuf;

use tooljson::protocol::{
    ChoiceViolation, NameProblem, ProtocolError, ToolChoice, ToolDefinition, ToolSet, Vendor,
};
use tooljson::{Value, json};

fn corpus(name: &str) -> Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("corpus/protocol")
        .join(name);
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    tooljson::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The members of a request body this layer owns.
fn tool_part(body: &Value) -> Value {
    let mut o = tooljson::Map::new();
    for k in ["tools", "tool_choice", "parallel_tool_calls"] {
        if let Some(v) = body.get(k) {
            o.insert(k.to_owned(), v.clone());
        }
    }
    Value::Object(o)
}

#[test]
fn documented_requests_round_trip_exactly() {
    for (file, vendor) in [
        ("anthropic_request_weather.json", Vendor::Anthropic),
        ("openai_chat_request_weather.json", Vendor::OpenAiChat),
        (
            "openai_responses_request_weather.json",
            Vendor::OpenAiResponses,
        ),
    ] {
        let body = corpus(file);
        let set = ToolSet::from_request_json(&body).unwrap();
        assert_eq!(
            set.to_request_json(vendor).lossless().unwrap(),
            tool_part(&body),
            "{file}"
        );
        // Each definition alone, too, and through serde.
        for t in body["tools"].as_array().unwrap() {
            if let Ok(def) = ToolDefinition::from_vendor_json(t) {
                assert_eq!(def.source(), vendor, "{file}");
                assert_eq!(&def.to_vendor(vendor).lossless().unwrap(), t, "{file}");
                assert_eq!(&serde_json::to_value(&def).unwrap(), t, "{file}");
                let back: ToolDefinition =
                    serde_json::from_value(t.to_serde_json().unwrap()).unwrap();
                assert_eq!(back, def, "{file}");
            }
        }
    }
}

#[test]
fn anthropic_request_reads_as_documented() {
    let set = ToolSet::from_request_json(&corpus("anthropic_request_weather.json")).unwrap();
    assert_eq!(set.len(), 2);
    assert_eq!(set.choice(), &ToolChoice::Any);
    assert_eq!(set.parallel_tool_calls(), Some(false));
    let w = set.get("get_weather").unwrap();
    assert_eq!(
        w.description(),
        Some("Get the current weather in a given location")
    );
    assert_eq!(w.input_schema()["required"], json!(["location"]));
    assert_eq!(set.other_tools().count(), 1);
    assert!(
        set.get("web_search").is_none(),
        "a server tool is no client tool"
    );
    // The server tool's name counts as declared.
    assert!(set.check_choice(&["web_search"]).is_ok());
}

#[test]
fn anthropic_to_openai_and_back_gives_the_original() {
    let body = corpus("anthropic_request_weather.json");
    let set = ToolSet::from_request_json(&body).unwrap();
    let weather = &body["tools"][0];
    for other in [Vendor::OpenAiChat, Vendor::OpenAiResponses] {
        let def = ToolDefinition::from_vendor_json(weather).unwrap();
        let there = def.to_vendor(other).lossless().unwrap();
        let back = ToolDefinition::from_vendor_json(&there).unwrap();
        assert_eq!(
            &back.to_vendor(Vendor::Anthropic).lossless().unwrap(),
            weather,
            "via {other}"
        );
        // tool_choice and the parallel flag survive, too.
        let (req, losses) = set.to_request_json(other).accept_losses();
        let (choice, _) = ToolChoice::from_vendor_json(&req["tool_choice"]).unwrap();
        assert_eq!(choice, ToolChoice::Any);
        assert_eq!(req["parallel_tool_calls"], json!(false));
        // What OpenAI cannot carry is reported, each with its pointer: the
        // Anthropic-only cache_control, and the Anthropic server tool (left
        // out: OpenAI cannot run it).
        let lost: Vec<(&str, &str)> = losses
            .iter()
            .map(|l| (l.at.as_str(), l.part.as_str()))
            .collect();
        assert_eq!(
            lost,
            [
                ("/tools/1/cache_control", "cache_control"),
                ("/tools/2", "tool")
            ],
            "via {other}"
        );
        // Through the whole set: the client tools come back.
        let set2 = ToolSet::from_request_json(&req).unwrap();
        let again = set2.to_request_json(Vendor::Anthropic).lossless().unwrap();
        assert_eq!(again["tool_choice"], body["tool_choice"], "via {other}");
        assert_eq!(again["tools"][0], body["tools"][0], "via {other}");
        assert_eq!(again["tools"].as_array().unwrap().len(), 2, "via {other}");
        let mut without = body["tools"][1].clone();
        without.as_object_mut().unwrap().remove("cache_control");
        assert_eq!(again["tools"][1], without, "via {other}");
    }
}

#[test]
fn openai_shapes_convert_into_each_other() {
    let chat = corpus("openai_chat_request_weather.json");
    let resp = corpus("openai_responses_request_weather.json");
    let c = ToolDefinition::from_vendor_json(&chat["tools"][0]).unwrap();
    let r = ToolDefinition::from_vendor_json(&resp["tools"][0]).unwrap();
    assert_eq!(
        c.to_vendor(Vendor::OpenAiResponses).lossless().unwrap(),
        resp["tools"][0]
    );
    assert_eq!(
        r.to_vendor(Vendor::OpenAiChat).lossless().unwrap(),
        chat["tools"][0]
    );
    assert_eq!(c.strict(), Some(true));
    assert_eq!(
        c.to_vendor(Vendor::Anthropic).lossless().unwrap(),
        json!({
            "name": "get_weather",
            "description": "Get current temperature for a given location.",
            "input_schema": chat["tools"][0]["function"]["parameters"],
            "strict": true
        })
    );
    let set = ToolSet::from_request_json(&chat).unwrap();
    assert_eq!(set.choice(), &ToolChoice::Tool("get_weather".into()));
    assert_eq!(
        set.to_request_json(Vendor::OpenAiResponses)
            .lossless()
            .unwrap()["tool_choice"],
        json!({"type": "function", "name": "get_weather"})
    );
    assert_eq!(
        set.to_request_json(Vendor::Anthropic).lossless().unwrap()["tool_choice"],
        json!({"type": "tool", "name": "get_weather", "disable_parallel_tool_use": true})
    );
}

#[test]
fn the_four_postures_in_every_shape() {
    let cases = [
        (
            ToolChoice::Auto,
            json!({"type": "auto"}),
            json!("auto"),
            json!("auto"),
        ),
        (
            ToolChoice::Any,
            json!({"type": "any"}),
            json!("required"),
            json!("required"),
        ),
        (
            ToolChoice::None,
            json!({"type": "none"}),
            json!("none"),
            json!("none"),
        ),
        (
            ToolChoice::Tool("get_weather".into()),
            json!({"type": "tool", "name": "get_weather"}),
            json!({"type": "function", "function": {"name": "get_weather"}}),
            json!({"type": "function", "name": "get_weather"}),
        ),
    ];
    for (choice, anthropic, chat, responses) in cases {
        assert_eq!(
            choice
                .to_vendor(Vendor::Anthropic, None)
                .lossless()
                .unwrap(),
            Some(anthropic.clone())
        );
        assert_eq!(
            choice
                .to_vendor(Vendor::OpenAiChat, None)
                .lossless()
                .unwrap(),
            Some(chat.clone())
        );
        assert_eq!(
            choice
                .to_vendor(Vendor::OpenAiResponses, None)
                .lossless()
                .unwrap(),
            Some(responses.clone())
        );
        for v in [&anthropic, &chat, &responses] {
            assert_eq!(
                ToolChoice::from_vendor_json(v).unwrap(),
                (choice.clone(), None)
            );
        }
    }
    let (c, p) =
        ToolChoice::from_vendor_json(&json!({"type": "auto", "disable_parallel_tool_use": false}))
            .unwrap();
    assert_eq!((c, p), (ToolChoice::Auto, Some(true)));
}

fn weather_set(choice: ToolChoice, parallel: Option<bool>) -> ToolSet {
    let defs = ["get_weather", "get_time"]
        .map(|n| ToolDefinition::new(n, None, json!({"type": "object"})).unwrap());
    ToolSet::new(defs)
        .unwrap()
        .with_choice(choice)
        .unwrap()
        .with_parallel_tool_calls(parallel)
}

#[test]
fn check_choice_postures() {
    let auto = weather_set(ToolChoice::Auto, None);
    assert!(auto.check_choice(&[]).is_ok());
    assert!(auto.check_choice(&["get_weather", "get_time"]).is_ok());
    assert_eq!(
        auto.check_choice(&["get_weather", "rm_rf"]),
        Err(ChoiceViolation::UndeclaredTool("rm_rf".into()))
    );
    let auto1 = weather_set(ToolChoice::Auto, Some(false));
    assert!(auto1.check_choice(&[]).is_ok());
    assert!(auto1.check_choice(&["get_time"]).is_ok());
    assert_eq!(
        auto1.check_choice(&["get_time", "get_weather"]),
        Err(ChoiceViolation::TooManyCalls(2))
    );
    let none = weather_set(ToolChoice::None, None);
    assert!(none.check_choice(&[]).is_ok());
    assert_eq!(
        none.check_choice(&["get_time"]),
        Err(ChoiceViolation::CalledWithNone(vec!["get_time".into()]))
    );
    let any = weather_set(ToolChoice::Any, None);
    assert_eq!(any.check_choice(&[]), Err(ChoiceViolation::NoCall));
    assert!(any.check_choice(&["get_time", "get_weather"]).is_ok());
    let named = weather_set(ToolChoice::Tool("get_weather".into()), Some(false));
    assert_eq!(named.check_choice(&[]), Err(ChoiceViolation::NoCall));
    assert!(named.check_choice(&["get_weather"]).is_ok());
    assert_eq!(
        named.check_choice(&["get_time"]),
        Err(ChoiceViolation::WrongTool {
            expected: "get_weather".into(),
            called: "get_time".into()
        })
    );
    assert_eq!(
        named.check_choice(&["get_weather", "get_weather"]),
        Err(ChoiceViolation::TooManyCalls(2))
    );
    assert_eq!(
        ChoiceViolation::WrongTool {
            expected: "a".into(),
            called: "b".into()
        }
        .to_string(),
        "tool_choice names \"a\", yet the model called \"b\""
    );
}

#[test]
fn malformed_definitions_are_typed_errors() {
    // Missing name, in each shape, with the pointer to the object.
    let e = ToolSet::from_request_json(&json!({"tools": [
        {"name": "ok", "input_schema": {"type": "object"}},
        {"description": "no name", "input_schema": {"type": "object"}}
    ]}))
    .unwrap_err();
    assert!(
        matches!(&e, ProtocolError::MissingField { at, field: "name" } if at == "/tools/1"),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "missing field \"name\" at /tools/1");
    let e = ToolDefinition::from_vendor_json(
        &json!({"type": "function", "function": {"parameters": {}}}),
    )
    .unwrap_err();
    assert!(matches!(&e, ProtocolError::MissingField { at, field: "name" } if at == "/function"));
    let e = ToolDefinition::from_vendor_json(&json!({"type": "function", "parameters": {}}))
        .unwrap_err();
    assert!(matches!(
        &e,
        ProtocolError::MissingField { field: "name", .. }
    ));
    // Anthropic requires input_schema; OpenAI may omit parameters.
    let e = ToolDefinition::from_vendor_json(&json!({"name": "x"})).unwrap_err();
    assert!(matches!(
        &e,
        ProtocolError::MissingField {
            field: "input_schema",
            ..
        }
    ));
    let d = ToolDefinition::from_vendor_json(&json!({"type": "function", "name": "x"})).unwrap();
    assert_eq!(
        d.input_schema(),
        &json!({"type": "object", "properties": {}})
    );
    assert_eq!(
        d.to_vendor(Vendor::OpenAiResponses).lossless().unwrap(),
        json!({"type": "function", "name": "x"})
    );
    // Names the vendors refuse.
    for (name, problem) in [
        ("", NameProblem::Empty),
        ("get.weather", NameProblem::BadCharacter('.')),
        ("wetter_für_heute", NameProblem::BadCharacter('ü')),
        ("a b", NameProblem::BadCharacter(' ')),
    ] {
        let e = ToolDefinition::from_vendor_json(&json!({"name": name, "input_schema": {}}))
            .unwrap_err();
        assert!(
            matches!(&e, ProtocolError::InvalidToolName { problem: p, at, .. } if *p == problem && at == "/name"),
            "{name:?}: {e:?}"
        );
    }
    let long = "a".repeat(65);
    let e = ToolDefinition::new(long.as_str(), None, json!({})).unwrap_err();
    assert!(matches!(
        e,
        ProtocolError::InvalidToolName {
            problem: NameProblem::TooLong(65),
            ..
        }
    ));
    assert!(ToolDefinition::new("a".repeat(64), None, json!({})).is_ok());
    // A schema that is no schema.
    let e = ToolDefinition::from_vendor_json(&json!({"name": "x", "input_schema": "object"}))
        .unwrap_err();
    assert!(
        matches!(&e, ProtocolError::SchemaDoesNotCompile { at, .. } if at == "/input_schema"),
        "{e:?}"
    );
    // Schemas the compiler refuses: the error names the tool, the pointer
    // into the request, and where in the schema.
    let e = ToolSet::from_request_json(&json!({"tools": [{"type": "function", "function": {
        "name": "search", "parameters": {"type": "object", "properties": {"q": {"type": "string", "minLength": -1}}}
    }}]}))
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the schema of tool \"search\" at /tools/0/function/parameters does not compile: \
         invalid schema at /properties/q/minLength: expected a non-negative integer, found -1"
    );
    assert!(std::error::Error::source(&e).is_some());
    for bad in [
        json!({"type": "strnig"}),
        json!({"properties": {"a": {"pattern": "\\1(x)"}}}),
        json!({"$ref": "#/$defs/missing"}),
    ] {
        let e = ToolDefinition::new("t", None, bad.clone()).unwrap_err();
        assert!(
            matches!(e, ProtocolError::SchemaDoesNotCompile { .. }),
            "{bad}: {e:?}"
        );
    }
    // The compiled schema is reachable and validates.
    let d =
        ToolDefinition::from_vendor_json(&corpus("openai_chat_request_weather.json")["tools"][0])
            .unwrap();
    let ok = tooljson::from_str(r#"{"location": "Paris, France"}"#).unwrap();
    let bad = tooljson::from_str(r#"{"location": "Paris", "unit": "c"}"#).unwrap();
    assert!(d.compiled_schema().is_valid(&ok));
    let v = d.compiled_schema().validate(&bad).unwrap_err();
    assert_eq!(v.len(), 1, "additionalProperties: false");
    // Wrong member types.
    let e = ToolDefinition::from_vendor_json(&json!({"name": 7, "input_schema": {}})).unwrap_err();
    assert_eq!(e.to_string(), "expected a string, found a number at /name");
    let e = ToolDefinition::from_vendor_json(
        &json!({"name": "x", "input_schema": {}, "strict": "yes"}),
    )
    .unwrap_err();
    assert!(matches!(
        e,
        ProtocolError::WrongType {
            expected: "a boolean",
            ..
        }
    ));
    // Not an object at all; a hosted tool is no client definition.
    assert!(matches!(
        ToolDefinition::from_vendor_json(&json!([1])),
        Err(ProtocolError::WrongType { .. })
    ));
    assert!(matches!(
        ToolDefinition::from_vendor_json(&json!({"type": "file_search"})),
        Err(ProtocolError::UnknownShape { .. })
    ));
    // Serde surfaces the same error.
    let e = serde_json::from_value::<ToolDefinition>(serde_json::json!({"input_schema": {}}))
        .unwrap_err();
    assert!(e.to_string().contains("missing field \"name\""), "{e}");
    // Duplicates.
    let e = ToolSet::from_request_json(&json!([
        {"name": "x", "input_schema": {}},
        {"type": "function", "name": "x"}
    ]))
    .unwrap_err();
    assert!(
        matches!(&e, ProtocolError::DuplicateTool { at, name } if at == "/1" && name == "x"),
        "{e:?}"
    );
}

#[test]
fn tool_choice_errors() {
    let tools = json!([{"name": "get_weather", "input_schema": {"type": "object"}}]);
    for choice in [
        json!({"type": "tool", "name": "get_time"}),
        json!({"type": "function", "function": {"name": "get_time"}}),
        json!({"type": "function", "name": "get_time"}),
    ] {
        let e = ToolSet::from_request_json(&json!({"tools": tools, "tool_choice": choice}))
            .unwrap_err();
        assert!(
            matches!(&e, ProtocolError::UndeclaredToolInChoice { name } if name == "get_time"),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "tool_choice names tool \"get_time\", which is not declared in tools"
        );
    }
    let set = ToolSet::from_request_json(&tools).unwrap();
    assert!(matches!(
        set.clone().with_choice(ToolChoice::Tool("nope".into())),
        Err(ProtocolError::UndeclaredToolInChoice { .. })
    ));
    for bad in [
        json!("sometimes"),
        json!({"type": "tool"}),
        json!(3),
        json!({"name": "x"}),
    ] {
        let e =
            ToolSet::from_request_json(&json!({"tools": tools, "tool_choice": bad})).unwrap_err();
        assert!(
            matches!(
                e,
                ProtocolError::UnknownShape { .. } | ProtocolError::MissingField { .. }
            ),
            "{bad}: {e:?}"
        );
    }
    let e = ToolSet::from_request_json(&json!({"tools": tools, "parallel_tool_calls": "no"}))
        .unwrap_err();
    assert!(matches!(e, ProtocolError::WrongType { .. }));
    let e = ToolSet::from_request_json(&json!({"tools": {}})).unwrap_err();
    assert!(matches!(e, ProtocolError::WrongType { .. }));
}

/// A choice that names a hosted tool left out for the target cannot be
/// written (the provider refuses a name not in `tools`): it is reported,
/// the vendor's default is written, and the output reads back (found by
/// the `protocol` fuzz target).
#[test]
fn a_choice_naming_a_tool_left_out_is_a_loss_and_the_output_reads_back() {
    let body = json!({
        "tools": [{"type": "fu0ction", "name": "get_weather"}],
        "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
        "parallel_tool_calls": false
    });
    let set = ToolSet::from_request_json(&body).unwrap();
    for vendor in [Vendor::Anthropic, Vendor::Gemini, Vendor::Bedrock] {
        let converted = set.to_request_json(vendor);
        let (out, losses) = converted.accept_losses();
        assert!(
            losses.iter().any(|l| l.part == "tool_choice"),
            "{vendor:?}: no tool_choice loss in {losses:?}"
        );
        let again = ToolSet::from_request_json(&out)
            .unwrap_or_else(|e| panic!("{vendor:?} output does not read back: {e}\n{out}"));
        assert_ne!(
            again.choice(),
            &ToolChoice::Tool("get_weather".into()),
            "{vendor:?}"
        );
    }
    // Written back for its own vendor, the hosted tool and the choice stay.
    let (same, losses) = set.to_request_json(Vendor::OpenAiChat).accept_losses();
    assert!(losses.is_empty(), "{losses:?}");
    assert_eq!(same["tool_choice"]["function"]["name"], "get_weather");
}
