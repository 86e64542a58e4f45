//! A command's file-or-built-in argument (`run scenario.json`, `run
//! refund-approval`, `lesson check first-loop`): the file when there is
//! one, else the built-in of that name, else why neither is there. Every
//! command reads its text files through [`read_text`].

use std::fmt;
use std::io::ErrorKind;
use std::path::Path;

use harness::suggest::did_you_mean;

/// What kind of built-in an argument may name, and the command listing them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Builtins {
    /// "scenario", "lesson".
    pub kind: &'static str,
    /// "agent-loop list", "agent-loop lesson list".
    pub listed_by: &'static str,
    /// Every built-in's name, for "did you mean".
    pub names: fn() -> Vec<&'static str>,
}

/// Where an argument's text came from.
pub(crate) enum Source<'b> {
    File(String),
    Builtin(&'b str),
}

impl Source<'_> {
    pub(crate) fn into_text(self) -> String {
        match self {
            Source::File(text) => text,
            Source::Builtin(text) => text.to_string(),
        }
    }
}

/// Why an argument's text could not be read.
#[derive(Debug)]
pub(crate) enum SourceError {
    /// No such file, and no built-in has that name.
    Unknown { source: String, builtins: Builtins },
    /// The file is there but cannot be read; `why` in plain words.
    Unreadable { source: String, why: String },
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SourceError::Unknown { source, builtins } => write!(
                f,
                "{source}: no such file, and no built-in {} has that name{}; `{}` names them",
                builtins.kind,
                did_you_mean(source, (builtins.names)().into_iter()),
                builtins.listed_by
            ),
            SourceError::Unreadable { source, why } => write!(f, "cannot read {source}: {why}"),
        }
    }
}

impl std::error::Error for SourceError {}

/// The file `source` names, else the built-in `builtin` finds by that name.
/// A file wins over a built-in of the same name, as the path is explicit.
pub(crate) fn read<'b>(
    source: &str,
    builtins: Builtins,
    builtin: impl FnOnce(&str) -> Option<&'b str>,
) -> Result<Source<'b>, SourceError> {
    match read_text(source) {
        Ok(text) => Ok(Source::File(text)),
        Err(err) => match builtin(source) {
            Some(text) => Ok(Source::Builtin(text)),
            None if err.kind() == ErrorKind::NotFound => Err(SourceError::Unknown {
                source: source.to_string(),
                builtins,
            }),
            None => Err(SourceError::Unreadable {
                source: source.to_string(),
                why: io_problem(&err),
            }),
        },
    }
}

/// The UTF-8 byte-order mark some editors (Notepad among them) write at the
/// start of a file. It says how the file is encoded and is no part of its
/// text; left in, it reads as a stray character before the first `{`.
const BYTE_ORDER_MARK: char = '\u{feff}';

/// A text file's contents, without a leading byte-order mark.
pub(crate) fn read_text(path: impl AsRef<Path>) -> std::io::Result<String> {
    let mut text = std::fs::read_to_string(path)?;
    if text.starts_with(BYTE_ORDER_MARK) {
        text.drain(..BYTE_ORDER_MARK.len_utf8());
    }
    Ok(text)
}

/// An IO error in plain words, without Rust's "(os error 2)".
pub(crate) fn io_problem(err: &std::io::Error) -> String {
    match err.kind() {
        ErrorKind::NotFound => "no such file or folder".to_string(),
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        ErrorKind::IsADirectory => "it is a folder, not a file".to_string(),
        ErrorKind::InvalidData => "it is not UTF-8 text".to_string(),
        _ => err.to_string(),
    }
}
