//! The check behind the `fast_path` fuzz target (and
//! tests/providers_fast_path.rs): a response body read with the delta fast
//! path (`src/providers/fast.rs`) and with the adapters' full readers only
//! gives the same events and the same final state, fed whole or in pieces.

use std::fmt::Write;

use tooljson::providers::ToolCallStream;

/// Everything a caller can see of a stream fed `body` in `ranges`: every
/// event in order, the results, the final message, the text, the calls.
pub fn outcome(body: &[u8], ranges: &[(usize, usize)], fast: bool) -> String {
    let mut s = ToolCallStream::new();
    if !fast {
        s = s.without_fast_path();
    }
    let mut out = String::new();
    let mut result = Ok(());
    for &(a, b) in ranges {
        result = s.feed(&body[a..b]);
        for e in s.drain_events() {
            let _ = writeln!(out, "{e:?}");
        }
        if result.is_err() {
            break;
        }
    }
    let fin = s.finish();
    for e in s.drain_events() {
        let _ = writeln!(out, "{e:?}");
    }
    let _ = writeln!(
        out,
        "feed {result:?} finish {fin:?} stop {:?} malformed {}",
        s.stop_reason(),
        s.malformed_events()
    );
    let _ = writeln!(out, "message {:?}", s.final_messages_json());
    for choice in s.choices() {
        let _ = writeln!(
            out,
            "choice {choice} text {:?} thinking {:?} refusal {:?}",
            s.text(choice),
            s.thinking(choice),
            s.refusal(choice)
        );
    }
    for c in s.calls() {
        let _ = writeln!(
            out,
            "call {:?} {:?} {:?} {:?} {:?} errors {:?} text {:?} value {:?} partial {:?}",
            c.key(),
            c.id(),
            c.name(),
            c.kind(),
            c.status(),
            c.errors(),
            c.arguments_text(),
            c.value(),
            c.partial()
        );
    }
    out
}

/// Asserts that both paths agree on `body`, fed whole and in `piece`-byte
/// reads.
pub fn same_both_ways(body: &[u8], piece: usize) {
    let whole = [(0, body.len())];
    let piece = piece.max(1);
    let pieces: Vec<(usize, usize)> = (0..body.len())
        .step_by(piece)
        .map(|a| (a, (a + piece).min(body.len())))
        .collect();
    for ranges in [&whole[..], &pieces[..]] {
        let fast = outcome(body, ranges, true);
        let full = outcome(body, ranges, false);
        assert!(
            fast == full,
            "the fast path and the full reader differ on {:?}\n--- fast\n{fast}\n--- full\n{full}",
            String::from_utf8_lossy(body)
        );
    }
}

/// The events before and after the fuzzed ones, per vendor: a call open at
/// index 0 (and text at 1 for Anthropic), so fuzzed deltas reach the path.
fn frame(vendor: u8) -> (&'static str, &'static str, &'static str) {
    match vendor % 3 {
        0 => (
            concat!(
                "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_f\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"m\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"toolu_f\",\"name\":\"f\",\"input\":{}}}\n\n",
                "event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
            ),
            "event: content_block_delta\n",
            concat!(
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
                "event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":1}\n\n",
                "event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":9}}\n\n",
                "event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
            ),
        ),
        1 => (
            concat!(
                "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null},\"finish_reason\":null}]}\n\n",
                "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_f\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]},\"finish_reason\":null}]}\n\n",
            ),
            "",
            concat!(
                "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}\n\n",
                "data: [DONE]\n\n",
            ),
        ),
        _ => (
            concat!(
                "event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_f\",\"status\":\"in_progress\",\"output\":[]}}\n\n",
                "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":1,\"output_index\":0,\"item\":{\"id\":\"fc_f\",\"type\":\"function_call\",\"status\":\"in_progress\",\"arguments\":\"\",\"call_id\":\"call_f\",\"name\":\"f\"}}\n\n",
                "event: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"sequence_number\":2,\"output_index\":1,\"item\":{\"id\":\"msg_f\",\"type\":\"message\",\"status\":\"in_progress\",\"role\":\"assistant\",\"content\":[]}}\n\n",
            ),
            "",
            "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":99,\"response\":{\"id\":\"resp_f\",\"status\":\"completed\"}}\n\n",
        ),
    }
}

/// Fuzz target `fast_path`: the first byte picks a vendor (Anthropic, Chat,
/// Responses); each further line becomes the data of one event between
/// that vendor's opening and closing events; the body is read with and
/// without the fast path, whole and in pieces of a size the second byte
/// picks, and must give the same outcome.
pub fn fast_path(input: &[u8]) {
    let Some((&vendor, rest)) = input.split_first() else {
        return;
    };
    let (piece, rest) = match rest.split_first() {
        Some((&p, rest)) => (usize::from(p % 64) + 1, rest),
        None => (1, rest),
    };
    let (head, name, tail) = frame(vendor);
    let mut body = head.as_bytes().to_vec();
    for line in rest.split(|&b| b == b'\n') {
        // A CR would end the line early: the event is the line up to it.
        body.extend_from_slice(name.as_bytes());
        body.extend_from_slice(b"data: ");
        body.extend(line.iter().map(|&b| if b == b'\r' { b' ' } else { b }));
        body.extend_from_slice(b"\n\n");
    }
    body.extend_from_slice(tail.as_bytes());
    same_both_ways(&body, piece);
}
