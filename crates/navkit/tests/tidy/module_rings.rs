//! The module-ring check of the tidy test: the module tree of every crate (from `lib.rs` or
//! `main.rs` through its `mod name;` declarations), the paths between its modules (`use crate::…`,
//! `use super::…`, `self::…` and the same paths written in code or in a serde `with = "…"`), and
//! the rings they make: modules that, through one or more steps, import their importer.
//!
//! The rules, written for what the workspace does:
//! - test code (`#[cfg(test)] mod …`, inline or in a file of its own) is left out;
//! - the crate root (`lib.rs`, `main.rs`) is the crate's front door and is left out: its
//!   re-exports and its `Format` implementation name every module, and modules name its
//!   constants through `crate::`;
//! - a path that names an item through a re-export (`super::Nvnm` where the parent has
//!   `pub use model::Nvnm`) depends on the module that defines it, not on the one that passes it
//!   on; and a `pub use` is a dependency of its own module only when that module also uses the
//!   name itself (a re-export alone is a door, not a use).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module's path inside its crate (`["kv3"]`, `["model", "from_view"]`; the root is empty).
pub type ModPath = Vec<String>;

/// One token of Rust source, comments and whitespace dropped.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    /// `::`
    Colons,
    Punct(char),
    /// A string literal's contents (escapes left as written).
    Str(String),
}

/// A token and the line it starts on (from 1).
#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    line: usize,
}

fn is_ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_'
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The tokens of `text`: identifiers, `::`, punctuation and string literals; comments, numbers,
/// character literals and lifetimes' quotes dropped.
fn lex(text: &str) -> Vec<Token> {
    let c: Vec<char> = text.chars().collect();
    let at = |i: usize| c.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < c.len() {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < c.len() && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    line += usize::from(c[i] == '\n');
                    i += 1;
                }
            }
        } else if ch == '"' {
            let start = line;
            let mut s = String::new();
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    s.push(c[i]);
                    i += 1;
                }
                if i < c.len() {
                    line += usize::from(c[i] == '\n');
                    s.push(c[i]);
                    i += 1;
                }
            }
            i += 1;
            out.push(Token {
                tok: Tok::Str(s),
                line: start,
            });
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // An escaped character literal: up to its closing quote.
                i += 2;
                while i < c.len() && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3;
            } else {
                // A lifetime or label: its name follows as an identifier.
                i += 1;
            }
        } else if is_ident_start(ch) {
            let start = i;
            while i < c.len() && is_ident_char(c[i]) {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            let raw = matches!(word.as_str(), "r" | "br" | "cr");
            if raw && (at(i) == '"' || (at(i) == '#' && !is_ident_start(at(i + 1)))) {
                // A raw string: `r#"…"#`.
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                i += 1;
                let (start_line, mut s) = (line, String::new());
                while i < c.len() {
                    if c[i] == '"' && (1..=hashes).all(|h| at(i + h) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    line += usize::from(c[i] == '\n');
                    s.push(c[i]);
                    i += 1;
                }
                out.push(Token {
                    tok: Tok::Str(s),
                    line: start_line,
                });
            } else if word == "r" && at(i) == '#' {
                // A raw identifier, `r#type`.
                i += 1;
            } else {
                out.push(Token {
                    tok: Tok::Ident(word),
                    line,
                });
            }
        } else if ch.is_ascii_digit() {
            while i < c.len()
                && (is_ident_char(c[i]) || (c[i] == '.' && at(i + 1).is_ascii_digit()))
            {
                i += 1;
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push(Token {
                tok: Tok::Colons,
                line,
            });
            i += 2;
        } else {
            out.push(Token {
                tok: Tok::Punct(ch),
                line,
            });
            i += 1;
        }
    }
    out
}

/// One path a file names: where it is written, and its segments as written.
#[derive(Debug, Clone)]
struct PathRef {
    line: usize,
    /// The module the path is written in (the file's, or an inline module's inside it).
    context: ModPath,
    segments: Vec<String>,
    /// For a `use` at the level of the module: the name it brings in (`None` for a glob), and
    /// whether it is re-exported (`pub`, `pub(crate)`, …).
    import: Option<Import>,
}

/// A module-level `use`.
#[derive(Debug, Clone)]
struct Import {
    /// The local name, or `None` for `*`.
    name: Option<String>,
    public: bool,
}

/// What one file holds, for the check.
#[derive(Debug, Default)]
struct FileFacts {
    /// The paths to other modules it writes, outside test code.
    paths: Vec<PathRef>,
    /// The items it defines at its top level.
    items: BTreeSet<String>,
    /// The modules it declares in files of their own (`mod name;`), and whether each is test code.
    children: Vec<(String, bool)>,
    /// Every identifier written outside `use` declarations and test code.
    words: BTreeSet<String>,
}

/// Whether the tokens at `i` are `#[cfg(test)]`.
fn is_cfg_test(t: &[Token], i: usize) -> bool {
    let want = [
        Tok::Punct('#'),
        Tok::Punct('['),
        Tok::Ident("cfg".into()),
        Tok::Punct('('),
        Tok::Ident("test".into()),
        Tok::Punct(')'),
        Tok::Punct(']'),
    ];
    t.len() >= i + want.len() && want.iter().zip(&t[i..]).all(|(w, got)| *w == got.tok)
}

/// The index just past the bracketed group that opens at `i` (`(`, `[` or `{`).
fn past_group(t: &[Token], i: usize) -> usize {
    let mut depth = 0usize;
    let mut j = i;
    while j < t.len() {
        match t[j].tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    j
}

/// Whether the tokens at `i` start a visibility (`pub`, `pub(crate)`, …), and where it ends.
fn past_visibility(t: &[Token], i: usize) -> usize {
    if t.get(i).is_some_and(|x| x.tok == Tok::Ident("pub".into())) {
        if t.get(i + 1).is_some_and(|x| x.tok == Tok::Punct('(')) {
            return past_group(t, i + 1);
        }
        return i + 1;
    }
    i
}

/// The paths of a `use` tree in `t` (from after `use` to before `;`): each full path, and its
/// local name (`None` for a glob).
fn use_paths(t: &[Token]) -> Vec<(Vec<String>, Option<String>)> {
    fn walk(
        t: &[Token],
        i: &mut usize,
        prefix: &[String],
        out: &mut Vec<(Vec<String>, Option<String>)>,
    ) -> Option<()> {
        let mut path = prefix.to_vec();
        while *i < t.len() {
            match &t[*i].tok {
                Tok::Ident(w) if w == "as" => {
                    *i += 1;
                    if let Some(Tok::Ident(alias)) = t.get(*i).map(|x| &x.tok) {
                        out.push((path.clone(), Some(alias.clone())));
                        path.clear();
                    }
                    *i += 1;
                }
                Tok::Ident(w) => {
                    path.push(w.clone());
                    *i += 1;
                    if t.get(*i).is_none_or(|x| x.tok != Tok::Colons) {
                        let name = if w == "self" {
                            path.pop();
                            path.last().cloned()
                        } else {
                            Some(w.clone())
                        };
                        // An `as` follows: the alias is the name.
                        if t.get(*i).is_some_and(|x| x.tok == Tok::Ident("as".into())) {
                            continue;
                        }
                        out.push((path.clone(), name));
                        return None;
                    }
                    *i += 1;
                }
                Tok::Punct('*') => {
                    out.push((path.clone(), None));
                    *i += 1;
                    return None;
                }
                Tok::Punct('{') => {
                    *i += 1;
                    loop {
                        match t.get(*i).map(|x| &x.tok) {
                            None => return None,
                            Some(Tok::Punct('}')) => {
                                *i += 1;
                                return None;
                            }
                            Some(Tok::Punct(',')) => *i += 1,
                            Some(_) => {
                                let before = *i;
                                let _ = walk(t, i, &path, out);
                                if *i == before {
                                    *i += 1;
                                }
                            }
                        }
                    }
                }
                _ => return None,
            }
        }
        if path.len() > prefix.len() {
            let name = path.last().cloned();
            out.push((path, name));
        }
        None
    }
    let mut out = Vec::new();
    let mut i = 0;
    let _ = walk(t, &mut i, &[], &mut out);
    out
}

/// What one file holds: `module` is the file's module path.
fn file_facts(text: &str, module: &[String]) -> FileFacts {
    let t = lex(text);
    let mut facts = FileFacts::default();
    // Open inline modules: (name, brace depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let context = |inline: &[(String, usize)]| -> ModPath {
        let mut m = module.to_vec();
        m.extend(inline.iter().map(|(n, _)| n.clone()));
        m
    };
    let ident = |j: usize| match t.get(j).map(|x| &x.tok) {
        Some(Tok::Ident(w)) => Some(w.as_str()),
        _ => None,
    };
    let mut i = 0;
    while i < t.len() {
        if is_cfg_test(&t, i) {
            // Test code: a test module (inline: skipped; in a file: not walked).
            let mut j = i + 7;
            while t.get(j).is_some_and(|x| x.tok == Tok::Punct('#')) {
                j = past_group(&t, j + 1);
            }
            j = past_visibility(&t, j);
            if ident(j) == Some("mod") {
                if let Some(name) = ident(j + 1) {
                    match t.get(j + 2).map(|x| &x.tok) {
                        Some(Tok::Punct('{')) => {
                            i = past_group(&t, j + 2);
                            continue;
                        }
                        Some(Tok::Punct(';')) => {
                            if inline.is_empty() {
                                facts.children.push((name.to_string(), true));
                            }
                            i = j + 3;
                            continue;
                        }
                        _ => {}
                    }
                }
            }
            i += 7;
            continue;
        }
        match &t[i].tok {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                depth = depth.saturating_sub(1);
                while inline.last().is_some_and(|(_, d)| *d > depth) {
                    inline.pop();
                }
            }
            Tok::Ident(w) if w == "mod" => {
                if let Some(name) = ident(i + 1) {
                    let top = inline.is_empty() && depth == 0;
                    if top {
                        facts.items.insert(name.to_string());
                    }
                    match t.get(i + 2).map(|x| &x.tok) {
                        Some(Tok::Punct('{')) => {
                            inline.push((name.to_string(), depth + 1));
                            depth += 1;
                            i += 3;
                            continue;
                        }
                        Some(Tok::Punct(';')) if top => {
                            facts.children.push((name.to_string(), false));
                        }
                        _ => {}
                    }
                }
            }
            Tok::Ident(w)
                if matches!(
                    w.as_str(),
                    "fn" | "struct" | "enum" | "union" | "trait" | "type" | "const" | "static"
                ) && inline.is_empty()
                    && depth == 0 =>
            {
                if let Some(name) = ident(i + 1).filter(|n| !matches!(*n, "fn" | "mut")) {
                    facts.items.insert(name.to_string());
                }
            }
            Tok::Ident(w) if w == "macro_rules" && inline.is_empty() && depth == 0 => {
                if let Some(name) = ident(i + 2) {
                    facts.items.insert(name.to_string());
                }
            }
            Tok::Ident(w)
                if w == "use" && t.get(i + 1).is_some_and(|x| x.tok != Tok::Punct('<')) =>
            {
                let public = i > 0
                    && (t[i - 1].tok == Tok::Ident("pub".into())
                        || (t[i - 1].tok == Tok::Punct(')')
                            && (2..=5).any(|back| {
                                i >= back && t[i - back].tok == Tok::Ident("pub".into())
                            })));
                let end = (i..t.len())
                    .find(|&j| t[j].tok == Tok::Punct(';'))
                    .unwrap_or(t.len());
                let module_level = depth == inline.last().map_or(0, |(_, d)| *d);
                for (segments, name) in use_paths(&t[i + 1..end]) {
                    facts.paths.push(PathRef {
                        line: t[i].line,
                        context: context(&inline),
                        segments,
                        import: module_level.then(|| Import {
                            name: name.clone(),
                            public,
                        }),
                    });
                }
                i = end + 1;
                continue;
            }
            // A path in code: from `crate`, `super` or `self`, or from a name that may be a
            // child module (`fix::fix(m)`; told apart from other names when resolved).
            Tok::Ident(w)
                if t.get(i + 1).is_some_and(|x| x.tok == Tok::Colons)
                    && (i == 0 || t[i - 1].tok != Tok::Colons) =>
            {
                facts.words.insert(w.clone());
                let mut segments = vec![w.clone()];
                let mut j = i + 1;
                while t.get(j).is_some_and(|x| x.tok == Tok::Colons) {
                    let Some(next) = ident(j + 1) else { break };
                    segments.push(next.to_string());
                    j += 2;
                }
                facts.paths.push(PathRef {
                    line: t[i].line,
                    context: context(&inline),
                    segments,
                    import: None,
                });
                i = j;
                continue;
            }
            Tok::Ident(w) => {
                facts.words.insert(w.clone());
            }
            Tok::Str(s)
                if i >= 2
                    && t[i - 1].tok == Tok::Punct('=')
                    && matches!(
                        ident(i - 2),
                        Some("with" | "serialize_with" | "deserialize_with" | "default")
                    ) =>
            {
                // A path relative to the module, as serde resolves it.
                facts.paths.push(PathRef {
                    line: t[i].line,
                    context: context(&inline),
                    segments: s.split("::").map(str::to_string).collect(),
                    import: None,
                });
            }
            _ => {}
        }
        i += 1;
    }
    facts
}

/// One crate's module tree, read from its root file.
#[derive(Debug, Default)]
pub struct Crate {
    /// Each module's file (relative to the crate) and what it holds.
    modules: BTreeMap<ModPath, (PathBuf, FileFacts)>,
}

impl Crate {
    /// Reads the module tree from `root` (`src/lib.rs`, relative to the crate), through `read`
    /// (which gives a file's text, or `None` when there is no such file).
    pub fn read(root: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Crate {
        let mut krate = Crate::default();
        let mut todo = vec![(Vec::new(), root.to_path_buf())];
        while let Some((module, file)) = todo.pop() {
            let Some(text) = read(&file) else { continue };
            let facts = file_facts(&text, &module);
            let dir = file.parent().unwrap_or(Path::new("")).to_path_buf();
            let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let home = if matches!(stem, "lib" | "main" | "mod") {
                dir
            } else {
                dir.join(stem)
            };
            for (name, test) in &facts.children {
                if *test {
                    continue;
                }
                let mut child = module.clone();
                child.push(name.clone());
                let flat = home.join(format!("{name}.rs"));
                let nested = home.join(name).join("mod.rs");
                let path = if read(&flat).is_some() { flat } else { nested };
                todo.push((child, path));
            }
            krate.modules.insert(module, (file, facts));
        }
        krate
    }

    /// How many modules the crate has (test modules not counted).
    pub fn module_count(&self) -> usize {
        self.modules.len()
    }

    /// The file module that holds the item `segments` (absolute), following re-exports.
    fn owner(&self, segments: &[String], hops: usize) -> Option<ModPath> {
        let len = (0..=segments.len())
            .rev()
            .find(|&n| self.modules.contains_key(&segments[..n]))?;
        let module = segments[..len].to_vec();
        let Some(name) = segments.get(len) else {
            return Some(module);
        };
        let facts = &self.modules[&module].1;
        if facts.items.contains(name) || hops > 8 {
            return Some(module);
        }
        // A name brought in by a `use` of the module: the module it comes from.
        for p in facts.paths.iter().filter(|p| p.context == module) {
            let Some(import) = &p.import else { continue };
            let Some(target) = self.absolute(&p.context, &p.segments) else {
                continue;
            };
            let via = match &import.name {
                Some(n) if n == name => Some(target),
                None => {
                    let mut t = target;
                    t.push(name.clone());
                    self.defines(&t, hops).then_some(t)
                }
                Some(_) => None,
            };
            if let Some(mut via) = via {
                via.extend(segments[len + 1..].iter().cloned());
                return self.owner(&via, hops + 1);
            }
        }
        Some(module)
    }

    /// Whether the absolute path names an item of a module of this crate (defined there, or
    /// brought in by name or by a glob).
    fn defines(&self, segments: &[String], hops: usize) -> bool {
        let Some((name, module)) = segments.split_last() else {
            return false;
        };
        let Some((_, f)) = self.modules.get(module) else {
            return false;
        };
        f.items.contains(name)
            || f.paths.iter().filter(|p| p.context == module).any(|p| {
                match p.import.as_ref().map(|i| i.name.as_deref()) {
                    Some(Some(n)) => n == name,
                    Some(None) if hops < 8 => {
                        self.absolute(&p.context, &p.segments).is_some_and(|mut t| {
                            t.push(name.clone());
                            self.defines(&t, hops + 1)
                        })
                    }
                    _ => false,
                }
            })
    }

    /// The path written in `context` as absolute segments, or `None` for another crate's.
    fn absolute(&self, context: &[String], segments: &[String]) -> Option<Vec<String>> {
        let first = segments.first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" | "super" => context.to_vec(),
            _ => {
                let mut here = context.to_vec();
                here.push(first.clone());
                if !self.modules.contains_key(&here) {
                    return None;
                }
                let mut out = context.to_vec();
                out.extend(segments.iter().cloned());
                return Some(out);
            }
        };
        let mut rest = segments;
        loop {
            match rest.first().map(String::as_str) {
                Some("crate") if base.is_empty() => rest = &rest[1..],
                Some("self") => rest = &rest[1..],
                Some("super") => {
                    base.pop()?;
                    rest = &rest[1..];
                }
                _ => break,
            }
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// The dependencies between the crate's modules (the root left out): for each module, the
    /// modules it uses, each with the first place that shows it (`file:line: path`). The files
    /// in `splits` (relative to the crate) are parts split out of their parent: what they use
    /// of their ancestors is not counted.
    pub fn edges(&self, splits: &[&str]) -> BTreeMap<ModPath, BTreeMap<ModPath, String>> {
        let mut out: BTreeMap<ModPath, BTreeMap<ModPath, String>> = BTreeMap::new();
        for (module, (file, facts)) in &self.modules {
            if module.is_empty() {
                continue;
            }
            let split = splits.iter().any(|s| Path::new(s) == file);
            for p in &facts.paths {
                let Some(target) = self.absolute(&p.context, &p.segments) else {
                    continue;
                };
                // A re-export counts only when the module uses the name itself.
                if let Some(Import { name, public: true }) = &p.import {
                    let used = match name {
                        Some(n) => facts.words.contains(n),
                        None => self.modules.get(&target).is_some_and(|(_, f)| {
                            f.items.iter().any(|item| facts.words.contains(item))
                        }),
                    };
                    if !used {
                        continue;
                    }
                }
                let Some(owner) = self.owner(&target, 0) else {
                    continue;
                };
                if owner.is_empty() || owner == *module || (split && module.starts_with(&owner)) {
                    continue;
                }
                out.entry(module.clone())
                    .or_default()
                    .entry(owner)
                    .or_insert_with(|| {
                        format!("{}:{}: {}", file.display(), p.line, p.segments.join("::"))
                    });
            }
        }
        out
    }

    /// Every ring of modules (a strongly connected set of two or more), each described: its
    /// files, then every dependency inside it with the place that shows it. `splits` as for
    /// [`Crate::edges`].
    pub fn rings(&self, splits: &[&str]) -> Vec<String> {
        let edges = self.edges(splits);
        let nodes: Vec<&ModPath> = self.modules.keys().filter(|m| !m.is_empty()).collect();
        let reach = |from: &ModPath| -> BTreeSet<ModPath> {
            let mut seen = BTreeSet::new();
            let mut todo = vec![from.clone()];
            while let Some(m) = todo.pop() {
                for next in edges.get(&m).into_iter().flat_map(|e| e.keys()) {
                    if seen.insert(next.clone()) {
                        todo.push(next.clone());
                    }
                }
            }
            seen
        };
        let reaches: BTreeMap<&ModPath, BTreeSet<ModPath>> =
            nodes.iter().map(|m| (*m, reach(m))).collect();
        let mut done = BTreeSet::new();
        let mut out = Vec::new();
        for m in &nodes {
            if done.contains(*m) {
                continue;
            }
            let ring: BTreeSet<ModPath> = nodes
                .iter()
                .filter(|o| reaches[*m].contains(**o) && reaches[**o].contains(*m))
                .map(|o| (*o).clone())
                .collect();
            if ring.len() < 2 {
                continue;
            }
            let file = |m: &ModPath| self.modules[m].0.display().to_string();
            let mut text = format!(
                "ring of {}:",
                ring.iter().map(file).collect::<Vec<_>>().join(", ")
            );
            for from in &ring {
                for (to, place) in edges.get(from).into_iter().flatten() {
                    if ring.contains(to) {
                        text.push_str(&format!("\n    {} -> {} ({place})", file(from), file(to)));
                    }
                }
            }
            done.extend(ring);
            out.push(text);
        }
        out
    }
}
