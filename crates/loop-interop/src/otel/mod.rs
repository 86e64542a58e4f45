//! Runs as OpenTelemetry traces, out and back in: `export::to_otlp` writes a
//! run as OTLP/JSON spans under the GenAI semantic conventions, and
//! `import::from_otlp` reads such a trace (ours, or one that another tool's
//! GenAI instrumentation produced) back as a run; `send` is the POST of an
//! export to an OTLP/HTTP endpoint.
//!
//! OTLP/JSON is the protobuf JSON mapping of opentelemetry-proto's
//! `TracesData`, with two departures the OTLP spec makes: trace and span ids
//! are hex strings (not base64), and enums are their integers.

mod attributes;
pub mod export;
pub mod import;
mod legacy;
mod merge;
mod openinference;
mod scenario;
pub mod send;

pub use export::to_otlp;
pub use import::{from_otlp, Imported};

/// The span event that carries one trace event's JSON, for a lossless import.
pub const AGENT_LOOP_EVENT: &str = "agent_loop.event";
/// Its attribute holding the event's JSON.
pub const EVENT_JSON: &str = "agent_loop.event.json";
/// The root span's attribute holding the scenario's JSON.
pub const AGENT_LOOP_SCENARIO: &str = "agent_loop.scenario";

mod ids {
    use crate::replay::Record;

    /// Trace and span ids derived from the run itself, so exporting the same
    /// run twice gives the same ids (a test, a diff, a re-import compare).
    pub struct Ids {
        seed: u64,
    }

    impl Ids {
        pub fn for_record(record: &Record) -> Self {
            Ids {
                seed: fnv1a(crate::event::to_jsonl(&record.events).as_bytes()),
            }
        }

        /// 32 hex digits, never all zero (OTLP rejects an all-zero id).
        pub fn trace_id(&self) -> String {
            format!("{:016x}{:016x}", self.seed | 1, mix(self.seed))
        }

        /// 16 hex digits, never all zero.
        pub fn span_id(&self, index: usize) -> String {
            format!("{:016x}", mix(self.seed ^ (index as u64 + 1)) | 1)
        }
    }

    fn fnv1a(bytes: &[u8]) -> u64 {
        bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
            (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
        })
    }

    /// splitmix64's finaliser: spreads a seed over all 64 bits.
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}
