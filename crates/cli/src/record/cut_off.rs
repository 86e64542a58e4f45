//! A record whose run was killed: its last line may be cut mid-way (a kill
//! during the write), and it ends before `run_finished`. Everything before
//! the cut is read; what is missing is said in plain words.

use harness::event::{EventKind, RunEvent};
use harness::replay::Record;

/// `text` without a last line that a kill cut mid-way: one that lacks its
/// newline and is not whole JSON. A bad line anywhere else is still the
/// file's error, as is a last line that was written whole.
pub fn whole_lines(text: &str) -> (&str, bool) {
    if text.ends_with('\n') {
        return (text, false);
    }
    let start = text.rfind('\n').map_or(0, |i| i + 1);
    let last = &text[start..];
    if last.trim().is_empty() || serde_json::from_str::<serde_json::Value>(last).is_ok() {
        return (text, false);
    }
    (&text[..start], true)
}

/// "the run was cut off after event 41, a tool_result", for a record that
/// ends before `run_finished`; `None` for a finished run.
pub fn cut_off_sentence(record: &Record, cut_line: bool) -> Option<String> {
    if record.outcome().is_some() {
        return None;
    }
    let last = record.events.last()?;
    let mut sentence = format!(
        "the run was cut off after event {}, a {}",
        last.seq,
        kind_name(last)
    );
    if cut_line {
        sentence.push_str("; the half-written line after it is left out");
    }
    Some(sentence)
}

/// `events` up to the last `model_request`: the requests a cut-off run
/// sent. After it, the run was still at work (a call without its result
/// yet); all of it when no request was made.
pub fn up_to_last_request(events: &[RunEvent]) -> &[RunEvent] {
    match events
        .iter()
        .rposition(|e| matches!(e.kind, EventKind::ModelRequest { .. }))
    {
        Some(last) => &events[..=last],
        None => events,
    }
}

/// The event's `type`, as the record spells it.
fn kind_name(event: &RunEvent) -> String {
    serde_json::to_value(event)
        .ok()
        .and_then(|v| v.get("type").and_then(|t| t.as_str()).map(str::to_string))
        .unwrap_or_else(|| "event".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const FINISHED: &str = concat!(
        r#"{"seq":0,"t_ms":0,"type":"run_started","scenario":"s","model":"scripted","approval":"ask","tools":[],"limits":{"max_turns":3,"cost_mode":"strict","repeat_mode":"canonical","max_output_tokens":1024,"max_retries":2},"task":"t"}"#,
        "\n",
        r#"{"seq":1,"t_ms":0,"type":"model_request","turn":1,"attempt":1,"messages":1,"estimated_input_tokens":45,"max_output_tokens":1024}"#,
        "\n",
    );

    #[test]
    fn a_record_cut_mid_line_is_read_up_to_its_last_whole_event() {
        let cut = format!("{FINISHED}{}", r#"{"seq":2,"t_ms":0,"type":"model_resp"#);
        assert!(
            Record::from_jsonl(&cut).is_err(),
            "the cut line alone is not JSON"
        );
        let (text, cut_line) = whole_lines(&cut);
        assert!(cut_line);
        let record = Record::from_jsonl(text).expect("the whole lines read");
        assert_eq!(record.events.len(), 2);
        assert_eq!(
            cut_off_sentence(&record, cut_line).as_deref(),
            Some("the run was cut off after event 1, a model_request; the half-written line after it is left out")
        );
    }

    #[test]
    fn a_record_cut_between_lines_keeps_every_event() {
        let (text, cut_line) = whole_lines(FINISHED);
        assert!(!cut_line);
        let record = Record::from_jsonl(text).expect("reads");
        assert_eq!(
            cut_off_sentence(&record, cut_line).as_deref(),
            Some("the run was cut off after event 1, a model_request")
        );
    }

    #[test]
    fn a_bad_line_in_the_middle_is_still_the_files_error() {
        let broken = FINISHED.replacen("\"seq\":1", "\"seq\":", 1);
        let (text, cut_line) = whole_lines(&broken);
        assert!(!cut_line);
        assert!(Record::from_jsonl(text).is_err());
    }
}
