//! Rust source as a list of identifiers and punctuation, each with its line.
//!
//! Comments, string and character literals, numbers and lifetimes become
//! nothing (or an opaque `Literal`), so a `crate::x` written in a doc comment
//! or a string can never look like an import.

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    /// A string, character or number literal; its text does not matter.
    Literal,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
}

pub fn tokenize(source: &str) -> Vec<Token> {
    Lexer {
        chars: source.chars().collect(),
        at: 0,
        line: 1,
        out: Vec::new(),
    }
    .run()
}

struct Lexer {
    chars: Vec<char>,
    at: usize,
    line: usize,
    out: Vec<Token>,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    /// Moves on one character, counting lines.
    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn push(&mut self, tok: Tok, line: usize) {
        self.out.push(Token { tok, line });
    }

    fn run(mut self) -> Vec<Token> {
        while let Some(c) = self.peek(0) {
            let line = self.line;
            match c {
                _ if c.is_whitespace() => {
                    self.bump();
                }
                '/' if self.peek(1) == Some('/') => self.line_comment(),
                '/' if self.peek(1) == Some('*') => self.block_comment(),
                '"' => {
                    self.bump();
                    self.quoted('"');
                    self.push(Tok::Literal, line);
                }
                '\'' => self.quote_or_lifetime(line),
                ':' if self.peek(1) == Some(':') => {
                    self.at += 2;
                    self.push(Tok::PathSep, line);
                }
                _ if c.is_ascii_digit() => self.number(line),
                _ if c == '_' || c.is_alphabetic() => self.word(line),
                _ => {
                    self.bump();
                    self.push(Tok::Punct(c), line);
                }
            }
        }
        self.out
    }

    fn line_comment(&mut self) {
        while self.peek(0).is_some_and(|c| c != '\n') {
            self.bump();
        }
    }

    /// Block comments nest in Rust.
    fn block_comment(&mut self) {
        self.at += 2;
        let mut depth = 1;
        while depth > 0 {
            match (self.peek(0), self.peek(1)) {
                (Some('/'), Some('*')) => {
                    self.at += 2;
                    depth += 1;
                }
                (Some('*'), Some('/')) => {
                    self.at += 2;
                    depth -= 1;
                }
                (Some(_), _) => {
                    self.bump();
                }
                (None, _) => return,
            }
        }
    }

    /// The rest of a string or character literal after its opening quote.
    fn quoted(&mut self, close: char) {
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == close {
                return;
            }
        }
    }

    /// `r"…"`, `r#"…"#`: no escapes, ends at a quote followed by as many `#`.
    fn raw_string(&mut self) {
        let mut hashes = 0;
        while self.peek(0) == Some('#') {
            self.at += 1;
            hashes += 1;
        }
        self.bump(); // the opening quote
        while let Some(c) = self.bump() {
            if c == '"' && (0..hashes).all(|i| self.peek(i) == Some('#')) {
                self.at += hashes;
                return;
            }
        }
    }

    /// `'x'` and `'\n'` are characters; `'a` (no closing quote right after
    /// one character) is a lifetime or a loop label.
    fn quote_or_lifetime(&mut self, line: usize) {
        self.bump();
        if self.peek(0) == Some('\\') || self.peek(1) == Some('\'') {
            self.quoted('\'');
            self.push(Tok::Literal, line);
        } else {
            while self
                .peek(0)
                .is_some_and(|c| c == '_' || c.is_alphanumeric())
            {
                self.bump();
            }
        }
    }

    fn number(&mut self, line: usize) {
        while let Some(c) = self.peek(0) {
            let fraction = c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit());
            if c.is_alphanumeric() || c == '_' || fraction {
                self.bump();
            } else {
                break;
            }
        }
        self.push(Tok::Literal, line);
    }

    /// An identifier or keyword, or the prefix of a prefixed literal
    /// (`b"…"`, `br#"…"#`, `b'x'`, `c"…"`) or of a raw identifier (`r#type`).
    fn word(&mut self, line: usize) {
        let start = self.at;
        while self
            .peek(0)
            .is_some_and(|c| c == '_' || c.is_alphanumeric())
        {
            self.bump();
        }
        let word: String = self.chars[start..self.at].iter().collect();
        let next = self.peek(0);
        let raw_quote = |lexer: &Self| {
            let mut i = 0;
            while lexer.peek(i) == Some('#') {
                i += 1;
            }
            lexer.peek(i) == Some('"')
        };
        match word.as_str() {
            "r" | "br" | "cr" if matches!(next, Some('"' | '#')) && raw_quote(self) => {
                self.raw_string();
                self.push(Tok::Literal, line);
            }
            "b" | "c" if next == Some('"') => {
                self.bump();
                self.quoted('"');
                self.push(Tok::Literal, line);
            }
            "b" if next == Some('\'') => {
                self.bump();
                self.quoted('\'');
                self.push(Tok::Literal, line);
            }
            "r" if next == Some('#') => {
                self.bump();
                let start = self.at;
                while self
                    .peek(0)
                    .is_some_and(|c| c == '_' || c.is_alphanumeric())
                {
                    self.bump();
                }
                let raw: String = self.chars[start..self.at].iter().collect();
                self.push(Tok::Ident(raw), line);
            }
            _ => self.push(Tok::Ident(word), line),
        }
    }
}
