//! Glossary links in a lesson's text: `[[term]]` or `[[term|shown words]]`.
//!
//! The command line prints the shown words (`plain`); the page draws each
//! term as a link that shows its meaning (`split`); the built-in course's
//! loader checks each term is defined (`named`).

/// A piece of text: plain words, or a glossary term and the words shown for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'a> {
    Plain(&'a str),
    Term { term: &'a str, shown: &'a str },
}

/// `text` cut into plain runs and terms, in order. A `[[` with no closing
/// `]]`, or an empty term, stays plain text.
pub fn split(text: &str) -> Vec<Piece<'_>> {
    let mut pieces = Vec::new();
    // Where the plain run not yet pushed starts, and where to look next.
    let mut plain_from = 0;
    let mut look_from = 0;
    while let Some(found) = text[look_from..].find("[[") {
        let open = look_from + found;
        let inner_from = open + 2;
        let Some(close) = text[inner_from..].find("]]").map(|c| inner_from + c) else {
            break;
        };
        let inside = &text[inner_from..close];
        let (term, shown) = match inside.split_once('|') {
            Some((term, shown)) => (term.trim(), shown.trim()),
            None => (inside.trim(), inside.trim()),
        };
        if term.is_empty() || shown.is_empty() || inside.contains("[[") {
            // Not a term: the brackets stay as written.
            look_from = inner_from;
            continue;
        }
        if open > plain_from {
            pieces.push(Piece::Plain(&text[plain_from..open]));
        }
        pieces.push(Piece::Term { term, shown });
        plain_from = close + 2;
        look_from = plain_from;
    }
    if plain_from < text.len() {
        pieces.push(Piece::Plain(&text[plain_from..]));
    }
    pieces
}

/// The text as the command line prints it: each term as its shown words.
pub fn plain(text: &str) -> String {
    split(text)
        .into_iter()
        .map(|piece| match piece {
            Piece::Plain(words) => words,
            Piece::Term { shown, .. } => shown,
        })
        .collect()
}

/// The terms `text` links, in order (a term linked twice, twice).
pub fn named(text: &str) -> Vec<&str> {
    split(text)
        .into_iter()
        .filter_map(|piece| match piece {
            Piece::Term { term, .. } => Some(term),
            Piece::Plain(_) => None,
        })
        .collect()
}
