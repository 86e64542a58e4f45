//! The events of `/mcp`'s SSE streams, kept for a while so that a client
//! that lost a stream can resume it: `GET` with `Last-Event-ID` gets every
//! event of that stream after the one it names. A priming event (an `id`
//! and `retry`) promises exactly this, so a stream is primed only when its
//! events are kept.
//!
//! Bounded three ways, the oldest streams going first: a stream is kept
//! for [`KEEP_FOR`], at most [`MAX_STREAMS`] streams, at most [`MAX_BYTES`]
//! of events in all. A stream whose events alone pass [`MAX_BYTES`] is not
//! kept at all (and so not primed).
//!
//! Event ids are `{stream}-{n}`: the stream's 128 random bits and the
//! event's place in it (0 = the priming event), so an id names its stream.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// How long a stream's events are kept after it was opened.
pub const KEEP_FOR: Duration = Duration::from_secs(300);
/// The most streams kept at once.
pub const MAX_STREAMS: usize = 1024;
/// The most bytes of events kept at once.
pub const MAX_BYTES: usize = 16 * 1024 * 1024;

struct Kept {
    stream: String,
    /// The legacy session it was opened in: only that session may resume
    /// it. `None` for the 2026-07-28 generation, which has no sessions (the
    /// stream id is unguessable).
    session: Option<String>,
    opened: Instant,
    /// Every event, in order, index = its `n`.
    events: Vec<String>,
    bytes: usize,
}

/// Why a `Last-Event-ID` cannot be resumed.
pub enum Refusal {
    /// Not an id of ours, or its stream is no longer kept.
    Unknown,
    /// Another session's stream.
    OtherSession,
}

#[derive(Default)]
pub struct Replay {
    streams: VecDeque<Kept>,
    bytes: usize,
}

impl Replay {
    /// Whether a stream whose events take `bytes` can be kept.
    pub fn fits(bytes: usize) -> bool {
        bytes <= MAX_BYTES
    }

    /// Keeps a stream's events (the caller checked [`Replay::fits`]).
    pub fn keep(&mut self, stream: String, session: Option<String>, events: Vec<String>) {
        self.keep_at(stream, session, events, Instant::now());
    }

    fn keep_at(
        &mut self,
        stream: String,
        session: Option<String>,
        events: Vec<String>,
        now: Instant,
    ) {
        let bytes: usize = events.iter().map(String::len).sum();
        self.bytes += bytes;
        self.streams.push_back(Kept {
            stream,
            session,
            opened: now,
            events,
            bytes,
        });
        self.forget_old(now);
    }

    /// The events of the stream `last_event_id` names that come after it,
    /// for a client in `session`.
    pub fn after(
        &mut self,
        last_event_id: &str,
        session: Option<&str>,
    ) -> Result<Vec<String>, Refusal> {
        self.after_at(last_event_id, session, Instant::now())
    }

    fn after_at(
        &mut self,
        last_event_id: &str,
        session: Option<&str>,
        now: Instant,
    ) -> Result<Vec<String>, Refusal> {
        self.forget_old(now);
        let (stream, n) = last_event_id.rsplit_once('-').ok_or(Refusal::Unknown)?;
        let n: usize = n.parse().map_err(|_| Refusal::Unknown)?;
        let kept = self
            .streams
            .iter()
            .find(|k| k.stream == stream)
            .ok_or(Refusal::Unknown)?;
        if kept.session.is_some() && kept.session.as_deref() != session {
            return Err(Refusal::OtherSession);
        }
        if n >= kept.events.len() {
            return Err(Refusal::Unknown);
        }
        Ok(kept.events[n + 1..].to_vec())
    }

    fn forget_old(&mut self, now: Instant) {
        while let Some(oldest) = self.streams.front() {
            let expired = now.duration_since(oldest.opened) > KEEP_FOR;
            if !expired && self.streams.len() <= MAX_STREAMS && self.bytes <= MAX_BYTES {
                break;
            }
            self.bytes -= oldest.bytes;
            self.streams.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(stream: &str, texts: &[&str]) -> Vec<String> {
        texts
            .iter()
            .enumerate()
            .map(|(n, t)| format!("id: {stream}-{n}\ndata: {t}\n\n"))
            .collect()
    }

    #[test]
    fn a_stream_resumes_after_the_id_named_and_only_in_its_session() {
        let mut replay = Replay::default();
        replay.keep("s1".into(), Some("a".into()), events("s1", &["", "m"]));
        let after = replay.after("s1-0", Some("a")).ok().unwrap();
        assert_eq!(after, vec!["id: s1-1\ndata: m\n\n".to_string()]);
        assert!(replay.after("s1-1", Some("a")).ok().unwrap().is_empty());
        assert!(matches!(
            replay.after("s1-0", Some("b")),
            Err(Refusal::OtherSession)
        ));
        assert!(matches!(
            replay.after("s1-5", Some("a")),
            Err(Refusal::Unknown)
        ));
        assert!(matches!(
            replay.after("zz-0", Some("a")),
            Err(Refusal::Unknown)
        ));
        assert!(matches!(
            replay.after("garbage", None),
            Err(Refusal::Unknown)
        ));
    }

    #[test]
    fn streams_are_forgotten_after_their_time_and_past_the_count() {
        let mut replay = Replay::default();
        let start = Instant::now();
        replay.keep_at("old".into(), None, events("old", &["", "m"]), start);
        let later = start + KEEP_FOR + Duration::from_secs(1);
        assert!(matches!(
            replay.after_at("old-0", None, later),
            Err(Refusal::Unknown)
        ));
        for i in 0..=MAX_STREAMS {
            replay.keep_at(
                format!("s{i}"),
                None,
                events(&format!("s{i}"), &[""]),
                later,
            );
        }
        assert_eq!(replay.streams.len(), MAX_STREAMS);
        assert!(matches!(
            replay.after_at("s0-0", None, later),
            Err(Refusal::Unknown)
        ));
        assert!(replay.after_at("s1-0", None, later).is_ok());
    }
}
