//! One crate's module graph: its file modules (found by following `mod x;`
//! from the crate root), the import edges between them with where each is
//! written, and the cycles among those edges.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::path::{Path, PathBuf};

use crate::items::{file_items, FileItems};
use crate::tokens::tokenize;

/// A module's path inside its crate; empty for the crate root.
pub type ModPath = Vec<String>;

/// Where one import of `to` by `from` is written.
#[derive(Clone, Debug)]
pub struct Use {
    pub file: PathBuf,
    pub line: usize,
    pub written: String,
}

pub struct CrateGraph {
    pub root_file: PathBuf,
    /// Every file module and its file.
    pub files: BTreeMap<ModPath, PathBuf>,
    /// Every module path, inline modules included, to the file module
    /// holding it (itself for a file module).
    owner: HashMap<ModPath, ModPath>,
    /// The names each module's `use` items bring into scope.
    bindings: HashMap<ModPath, HashMap<String, Binding>>,
    /// Each (from, to) pair of file modules, with every place it is written.
    pub edges: BTreeMap<(ModPath, ModPath), Vec<Use>>,
    /// Declared module files that do not exist.
    pub problems: Vec<String>,
}

/// A name a `use` brings into a module's scope.
struct Binding {
    path: Vec<String>,
    /// A `pub use`: other modules reach the item through this name.
    public: bool,
}

pub fn display(module: &ModPath) -> String {
    if module.is_empty() {
        "crate".to_string()
    } else {
        module.join("::")
    }
}

fn child(module: &ModPath, name: &str) -> ModPath {
    let mut path = module.clone();
    path.push(name.to_string());
    path
}

/// Reads the crate whose root file is `root_file`; `read` gives a file's
/// text by its path, or `None` when there is no such file.
pub fn load_crate(root_file: &Path, read: &dyn Fn(&Path) -> Option<String>) -> CrateGraph {
    let mut graph = CrateGraph {
        root_file: root_file.to_path_buf(),
        files: BTreeMap::new(),
        owner: HashMap::new(),
        bindings: HashMap::new(),
        edges: BTreeMap::new(),
        problems: Vec::new(),
    };
    let mut items: BTreeMap<ModPath, FileItems> = BTreeMap::new();
    let mut queue = VecDeque::from([(ModPath::new(), root_file.to_path_buf())]);
    while let Some((module, file)) = queue.pop_front() {
        let Some(text) = read(&file) else {
            graph
                .problems
                .push(format!("{} cannot be read", file.display()));
            continue;
        };
        let found = file_items(&tokenize(&text));
        for declared in &found.mods {
            let mut dir = children_dir(&file);
            dir.extend(&declared.place.inline);
            let candidates = [
                dir.join(format!("{}.rs", declared.name)),
                dir.join(&declared.name).join("mod.rs"),
            ];
            let mut path = module.clone();
            path.extend(declared.place.inline.iter().cloned());
            path.push(declared.name.clone());
            match candidates.iter().find(|c| read(c).is_some()) {
                Some(found) => queue.push_back((path, found.clone())),
                None => graph.problems.push(format!(
                    "{}:{} declares `mod {}`, but neither {} nor {} exists",
                    file.display(),
                    declared.place.line,
                    declared.name,
                    candidates[0].display(),
                    candidates[1].display()
                )),
            }
        }
        for inline in &found.inline_mods {
            let mut path = module.clone();
            path.extend(inline.iter().cloned());
            graph.owner.insert(path, module.clone());
        }
        graph.owner.insert(module.clone(), module.clone());
        graph.files.insert(module.clone(), file);
        items.insert(module, found);
    }
    for (module, found) in &items {
        for leaf in &found.uses {
            if let Some(name) = &leaf.binds {
                let mut scope = module.clone();
                scope.extend(leaf.place.inline.iter().cloned());
                graph.bindings.entry(scope).or_default().insert(
                    name.clone(),
                    Binding {
                        path: leaf.path.clone(),
                        public: leaf.public,
                    },
                );
            }
        }
    }
    for (module, found) in &items {
        let file = graph.files[module].clone();
        let scope_of = |inline: &[String]| {
            let mut scope = module.clone();
            scope.extend(inline.iter().cloned());
            scope
        };
        let mut found_uses = Vec::new();
        for leaf in &found.uses {
            let scope = scope_of(&leaf.place.inline);
            if let Some((target, rest)) = graph.resolve(&scope, &leaf.path, 0) {
                // `use crate::ui;` only names a module: the edge comes from
                // what the code then reaches through that name.
                if leaf.glob || !rest.is_empty() {
                    found_uses.push((target, leaf.place.line, leaf.path.join("::")));
                }
            }
        }
        for path in &found.paths {
            let scope = scope_of(&path.place.inline);
            if let Some((target, _)) = graph.resolve(&scope, &path.path, 0) {
                found_uses.push((target, path.place.line, path.path.join("::")));
            }
        }
        for (target, line, written) in found_uses {
            let to = graph.owner[&target].clone();
            // A module reaching into its own submodules is how a directory
            // module is built (declaring, re-exporting and wiring its
            // children), not an import between units.
            if to.starts_with(module) {
                continue;
            }
            graph
                .edges
                .entry((module.clone(), to))
                .or_default()
                .push(Use {
                    file: file.clone(),
                    line,
                    written,
                });
        }
    }
    graph
}

/// Where the files of a module's `mod x;` children live: next to a crate
/// root or a `mod.rs`, otherwise in the directory named after the file.
fn children_dir(file: &Path) -> PathBuf {
    let parent = file.parent().unwrap_or(Path::new(""));
    match file.file_name().and_then(|n| n.to_str()) {
        Some("lib.rs" | "main.rs" | "mod.rs") => parent.to_path_buf(),
        _ => parent.join(file.file_stem().unwrap_or_default()),
    }
}

impl CrateGraph {
    fn is_module(&self, module: &ModPath) -> bool {
        self.owner.contains_key(module)
    }

    fn binding(&self, scope: &ModPath, name: &str) -> Option<&Binding> {
        self.bindings.get(scope)?.get(name)
    }

    /// The module a path written in `scope` reaches, and the rest of the path
    /// (the item in it); `None` for paths into other crates or local names.
    fn resolve(
        &self,
        scope: &ModPath,
        path: &[String],
        depth: usize,
    ) -> Option<(ModPath, Vec<String>)> {
        // A chain of re-exports is short; a longer one is a loop of `use`s.
        if depth > 16 {
            return None;
        }
        let first = path.first()?.as_str();
        let (mut module, mut at) = match first {
            "crate" => (ModPath::new(), 1),
            "self" => (scope.clone(), 1),
            "super" => (scope.clone(), 0),
            _ if self.is_module(&child(scope, first)) => (child(scope, first), 1),
            _ => {
                let target = &self.binding(scope, first)?.path;
                let (module, mut rest) = self.resolve(scope, target, depth + 1)?;
                rest.extend(path[1..].iter().cloned());
                return self.descend(scope, module, rest, depth + 1);
            }
        };
        while path.get(at).map(String::as_str) == Some("super") {
            module.pop()?;
            at += 1;
        }
        self.descend(scope, module, path[at..].to_vec(), depth)
    }

    /// Follows `rest` down through submodules, and through a name `module`
    /// imports, to where that name lives: a `pub use a::X;` from anywhere,
    /// a private `use` only from the module itself or its children (which
    /// is all Rust allows; elsewhere the name is the module's own item, such
    /// as a function named like the module it imports).
    fn descend(
        &self,
        from: &ModPath,
        mut module: ModPath,
        rest: Vec<String>,
        depth: usize,
    ) -> Option<(ModPath, Vec<String>)> {
        let mut at = 0;
        while at < rest.len() && self.is_module(&child(&module, &rest[at])) {
            module.push(rest[at].clone());
            at += 1;
        }
        let rest = rest[at..].to_vec();
        let visible = |binding: &&Binding| binding.public || from.starts_with(&module);
        if let Some(binding) = rest
            .first()
            .and_then(|name| self.binding(&module, name))
            .filter(visible)
        {
            if let Some((to, mut more)) = self.resolve(&module, &binding.path, depth + 1) {
                more.extend(rest[1..].iter().cloned());
                return self.descend(&module, to, more, depth + 1);
            }
        }
        Some((module, rest))
    }

    /// Every cycle needed to show each edge that lies on one: per edge of a
    /// strongly connected group, the shortest cycle through it. Each starts
    /// at its smallest module, and they come shortest first.
    pub fn cycles(&self) -> Vec<Vec<ModPath>> {
        let mut next: BTreeMap<&ModPath, Vec<&ModPath>> = BTreeMap::new();
        for (from, to) in self.edges.keys() {
            next.entry(from).or_default().push(to);
        }
        let mut found = BTreeSet::new();
        for group in strongly_connected(&next) {
            if group.len() < 2 {
                continue;
            }
            for (from, to) in self.edges.keys() {
                if !group.contains(&from) || !group.contains(&to) {
                    continue;
                }
                let Some(back) = shortest_path(&next, &group, to, from) else {
                    continue;
                };
                let mut cycle: Vec<ModPath> = vec![from.clone()];
                cycle.extend(back[..back.len() - 1].iter().map(|m| (*m).clone()));
                let start = (0..cycle.len()).min_by_key(|&i| &cycle[i]).unwrap_or(0);
                cycle.rotate_left(start);
                found.insert((cycle.len(), cycle));
            }
        }
        found.into_iter().map(|(_, cycle)| cycle).collect()
    }

    /// `a → b → a`, then each edge's first place (and how many more).
    pub fn describe(&self, cycle: &[ModPath]) -> String {
        let mut names: Vec<String> = cycle.iter().map(display).collect();
        names.push(display(&cycle[0]));
        let mut text = format!("{}: {}\n", self.root_file.display(), names.join(" → "));
        for (i, from) in cycle.iter().enumerate() {
            let to = &cycle[(i + 1) % cycle.len()];
            let uses = &self.edges[&(from.clone(), to.clone())];
            let first = &uses[0];
            let more = match uses.len() - 1 {
                0 => String::new(),
                n => format!(" (and {n} more)"),
            };
            text.push_str(&format!(
                "    {} → {}: {}:{} `{}`{more}\n",
                display(from),
                display(to),
                first.file.display(),
                first.line,
                first.written
            ));
        }
        text
    }
}

/// Tarjan's algorithm: the groups of modules that all reach each other.
fn strongly_connected<'a>(
    next: &BTreeMap<&'a ModPath, Vec<&'a ModPath>>,
) -> Vec<BTreeSet<&'a ModPath>> {
    struct State<'a> {
        index: HashMap<&'a ModPath, usize>,
        low: HashMap<&'a ModPath, usize>,
        stack: Vec<&'a ModPath>,
        on_stack: BTreeSet<&'a ModPath>,
        groups: Vec<BTreeSet<&'a ModPath>>,
    }
    fn visit<'a>(
        node: &'a ModPath,
        next: &BTreeMap<&'a ModPath, Vec<&'a ModPath>>,
        state: &mut State<'a>,
    ) {
        let index = state.index.len();
        state.index.insert(node, index);
        state.low.insert(node, index);
        state.stack.push(node);
        state.on_stack.insert(node);
        for &to in next.get(node).into_iter().flatten() {
            if !state.index.contains_key(to) {
                visit(to, next, state);
                let low = state.low[node].min(state.low[to]);
                state.low.insert(node, low);
            } else if state.on_stack.contains(to) {
                let low = state.low[node].min(state.index[to]);
                state.low.insert(node, low);
            }
        }
        if state.low[node] == state.index[node] {
            let mut group = BTreeSet::new();
            while let Some(member) = state.stack.pop() {
                state.on_stack.remove(member);
                group.insert(member);
                if member == node {
                    break;
                }
            }
            state.groups.push(group);
        }
    }
    let mut state = State {
        index: HashMap::new(),
        low: HashMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for &node in next.keys() {
        if !state.index.contains_key(node) {
            visit(node, next, &mut state);
        }
    }
    state.groups
}

/// The shortest path from `start` to `goal` inside `group`, both ends included.
fn shortest_path<'a>(
    next: &BTreeMap<&'a ModPath, Vec<&'a ModPath>>,
    group: &BTreeSet<&'a ModPath>,
    start: &'a ModPath,
    goal: &'a ModPath,
) -> Option<Vec<&'a ModPath>> {
    let mut came_from: HashMap<&ModPath, &ModPath> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    let mut seen = BTreeSet::from([start]);
    while let Some(node) = queue.pop_front() {
        if node == goal {
            let mut path = vec![node];
            let mut at = node;
            while let Some(&before) = came_from.get(at) {
                path.push(before);
                at = before;
            }
            path.reverse();
            return Some(path);
        }
        for &to in next.get(node).into_iter().flatten() {
            if group.contains(to) && seen.insert(to) {
                came_from.insert(to, node);
                queue.push_back(to);
            }
        }
    }
    None
}
