//! What one source file says about modules: the `mod x;` files it declares,
//! its inline `mod x { … }` blocks, every `use` leaf, and every path in code
//! that could name a module of the crate (`crate::a::b`, `super::x`, `a::f`).
//!
//! Items under `#[cfg(test)]` are skipped whole: a test module may use
//! anything without making the code depend on it.

use crate::tokens::{Tok, Token};

/// Where in a file something was found: the inline modules around it
/// (`["tokio_runtime"]` inside `mod tokio_runtime { … }`), and its line.
#[derive(Clone, Debug)]
pub struct Place {
    pub inline: Vec<String>,
    pub line: usize,
}

/// `mod name;`: a module in its own file.
#[derive(Clone, Debug)]
pub struct ModDecl {
    pub place: Place,
    pub name: String,
}

/// One leaf of a `use` tree, with its full path.
#[derive(Clone, Debug)]
pub struct UseLeaf {
    pub place: Place,
    pub path: Vec<String>,
    /// The name it brings into scope; `None` for `*` and `as _`.
    pub binds: Option<String>,
    pub glob: bool,
    /// `pub use` (any `pub(…)` too): a re-export other modules can name.
    pub public: bool,
}

/// A path of two or more segments outside `use`: `crate::a::f`, `b::g`.
#[derive(Clone, Debug)]
pub struct CodePath {
    pub place: Place,
    pub path: Vec<String>,
}

#[derive(Clone, Debug, Default)]
pub struct FileItems {
    pub mods: Vec<ModDecl>,
    pub inline_mods: Vec<Vec<String>>,
    pub uses: Vec<UseLeaf>,
    pub paths: Vec<CodePath>,
}

pub fn file_items(tokens: &[Token]) -> FileItems {
    let mut reader = Reader {
        tokens,
        at: 0,
        braces: Vec::new(),
        public_use: false,
        items: FileItems::default(),
    };
    reader.run();
    reader.items
}

struct Reader<'a> {
    tokens: &'a [Token],
    at: usize,
    /// One entry per open `{`: the inline module it opens, if any.
    braces: Vec<Option<String>>,
    /// Whether the `use` being read is a `pub use`.
    public_use: bool,
    items: FileItems,
}

impl Reader<'_> {
    fn tok(&self, ahead: usize) -> Option<&Tok> {
        self.tokens.get(self.at + ahead).map(|t| &t.tok)
    }

    fn is_punct(&self, ahead: usize, c: char) -> bool {
        self.tok(ahead) == Some(&Tok::Punct(c))
    }

    fn ident(&self, ahead: usize) -> Option<&str> {
        match self.tok(ahead) {
            Some(Tok::Ident(name)) => Some(name),
            _ => None,
        }
    }

    fn place(&self) -> Place {
        Place {
            inline: self.braces.iter().flatten().cloned().collect(),
            line: self.tokens.get(self.at).map_or(0, |t| t.line),
        }
    }

    fn run(&mut self) {
        let mut test_only = false;
        while self.at < self.tokens.len() {
            if self.is_punct(0, '#') && (self.is_punct(1, '[') || self.is_punct(1, '!')) {
                let inner = self.is_punct(1, '!');
                let is_test = self.attribute();
                if is_test && inner && self.braces.is_empty() {
                    return; // `#![cfg(test)]`: the whole file is test code
                }
                test_only |= is_test && !inner;
                continue;
            }
            if std::mem::take(&mut test_only) {
                self.skip_item();
                continue;
            }
            match self.tok(0).cloned() {
                Some(Tok::Ident(word)) if word == "mod" => self.module(),
                Some(Tok::Ident(word)) if word == "use" => {
                    self.public_use = self.after_pub();
                    self.at += 1;
                    let place = self.place();
                    self.use_tree(Vec::new(), &place);
                }
                Some(Tok::Ident(_)) if self.starts_path() => self.code_path(),
                Some(Tok::Punct('{')) => {
                    self.braces.push(None);
                    self.at += 1;
                }
                Some(Tok::Punct('}')) => {
                    self.braces.pop();
                    self.at += 1;
                }
                _ => self.at += 1,
            }
        }
    }

    /// Reads `#[…]` or `#![…]`; true when it is a `cfg` that only holds in tests.
    fn attribute(&mut self) -> bool {
        let open = self.at + if self.is_punct(1, '!') { 2 } else { 1 };
        let close = matching(self.tokens, open);
        let body = &self.tokens[open + 1..close.min(self.tokens.len())];
        self.at = close + 1;
        matches!(body.first().map(|t| &t.tok), Some(Tok::Ident(w)) if w == "cfg")
            && body.get(1).map(|t| &t.tok) == Some(&Tok::Punct('('))
            && cfg_needs_test(&body[2..])
    }

    /// `mod name;` is a file module; `mod name { … }` an inline one, whose
    /// brace is marked so `super` inside it means its file's module.
    fn module(&mut self) {
        let Some(name) = self.ident(1).map(str::to_string) else {
            self.at += 1;
            return;
        };
        let place = self.place();
        if self.is_punct(2, ';') {
            self.items.mods.push(ModDecl { place, name });
            self.at += 3;
        } else if self.is_punct(2, '{') {
            let mut inline = place.inline;
            inline.push(name.clone());
            self.items.inline_mods.push(inline);
            self.braces.push(Some(name));
            self.at += 3;
        } else {
            self.at += 2;
        }
    }

    /// One `use` tree (after `use`, or inside braces), ending before its `,`,
    /// `}` or `;`.
    fn use_tree(&mut self, mut path: Vec<String>, place: &Place) {
        loop {
            match self.tok(0).cloned() {
                Some(Tok::PathSep) => {
                    if path.is_empty() {
                        path.push("::".to_string()); // `use ::dep::x`: another crate
                    }
                    self.at += 1;
                }
                Some(Tok::Ident(word)) => {
                    self.at += 1;
                    // `{self, …}` names the module the braces are in.
                    if word != "self" || path.is_empty() {
                        path.push(word);
                    }
                    if self.tok(0) == Some(&Tok::PathSep) {
                        continue;
                    }
                    let binds = if self.ident(0) == Some("as") {
                        let alias = self.ident(1).map(str::to_string);
                        self.at += 2;
                        alias.filter(|alias| alias != "_")
                    } else {
                        path.last().cloned()
                    };
                    self.leaf(place, path, binds, false);
                    return;
                }
                Some(Tok::Punct('*')) => {
                    self.at += 1;
                    self.leaf(place, path, None, true);
                    return;
                }
                Some(Tok::Punct('{')) => {
                    self.at += 1;
                    while !self.is_punct(0, '}') && self.at < self.tokens.len() {
                        self.use_tree(path.clone(), place);
                        if self.is_punct(0, ',') {
                            self.at += 1;
                        } else if !self.is_punct(0, '}') {
                            break;
                        }
                    }
                    self.at += 1;
                    return;
                }
                _ => return,
            }
        }
    }

    fn leaf(&mut self, place: &Place, path: Vec<String>, binds: Option<String>, glob: bool) {
        let place = Place {
            inline: place.inline.clone(),
            line: self.tokens.get(self.at - 1).map_or(place.line, |t| t.line),
        };
        self.items.uses.push(UseLeaf {
            place,
            path,
            binds,
            glob,
            public: self.public_use,
        });
    }

    /// Whether the token before this one ends a visibility: `pub` or
    /// `pub(…)`.
    fn after_pub(&self) -> bool {
        let mut back = self.at;
        if back > 0 && self.tokens[back - 1].tok == Tok::Punct(')') {
            while back > 0 && self.tokens[back - 1].tok != Tok::Punct('(') {
                back -= 1;
            }
            back = back.saturating_sub(1);
        }
        back > 0 && self.tokens[back - 1].tok == Tok::Ident("pub".to_string())
    }

    /// An identifier that begins a path: followed by `::` and a name, not
    /// itself the tail of a path, and not the `crate` of `pub(in crate::x)`
    /// (which names where an item is visible, not something it uses).
    fn starts_path(&self) -> bool {
        let before = |back: usize| {
            self.at
                .checked_sub(back)
                .and_then(|i| self.tokens.get(i))
                .map(|t| &t.tok)
        };
        let follows_in = matches!(before(1), Some(Tok::Ident(w)) if w == "in")
            && before(2) == Some(&Tok::Punct('('));
        self.tok(1) == Some(&Tok::PathSep)
            && matches!(self.tok(2), Some(Tok::Ident(_)))
            && before(1) != Some(&Tok::PathSep)
            && !follows_in
    }

    fn code_path(&mut self) {
        let place = self.place();
        let mut path = Vec::new();
        while let Some(segment) = self.ident(0) {
            path.push(segment.to_string());
            self.at += 1;
            if self.tok(0) == Some(&Tok::PathSep) && self.ident(1).is_some() {
                self.at += 1;
            } else {
                break;
            }
        }
        self.items.paths.push(CodePath { place, path });
    }

    /// Skips the item after a `#[cfg(test)]`: up to its `;`, or to the end of
    /// its body for `fn`, `mod`, `impl` and the like, or, for a field or a
    /// match arm, to its `,`.
    fn skip_item(&mut self) {
        let kind = self.item_kind();
        let mut depth = 0usize;
        while let Some(tok) = self.tok(0) {
            match tok {
                Tok::Punct('(' | '[' | '{') => depth += 1,
                Tok::Punct(')' | ']' | '}') => {
                    if depth == 0 {
                        return; // the end of what contains the item
                    }
                    depth -= 1;
                    if depth == 0 && kind != ItemKind::UntilSemicolon && self.is_punct(0, '}') {
                        self.at += 1;
                        return;
                    }
                }
                Tok::Punct(';') if depth == 0 => {
                    self.at += 1;
                    return;
                }
                Tok::Punct(',') if depth == 0 && kind == ItemKind::Expression => {
                    self.at += 1;
                    return;
                }
                _ => {}
            }
            self.at += 1;
        }
    }

    fn item_kind(&self) -> ItemKind {
        let mut ahead = 0;
        // Visibility and qualifiers come before the keyword that decides.
        loop {
            match self.ident(ahead) {
                Some("pub") => {
                    ahead += 1;
                    if self.is_punct(ahead, '(') {
                        while !self.is_punct(ahead, ')') && self.tok(ahead).is_some() {
                            ahead += 1;
                        }
                        ahead += 1;
                    }
                }
                Some("unsafe" | "async" | "extern") => ahead += 1,
                Some("const")
                    if matches!(self.ident(ahead + 1), Some("fn" | "unsafe" | "async")) =>
                {
                    ahead += 1
                }
                _ => break,
            }
        }
        match self.ident(ahead) {
            Some("const" | "static" | "let" | "use" | "type") => ItemKind::UntilSemicolon,
            Some("fn" | "mod" | "impl" | "struct" | "enum" | "union" | "trait" | "macro_rules") => {
                ItemKind::WithBody
            }
            _ => ItemKind::Expression,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ItemKind {
    UntilSemicolon,
    WithBody,
    Expression,
}

/// The index of the bracket closing the one at `open`.
fn matching(tokens: &[Token], open: usize) -> usize {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        match token.tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// Whether a `cfg(…)` predicate (its tokens after the opening parenthesis)
/// holds only under `cfg(test)`: `test`, or an `all(…)` containing such a
/// predicate. `any(test, x)` and `not(test)` also hold outside tests.
fn cfg_needs_test(tokens: &[Token]) -> bool {
    match tokens.first().map(|t| &t.tok) {
        Some(Tok::Ident(w)) if w == "test" => {
            !matches!(tokens.get(1).map(|t| &t.tok), Some(Tok::Punct('=')))
        }
        Some(Tok::Ident(w)) if w == "all" => {
            let close = matching(tokens, 1);
            let mut at = 2;
            while at < close {
                if cfg_needs_test(&tokens[at..close]) {
                    return true;
                }
                // Move past this predicate to the next one after a comma.
                let mut depth = 0usize;
                while at < close {
                    match tokens[at].tok {
                        Tok::Punct('(') => depth += 1,
                        Tok::Punct(')') => depth -= 1,
                        Tok::Punct(',') if depth == 0 => break,
                        _ => {}
                    }
                    at += 1;
                }
                at += 1;
            }
            false
        }
        _ => false,
    }
}
