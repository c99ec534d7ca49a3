//! Hostile vendor behaviour (issue 7): a vendor that resends the whole
//! arguments object (`{"a":1}{"a":1}`, a cumulative resend) must give an
//! invalid call, never a complete one, at every chunking.

use tooljson::providers::{CallStatus, ToolCallStream};

#[test]
fn cumulative_resend_is_invalid_at_every_chunking() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/transcripts/anthropic-cumulative-resend.sse"
    );
    let bytes = std::fs::read(path).expect("synthetic transcript in corpus/transcripts");
    for chunk in [1, 7, 64, bytes.len()] {
        let mut s = ToolCallStream::new();
        for piece in bytes.chunks(chunk) {
            s.feed(piece).unwrap();
        }
        s.finish().unwrap();
        let calls = s.calls();
        assert_eq!(calls.len(), 1, "chunk {chunk}");
        assert_eq!(calls[0].status(), CallStatus::Invalid, "chunk {chunk}");
        assert!(!calls[0].is_executable());
        assert!(calls[0].value().is_none());
        assert_eq!(calls[0].arguments_text(), r#"{"a":1}{"a":1}"#);
        let errors: Vec<String> = calls[0].errors().iter().map(|e| e.to_string()).collect();
        assert!(errors[0].contains("trailing characters"), "{errors:?}");
    }
}
