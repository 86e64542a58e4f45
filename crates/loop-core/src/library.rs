//! The built-in scenarios, compiled into the binary so the CLI and the
//! browser list the same ones. Each file's `description` is its lesson.

pub struct BuiltinScenario {
    /// The file name without `.json`; what `agent-loop run` accepts.
    pub id: &'static str,
    /// The picker's group.
    pub group: &'static str,
    /// The status the scenario ends with when every approval request is approved.
    pub expected_status: &'static str,
}

impl BuiltinScenario {
    /// The scenario file's text.
    pub fn json(&self) -> &'static str {
        json_of(self.id)
            .or_else(|| with_server_json_of(self.id))
            .expect("every listed built-in has a file")
    }

    /// How long after the run starts a person presses Stop, for a built-in
    /// that ends `cancelled`: nothing else ends it, as its lesson says. What
    /// runs every built-in (the tests, the replay suite) presses Stop then.
    pub fn stop_pressed_after_ms(&self) -> Option<u64> {
        (self.expected_status == crate::event::Status::Cancelled.as_str())
            .then_some(STOP_PRESSED_AFTER_MS)
    }

    /// The file's `name`, or its id when it has none.
    pub fn name(&self) -> &'static str {
        file_facts(self.id).and_then(|f| f.name).unwrap_or(self.id)
    }
}

/// See `BuiltinScenario::stop_pressed_after_ms`: long after the hung call
/// has started (the first turn takes 200 ms), long before it would end.
pub const STOP_PRESSED_AFTER_MS: u64 = 1_000;

/// What build.rs read out of one scenario file.
struct FileFacts {
    id: &'static str,
    name: Option<&'static str>,
    /// `limits.deadline_ms` when `limits.deadline_scope` is `shared`.
    shared_deadline_ms: Option<u64>,
}

include!(concat!(env!("OUT_DIR"), "/builtin_facts.rs"));

fn file_facts(id: &str) -> Option<&'static FileFacts> {
    FACTS.iter().find(|f| f.id == id)
}

/// One list makes both the table of built-ins and `json_of`, so every
/// listed built-in has its file.
macro_rules! builtins {
    ($( ($group:literal, $id:literal, $status:literal) ),* $(,)?) => {
        pub const BUILTIN: &[BuiltinScenario] = &[
            $( BuiltinScenario { id: $id, group: $group, expected_status: $status } ),*
        ];

        /// The text of built-in `id`'s file. The table above holds no file
        /// text, so a program that lists the built-ins without calling this
        /// does not carry the files: the web page reaches it through a split
        /// point, fetched on first use, and paints without them.
        pub fn json_of(id: &str) -> Option<&'static str> {
            match id {
                $( $id => Some(include_str!(concat!("../scenarios/", $id, ".json"))), )*
                _ => None,
            }
        }
    };
}

/// The scenario a first visit opens with: the library's first, its simplest.
/// The page shows it at first paint, so its text is also kept apart from
/// `json_of`.
pub const OPENING_ID: &str = "get-time";
pub const OPENING_JSON: &str = include_str!("../scenarios/get-time.json");

builtins! {
    ("Seed agents", "get-time", "done"),
    ("Seed agents", "refund-with-approval", "done"),
    ("Seed agents", "hotel-search", "done"),
    ("Seed agents", "refund-policy", "done"),
    ("Errors as data", "unknown-tool", "done"),
    ("Errors as data", "bad-arguments", "done"),
    ("Errors as data", "oversized-result", "done"),
    (
        "Stop conditions",
        "failed-verification",
        "failed_verification"
    ),
    ("Stop conditions", "turn-limit", "turn_limit"),
    ("Stop conditions", "cost-limit-strict", "cost_limit"),
    ("Stop conditions", "cost-limit-naive", "cost_limit"),
    ("Stop conditions", "token-limit", "token_limit"),
    ("Stop conditions", "tool-call-limit", "tool_call_limit"),
    ("Stop conditions", "deadline", "deadline"),
    ("Stop conditions", "repeated-call", "repeated_call"),
    ("Stop conditions", "blocked", "blocked"),
    ("Stop conditions", "max-tokens", "max_tokens"),
    ("Stop conditions", "refusal", "refusal"),
    ("Stop conditions", "model-error", "model_error"),
    // Its call hangs for an hour: whoever runs it presses Stop
    // (`BuiltinScenario::stop_pressed_after_ms`).
    ("Stop conditions", "press-stop", "cancelled"),
    ("Stop conditions", "rate-limit-retry", "done"),
    ("Pitfalls: naive vs fixed", "repeated-call-naive", "done"),
    (
        "Pitfalls: naive vs fixed",
        "whitespace-searches-naive",
        "done"
    ),
    (
        "Pitfalls: naive vs fixed",
        "whitespace-searches-canonical",
        "repeated_call"
    ),
    // Seed 002's shared deadline ends `deadline` on a page (or in a process)
    // open longer than the deadline, which is how anyone meets it; see
    // `clock_age_needed_ms`.
    ("Pitfalls: naive vs fixed", "deadline-shared", "deadline"),
    ("Pitfalls: naive vs fixed", "deadline-per-run", "done"),
    (
        "Pitfalls: naive vs fixed",
        "deadline-between-steps",
        "deadline"
    ),
    (
        "Pitfalls: naive vs fixed",
        "deadline-interrupts-tool",
        "deadline"
    ),
    ("Pitfalls: naive vs fixed", "empty-result-no-reason", "done"),
    (
        "Pitfalls: naive vs fixed",
        "empty-result-with-reason",
        "done"
    ),
    ("Pitfalls: naive vs fixed", "verifier-weak", "done"),
    (
        "Pitfalls: naive vs fixed",
        "precondition-in-description",
        "done"
    ),
    ("Pitfalls: naive vs fixed", "precondition-in-code", "done"),
    ("Pitfalls: naive vs fixed", "max-tokens-naive", "done"),
    ("Pitfalls: naive vs fixed", "history-text-only", "done"),
    ("Pitfalls: naive vs fixed", "result-untrimmed", "done"),
    ("Pitfalls: naive vs fixed", "refund-env-flag", "done"),
    ("Context window", "context-limit", "context_limit"),
    ("Context window", "context-clear-tool-results", "done"),
    ("Context window", "context-drop-naive", "done"),
    ("Context window", "context-drop-pairs", "done"),
    (
        "Context window",
        "context-compact-lossy",
        "failed_verification"
    ),
    ("Context window", "context-compact-keeps-id", "done"),
    ("Context window", "context-exceeded-retry", "context_limit"),
    ("Context window", "context-exceeded-compact", "done"),
    ("Protocol", "protocol-duplicate-ids", "done"),
    ("Protocol", "protocol-text-before-results", "done"),
    ("Protocol", "protocol-invented-result-ids", "done"),
    ("Tool-schema effects", "rules-with-example", "done"),
    (
        "Tool-schema effects",
        "rules-without-example",
        "failed_verification"
    ),
    ("Tool-schema effects", "schema-place-enum", "done"),
    (
        "Tool-schema effects",
        "schema-place-free-string",
        "failed_verification"
    ),
    ("Tool-schema effects", "schema-nights-required", "done"),
    (
        "Tool-schema effects",
        "schema-nights-default",
        "failed_verification"
    ),
    ("Tool-schema effects", "schema-name-order-id", "done"),
    ("Tool-schema effects", "schema-name-vague-id", "done"),
    ("Tool-schema effects", "schema-precondition-stated", "done"),
    (
        "Tool-schema effects",
        "schema-precondition-unstated",
        "failed_verification"
    ),
    ("Tool-schema effects", "schema-example-accurate", "done"),
    (
        "Tool-schema effects",
        "schema-example-misleading",
        "failed_verification"
    ),
    ("Tool-schema effects", "schema-tools-distinct", "done"),
    (
        "Tool-schema effects",
        "schema-tools-overlapping",
        "failed_verification"
    ),
    // Natively (no JavaScript sandbox) these end `done` too: the tool answers
    // that it runs only in the browser and the rules model stops there.
    ("User-written tools", "js-tool", "done"),
    ("User-written tools", "js-tool-infinite-loop", "done"),
}

/// Each pitfall as a pair: the naive scenario (the seed's behaviour) and the
/// fixed one, to run side by side.
pub const PITFALL_PAIRS: &[(&str, &str)] = &[
    ("cost-limit-naive", "cost-limit-strict"),
    ("repeated-call-naive", "repeated-call"),
    ("whitespace-searches-naive", "whitespace-searches-canonical"),
    ("deadline-shared", "deadline-per-run"),
    ("deadline-between-steps", "deadline-interrupts-tool"),
    ("empty-result-no-reason", "empty-result-with-reason"),
    ("refund-env-flag", "refund-with-approval"),
    ("verifier-weak", "failed-verification"),
    ("precondition-in-description", "precondition-in-code"),
    ("history-text-only", "get-time"),
    ("max-tokens-naive", "max-tokens"),
    ("result-untrimmed", "hotel-search"),
    ("context-limit", "context-clear-tool-results"),
    ("context-drop-naive", "context-drop-pairs"),
    ("context-compact-lossy", "context-compact-keeps-id"),
    ("context-exceeded-retry", "context-exceeded-compact"),
];

/// Tool-schema effects as pairs: the same task and model (the rules model)
/// under two versions of the tools, A the clearer one and B the other. Each
/// pair changes one thing, and its lesson says which.
pub const SCHEMA_PAIRS: &[(&str, &str)] = &[
    ("rules-with-example", "rules-without-example"),
    ("schema-place-enum", "schema-place-free-string"),
    ("schema-nights-required", "schema-nights-default"),
    ("schema-name-order-id", "schema-name-vague-id"),
    ("schema-precondition-stated", "schema-precondition-unstated"),
    ("schema-example-accurate", "schema-example-misleading"),
    ("schema-tools-distinct", "schema-tools-overlapping"),
];

/// Which list a pair comes from, which says what its halves are called.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PairKind {
    /// A seed pitfall: the naive scenario and the fixed one.
    Pitfall,
    /// A tool-schema effect: version A of the tools and version B.
    Schema,
}

/// Two built-ins to run side by side, `a` on the left.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub kind: PairKind,
    pub a: &'static str,
    pub b: &'static str,
}

impl Pair {
    /// What each half is called: "naive" and "fixed", or "A" and "B".
    pub fn roles(&self) -> (&'static str, &'static str) {
        match self.kind {
            PairKind::Pitfall => ("naive", "fixed"),
            PairKind::Schema => ("A", "B"),
        }
    }

    /// The two columns' labels: "naive: repeated-call-naive", "B: schema-nights-default".
    pub fn labels(&self) -> (String, String) {
        let (a, b) = self.roles();
        (format!("{a}: {}", self.a), format!("{b}: {}", self.b))
    }

    /// "a pitfall pair" or "a tool-schema pair".
    pub fn kind_words(&self) -> &'static str {
        match self.kind {
            PairKind::Pitfall => "a pitfall pair",
            PairKind::Schema => "a tool-schema pair",
        }
    }
}

/// Every pair, pitfalls first.
pub fn pairs() -> impl Iterator<Item = Pair> {
    let of = |kind| move |&(a, b): &(&'static str, &'static str)| Pair { kind, a, b };
    PITFALL_PAIRS
        .iter()
        .map(of(PairKind::Pitfall))
        .chain(SCHEMA_PAIRS.iter().map(of(PairKind::Schema)))
}

/// The pair `id` is half of, if any (a built-in is in one pair at most).
pub fn pair_containing(id: &str) -> Option<Pair> {
    pairs().find(|p| p.a == id || p.b == id)
}

/// The other half of `id`'s pair, if `id` is in one.
pub fn pair_of(id: &str) -> Option<&'static str> {
    pair_containing(id).map(|p| if p.a == id { p.b } else { p.a })
}

/// How long the runtime's clock must have been running (the page open, the
/// process alive) before `builtin` ends with its `expected_status`: a shared
/// deadline counts from the clock's origin, so it only bites a run that
/// starts after the deadline has passed. Zero for every other scenario.
pub fn clock_age_needed_ms(builtin: &BuiltinScenario) -> u64 {
    file_facts(builtin.id)
        .and_then(|f| f.shared_deadline_ms)
        .map_or(0, |deadline_ms| deadline_ms + 500)
}

pub fn find(id: &str) -> Option<&'static BuiltinScenario> {
    BUILTIN
        .iter()
        .chain(WITH_SERVER.iter().map(|w| &w.scenario))
        .find(|s| s.id == id)
}

/// A built-in whose tools come from an MCP server that must be running.
pub struct WithServer {
    pub scenario: BuiltinScenario,
    /// The command that starts its server, as its lesson says.
    pub serve: &'static str,
}

/// The built-ins that need a server. Kept out of `BUILTIN`, which everything
/// that runs every built-in offline reads (the tests, the replay suite):
/// they would fail these. `find`, `agent-loop run` and `list`, and the
/// page's picker (marked as needing their server) know them.
pub const WITH_SERVER: &[WithServer] = &[WithServer {
    scenario: BuiltinScenario {
        id: "mcp-tools",
        group: "Tools from MCP servers",
        expected_status: "done",
    },
    serve: "agent-loop serve --mcp refund-with-approval",
}];

fn with_server_json_of(id: &str) -> Option<&'static str> {
    match id {
        "mcp-tools" => Some(include_str!("../scenarios/mcp-tools.json")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_is_listed_once_with_its_text_and_name() {
        let mut ids: Vec<&str> = BUILTIN
            .iter()
            .chain(WITH_SERVER.iter().map(|w| &w.scenario))
            .map(|b| b.id)
            .collect();
        ids.sort_unstable();
        let files: Vec<&str> = FACTS.iter().map(|f| f.id).collect();
        assert_eq!(ids, files, "scenarios/ and the BUILTIN list differ");
        for builtin in BUILTIN {
            let value: serde_json::Value = serde_json::from_str(builtin.json()).unwrap();
            assert_eq!(
                Some(builtin.name()),
                value["name"].as_str(),
                "{}",
                builtin.id
            );
        }
        assert_eq!(json_of("no-such-scenario"), None);
    }

    #[test]
    fn every_pair_is_two_built_ins_and_no_built_in_is_in_two_pairs() {
        let mut halves: Vec<&str> = pairs().flat_map(|p| [p.a, p.b]).collect();
        for id in &halves {
            assert!(find(id).is_some(), "{id} is in a pair but not built in");
        }
        let count = halves.len();
        halves.sort_unstable();
        halves.dedup();
        assert_eq!(halves.len(), count, "a built-in is in two pairs");
        for pair in pairs() {
            assert_eq!(pair_of(pair.a), Some(pair.b));
            assert_eq!(pair_of(pair.b), Some(pair.a));
            assert_eq!(pair_containing(pair.b), Some(pair));
        }
        assert_eq!(pair_of("turn-limit"), None);
        let schema = pair_containing("schema-nights-default").unwrap();
        assert_eq!(
            schema.labels(),
            (
                "A: schema-nights-required".to_string(),
                "B: schema-nights-default".to_string()
            )
        );
        let pitfall = pair_containing("repeated-call").unwrap();
        assert_eq!(pitfall.labels().0, "naive: repeated-call-naive");
    }

    #[test]
    fn every_tool_schema_effect_is_half_of_a_pair() {
        for builtin in BUILTIN.iter().filter(|b| b.group == "Tool-schema effects") {
            assert!(pair_of(builtin.id).is_some(), "{} has no pair", builtin.id);
        }
    }

    #[test]
    fn the_opening_scenario_is_the_first_built_in() {
        assert_eq!(BUILTIN[0].id, OPENING_ID);
        assert_eq!(json_of(OPENING_ID), Some(OPENING_JSON));
    }

    #[test]
    fn only_a_shared_deadline_needs_an_old_clock() {
        let aged: Vec<(&str, u64)> = BUILTIN
            .iter()
            .map(|b| (b.id, clock_age_needed_ms(b)))
            .filter(|(_, age)| *age > 0)
            .collect();
        let shared = find("deadline-shared").unwrap();
        let value: serde_json::Value = serde_json::from_str(shared.json()).unwrap();
        let deadline_ms = value["limits"]["deadline_ms"].as_u64().unwrap();
        assert_eq!(aged, [("deadline-shared", deadline_ms + 500)]);
    }
}
