//! Which `tool_result` answers which `tool_use`, by Anthropic's rule: a call
//! in an assistant message is answered by a result naming its id in the very
//! next message, a user message, exactly once; and no two calls share an id.
//!
//! Job: judge every call and every result once, so the two places that show
//! the pairing say the same thing. The checker (`check.rs`) reports these
//! verdicts in Anthropic's words, message by message; the conversation
//! drawing (`crate::pairing`) sums them per id into one link. Before they
//! shared this, each judged in its own terms, and a call answered twice in
//! one message was drawn broken while the checker passed it.
//!
//! The input is a message's role and its calls and results, read from
//! harness messages (the drawing) or from a request body (the checker):
//! Anthropic's `messages` are the history one to one, so the indices agree.

use std::collections::{HashMap, HashSet};

/// Who sent a message, as far as the pairing cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Speaker {
    Assistant,
    User,
    /// A role Anthropic does not take in `messages`, or none.
    Other,
}

/// One message's role, with its calls and results as (block index, id).
#[derive(Clone, Debug)]
pub struct Said<'a> {
    pub speaker: Speaker,
    pub calls: Vec<(usize, &'a str)>,
    pub results: Vec<(usize, &'a str)>,
}

/// A `tool_use` block, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Call<'a> {
    pub block: usize,
    pub id: &'a str,
    /// The (message, block) of an earlier call with the same id.
    pub reuses: Option<(usize, usize)>,
    /// A result in the next message, a user message, names this id.
    pub answered: bool,
}

/// What a `tool_result` block answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answers {
    /// A call of the message just before, an assistant message.
    TheCallBefore,
    /// A call of the message before that this message has already answered
    /// as often as it was made.
    Again,
    /// Nothing: the message before has no call with this id (or the result is
    /// not in a user message right after an assistant message).
    NoCallBefore,
}

/// A `tool_result` block, judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer<'a> {
    pub block: usize,
    pub id: &'a str,
    pub answers: Answers,
}

/// One message's calls and results, judged, in block order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Judged<'a> {
    pub calls: Vec<Call<'a>>,
    pub results: Vec<Answer<'a>>,
}

/// Judges every call and result of `messages`, message by message. One pass:
/// each message is compared with its neighbours, and the ids seen so far are
/// a map.
pub fn judge<'a>(messages: &[Said<'a>]) -> Vec<Judged<'a>> {
    let mut first_call: HashMap<&'a str, (usize, usize)> = HashMap::new();
    messages
        .iter()
        .enumerate()
        .map(|(n, said)| {
            let answered_next = answered_by(messages.get(n + 1));
            let calls = said
                .calls
                .iter()
                .map(|&(block, id)| Call {
                    block,
                    id,
                    reuses: match first_call.get(id) {
                        Some(&first) => Some(first),
                        None => {
                            first_call.insert(id, (n, block));
                            None
                        }
                    },
                    answered: answered_next.contains(id),
                })
                .collect();
            let before = n.checked_sub(1).map(|p| &messages[p]);
            Judged {
                calls,
                results: answers(said, before),
            }
        })
        .collect()
}

/// The ids a message's results name, if it is a user message.
fn answered_by<'a>(next: Option<&Said<'a>>) -> HashSet<&'a str> {
    match next {
        Some(said) if said.speaker == Speaker::User => {
            said.results.iter().map(|&(_, id)| id).collect()
        }
        _ => HashSet::new(),
    }
}

/// What each result of `said` answers, given the message before it.
fn answers<'a>(said: &Said<'a>, before: Option<&Said<'a>>) -> Vec<Answer<'a>> {
    // How many calls of the message before have each id; a user message
    // answering an assistant message is the only place a result answers.
    let mut called: HashMap<&str, usize> = HashMap::new();
    if let (Speaker::User, Some(before)) = (said.speaker, before) {
        if before.speaker == Speaker::Assistant {
            for &(_, id) in &before.calls {
                *called.entry(id).or_default() += 1;
            }
        }
    }
    let mut given: HashMap<&str, usize> = HashMap::new();
    said.results
        .iter()
        .map(|&(block, id)| {
            let answers = match called.get(id) {
                None => Answers::NoCallBefore,
                Some(&calls) => {
                    let so_far = given.entry(id).or_default();
                    *so_far += 1;
                    if *so_far > calls {
                        Answers::Again
                    } else {
                        Answers::TheCallBefore
                    }
                }
            };
            Answer { block, id, answers }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said<'a>(speaker: Speaker, calls: &[&'a str], results: &[&'a str]) -> Said<'a> {
        Said {
            speaker,
            calls: calls.iter().copied().enumerate().collect(),
            results: results
                .iter()
                .copied()
                .enumerate()
                .map(|(b, id)| (b + calls.len(), id))
                .collect(),
        }
    }

    #[test]
    fn a_call_answered_in_the_next_user_message_is_answered_once() {
        let judged = judge(&[
            said(Speaker::Assistant, &["a", "b"], &[]),
            said(Speaker::User, &[], &["a", "a", "ghost"]),
        ]);
        let calls: Vec<bool> = judged[0].calls.iter().map(|c| c.answered).collect();
        assert_eq!(calls, [true, false]);
        let results: Vec<Answers> = judged[1].results.iter().map(|r| r.answers).collect();
        assert_eq!(
            results,
            [
                Answers::TheCallBefore,
                Answers::Again,
                Answers::NoCallBefore
            ]
        );
    }

    #[test]
    fn a_reused_id_points_at_its_first_call_and_each_use_may_be_answered() {
        let judged = judge(&[
            said(Speaker::Assistant, &["a", "a"], &[]),
            said(Speaker::User, &[], &["a", "a"]),
            said(Speaker::Assistant, &["a"], &[]),
        ]);
        assert_eq!(judged[0].calls[1].reuses, Some((0, 0)));
        assert_eq!(judged[2].calls[0].reuses, Some((0, 0)));
        assert!(judged[1]
            .results
            .iter()
            .all(|r| r.answers == Answers::TheCallBefore));
    }

    #[test]
    fn only_a_user_message_after_an_assistant_message_answers() {
        let judged = judge(&[
            said(Speaker::User, &["a"], &[]),
            said(Speaker::Assistant, &[], &["a"]),
            said(Speaker::User, &[], &["a"]),
        ]);
        assert!(!judged[0].calls[0].answered);
        assert_eq!(judged[1].results[0].answers, Answers::NoCallBefore);
        assert_eq!(judged[2].results[0].answers, Answers::NoCallBefore);
    }
}
