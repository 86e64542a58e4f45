//! The clock and timers a driver needs, behind a trait so the same driver runs
//! on tokio natively and on browser timers in wasm.

use futures::future::LocalBoxFuture;

pub trait Runtime {
    /// Monotonic milliseconds from an arbitrary origin (for elapsed times and deadlines).
    fn now_ms(&self) -> f64;
    /// Wall-clock milliseconds since the Unix epoch (for tools such as `get_time`).
    fn unix_ms(&self) -> f64;
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()>;
}

#[cfg(feature = "tokio")]
pub use self::tokio_runtime::TokioRuntime;

#[cfg(feature = "tokio")]
mod tokio_runtime {
    use super::*;

    /// Tokio's clock, so tests can pause and advance time deterministically.
    pub struct TokioRuntime {
        origin: tokio::time::Instant,
    }

    impl Default for TokioRuntime {
        fn default() -> Self {
            TokioRuntime {
                origin: tokio::time::Instant::now(),
            }
        }
    }

    impl Runtime for TokioRuntime {
        fn now_ms(&self) -> f64 {
            self.origin.elapsed().as_secs_f64() * 1000.0
        }

        fn unix_ms(&self) -> f64 {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
        }

        fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
            Box::pin(tokio::time::sleep(std::time::Duration::from_millis(ms)))
        }
    }
}
