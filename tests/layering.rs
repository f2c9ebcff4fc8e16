//! The layering ARCHITECTURE.md promises, read from the code's own paths: no module (file)
//! reaches, through the paths it names, back to itself, and every arrow between the top-level
//! modules is one the table in ARCHITECTURE.md ("Layers") allows.
//!
//! A path is `crate::a::b::Item`, `super::x`, `self::x` (with `{...}` groups expanded), in a
//! file's code outside its tests; it points at the deepest module file it names. A module
//! naming its own descendants (declaring and re-exporting them) is its composition, not an
//! arrow, so it is left out; a child naming its parent is an arrow.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// Every module file under `src/` outside tests, by module path (`src/a/b.rs` and
/// `src/a/b/mod.rs` are `a::b`; `src/lib.rs` is the root).
fn module_files() -> BTreeMap<Module, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut out = BTreeMap::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let mut parts: Vec<String> = rel
            .iter()
            .map(|s| s.to_string_lossy().into_owned())
            .collect();
        let last = parts.pop().unwrap();
        let stem = last.trim_end_matches(".rs");
        if stem == "main" || stem == "tests" || stem.ends_with("_tests") {
            continue; // the binary, and files that hold only tests
        }
        if stem != "mod" && stem != "lib" {
            parts.push(stem.to_string());
        }
        out.insert(parts, f);
    }
    out
}

/// The code of a file before its tests, without comments.
fn code_of(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap();
    code.lines()
        .map(|l| {
            let t = l.trim_start();
            if t.starts_with("//") {
                ""
            } else if let Some(i) = l.find(" //") {
                &l[..i]
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The paths of a use tree starting at `s` (after a `crate::`, `super::` or `self::`):
/// `a::b::{c, d::{e}}` gives `a::b::c` and `a::b::d::e`, each as its segments.
fn use_tree(s: &str) -> Vec<Vec<String>> {
    let s = s.trim_start();
    if let Some(rest) = s.strip_prefix('{') {
        // the group up to its matching brace, split at top-level commas
        let mut depth = 0;
        let mut end = rest.len();
        for (i, c) in rest.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    end = i;
                    break;
                }
                '}' => depth -= 1,
                _ => {}
            }
        }
        let group = &rest[..end];
        let mut items = Vec::new();
        let (mut depth, mut from) = (0, 0);
        for (i, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    items.push(&group[from..i]);
                    from = i + 1;
                }
                _ => {}
            }
        }
        items.push(&group[from..]);
        return items
            .into_iter()
            .filter(|i| !i.trim().is_empty())
            .flat_map(use_tree)
            .collect();
    }
    let word: String = s.chars().take_while(|c| is_ident(*c)).collect();
    if word.is_empty() {
        return vec![Vec::new()];
    }
    let rest = &s[word.len()..];
    if let Some(after) = rest.strip_prefix("::") {
        use_tree(after)
            .into_iter()
            .map(|mut p| {
                p.insert(0, word.clone());
                p
            })
            .collect()
    } else {
        vec![vec![word]]
    }
}

/// The modules `module`'s code names.
fn named_modules(module: &Module, code: &str, known: &BTreeSet<Module>) -> BTreeSet<Module> {
    let mut out = BTreeSet::new();
    for (anchor, base) in [
        ("crate::", Vec::new()),
        ("super::", module[..module.len().saturating_sub(1)].to_vec()),
        ("self::", module.clone()),
    ] {
        let mut at = 0;
        while let Some(i) = code[at..].find(anchor) {
            let start = at + i;
            at = start + anchor.len();
            let before = code[..start].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue; // `super::super::` is read from its first `super::`
            }
            let mut rest = &code[at..];
            let mut base = base.clone();
            while let Some(r) = rest.strip_prefix("super::") {
                base.pop();
                rest = r;
            }
            for tail in use_tree(rest) {
                let mut full = base.clone();
                full.extend(tail);
                // the deepest module the path names
                while !full.is_empty() && !known.contains(&full) {
                    full.pop();
                }
                out.insert(full);
            }
        }
    }
    out
}

/// The arrows between module files (a module to its own descendants left out).
fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let files = module_files();
    let known: BTreeSet<Module> = files.keys().cloned().collect();
    files
        .iter()
        .map(|(m, path)| {
            let to = named_modules(m, &code_of(path), &known)
                .into_iter()
                .filter(|t| !t.starts_with(m))
                .collect();
            (m.clone(), to)
        })
        .collect()
}

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// The strongly connected groups of more than one module (Tarjan).
fn circles(g: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<String>> {
    struct State<'a> {
        g: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        on: BTreeSet<&'a Module>,
        out: Vec<Vec<String>>,
    }
    fn strong<'a>(s: &mut State<'a>, v: &'a Module) {
        let i = s.index.len();
        s.index.insert(v, i);
        s.low.insert(v, i);
        s.stack.push(v);
        s.on.insert(v);
        for w in s.g.get(v).into_iter().flatten() {
            let Some((w, _)) = s.g.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                strong(s, w);
                let lw = s.low[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if s.on.contains(w) {
                let iw = s.index[w];
                let lv = s.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if s.low[v] == s.index[v] {
            let mut group = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on.remove(w);
                group.push(name(w));
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                s.out.push(group);
            }
        }
    }
    let mut s = State {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in g.keys() {
        if !s.index.contains_key(v) {
            strong(&mut s, v);
        }
    }
    s.out
}

#[test]
fn no_module_reaches_itself_through_others() {
    let found = circles(&graph());
    assert!(
        found.is_empty(),
        "modules in a circle (each group reaches every other member):\n{}",
        found
            .iter()
            .map(|c| format!("  {}", c.join(", ")))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// The table under "## Layers" in ARCHITECTURE.md: `| module | may import |`, the second
/// column a comma-separated list of top-level modules (or "nothing").
fn allowed_arrows() -> BTreeMap<String, BTreeSet<String>> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"))
            .unwrap();
    let section = text
        .split("\n## Layers")
        .nth(1)
        .expect("ARCHITECTURE.md has a section `## Layers`");
    let section = section.split("\n## ").next().unwrap();
    let mut out = BTreeMap::new();
    for line in section.lines().filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        if cells.len() < 2 || cells[0].starts_with("---") || cells[0] == "module" {
            continue;
        }
        let from = cells[0].trim_matches('`').to_string();
        let to: BTreeSet<String> = cells[1]
            .split(',')
            .map(|s| s.trim().trim_matches('`').to_string())
            .filter(|s| !s.is_empty() && s != "nothing")
            .collect();
        out.insert(from, to);
    }
    assert!(!out.is_empty(), "the Layers table has rows");
    out
}

#[test]
fn every_arrow_between_top_level_modules_is_one_architecture_allows() {
    let allowed = allowed_arrows();
    let mut wrong = BTreeSet::new();
    let mut used = BTreeSet::new();
    for (from, tos) in graph() {
        let Some(a) = from.first() else { continue };
        let rule = allowed
            .get(a)
            .unwrap_or_else(|| panic!("ARCHITECTURE's Layers table has no row for `{a}`"));
        for to in tos {
            let Some(b) = to.first() else { continue };
            if a == b {
                continue;
            }
            used.insert((a.clone(), b.clone()));
            if !rule.contains(b) {
                wrong.insert(format!("{a} -> {b} ({} names {})", name(&from), name(&to)));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "arrows the Layers table does not allow:\n  {}",
        wrong.into_iter().collect::<Vec<_>>().join("\n  ")
    );
    // and the table lists no arrow the code does not have, so it stays a true picture
    let stale: Vec<String> = allowed
        .iter()
        .flat_map(|(a, tos)| tos.iter().map(move |b| (a.clone(), b.clone())))
        .filter(|p| !used.contains(p))
        .map(|(a, b)| format!("{a} -> {b}"))
        .collect();
    assert!(
        stale.is_empty(),
        "the Layers table allows arrows no code uses: {stale:?}"
    );
}

#[test]
fn the_path_reader_expands_groups_and_follows_super() {
    let known: BTreeSet<Module> = [
        vec!["a".to_string()],
        vec!["a".into(), "b".into()],
        vec!["a".into(), "c".into()],
        vec!["d".into()],
    ]
    .into_iter()
    .collect();
    let me = vec!["a".to_string(), "b".to_string()];
    let code =
        "use crate::{d::Thing, a::c::{X, y::Z}};\nfn f() { super::c::g(); super::super::d::h(); }";
    let got = named_modules(&me, code, &known);
    let want: BTreeSet<Module> = [vec!["d".to_string()], vec!["a".into(), "c".into()]]
        .into_iter()
        .collect();
    assert_eq!(got, want);
}

/// Prints the arrows between top-level modules the code has, with the files behind each
/// (`cargo test --test layering -- --ignored --nocapture`), to write or check the table.
#[test]
#[ignore]
fn print_the_arrows() {
    let mut arrows: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for (from, tos) in graph() {
        for to in tos {
            if let (Some(a), Some(b)) = (from.first(), to.first())
                && a != b
            {
                arrows
                    .entry((a.clone(), b.clone()))
                    .or_default()
                    .insert(format!("{} -> {}", name(&from), name(&to)));
            }
        }
    }
    for ((a, b), why) in arrows {
        println!(
            "{a} -> {b}: {}",
            why.into_iter().collect::<Vec<_>>().join(", ")
        );
    }
}
