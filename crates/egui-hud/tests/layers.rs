//! Guards of the crate's shape: a source file's folder says what it may import, imports only
//! point down, and no files import each other in a circle. Read from the sources' own
//! `crate::…` paths (comments left out), so a change that breaks the shape fails here, not in
//! review.
#![expect(clippy::expect_used, reason = "test helpers fail loudly")]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The allowed arrows, written once: each folder of `src/` (and `lib` for `lib.rs`) with the
/// folders it may import besides its own. Anything else runs upward or sideways.
const ALLOWED: &[(&str, &[&str])] = &[
    // The front door re-exports the public items of every stage but the owner.
    ("lib", &["api", "gpu", "phases", "repaint", "view"]),
    // Public functions that take a Context: they lock the plugin and call one method.
    ("api", &["plugin", "gpu", "phases", "repaint", "view"]),
    // The one owner of the HUD's state across frames.
    ("plugin", &["frame", "gpu", "phases", "repaint", "view"]),
    // What is drawn: plain values in, WHY from repaint.
    ("view", &["repaint"]),
    // One frame in progress: the request that woke it.
    ("frame", &["repaint"]),
    // egui-wgpu paint callbacks.
    ("gpu", &[]),
    // Named durations the app times.
    ("phases", &[]),
    // Requests for frames: the app's and the HUD's own.
    ("repaint", &[]),
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, as paths relative to `src/`.
fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path.strip_prefix(src()).expect("under src").to_path_buf());
        }
    }
}

/// The folder a file belongs to: its first path segment, or `lib` for the files at the root.
fn folder_of(file: &Path) -> String {
    let mut parts = file.components();
    match (parts.next(), parts.next()) {
        (Some(first), Some(_)) => first.as_os_str().to_string_lossy().into_owned(),
        _ => "lib".to_owned(),
    }
}

/// The code of a file without its comments (doc links name items by path too, but are not
/// imports).
fn code_of(text: &str) -> String {
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The files `code` imports, as paths relative to `src/`: `crate::a::b::…` names `a/b.rs`,
/// else `a/mod.rs` (an item of the folder's face), else `a.rs` (a module at the root);
/// `crate::Item` names `lib.rs`.
fn imports_of(code: &str, files: &BTreeSet<PathBuf>) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let before = rest[..at].chars().next_back();
        rest = &rest[at + "crate::".len()..];
        // `$crate::`, `profiler_core::`-style names ending in "crate" are not this crate.
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        let segments: Vec<&str> = rest
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .next()
            .unwrap_or("")
            .split("::")
            .collect();
        let first = segments.first().copied().unwrap_or("");
        let candidates = [
            segments
                .get(1)
                .map(|file| PathBuf::from(first).join(format!("{file}.rs"))),
            Some(PathBuf::from(first).join("mod.rs")),
            Some(PathBuf::from(format!("{first}.rs"))),
        ];
        let module_file = candidates
            .into_iter()
            .flatten()
            .find(|candidate| files.contains(candidate))
            .unwrap_or_else(|| PathBuf::from("lib.rs"));
        found.push(module_file);
    }
    found
}

/// The crate's import graph: each file and the other files it imports.
fn import_graph() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    let known: BTreeSet<PathBuf> = files.iter().cloned().collect();
    files
        .iter()
        .map(|file| {
            let text = std::fs::read_to_string(src().join(file)).expect("a source file");
            let imports = imports_of(&code_of(&text), &known)
                .into_iter()
                .filter(|target| target != file)
                .collect();
            (file.clone(), imports)
        })
        .collect()
}

/// The largest set of files that import each other in a circle (Tarjan's strongly connected
/// components); one file when there is no circle.
fn largest_circle(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<PathBuf> {
    struct Walk<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a Path, usize>,
        low: BTreeMap<&'a Path, usize>,
        stack: Vec<&'a Path>,
        on_stack: BTreeSet<&'a Path>,
        largest: Vec<PathBuf>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, file: &'a Path) {
            let next = self.index.len();
            self.index.insert(file, next);
            self.low.insert(file, next);
            self.stack.push(file);
            self.on_stack.insert(file);
            for target in self.graph.get(file).into_iter().flatten() {
                let target = target.as_path();
                if !self.index.contains_key(target) {
                    self.visit(target);
                    let low = self.low[file].min(self.low[target]);
                    self.low.insert(file, low);
                } else if self.on_stack.contains(target) {
                    let low = self.low[file].min(self.index[target]);
                    self.low.insert(file, low);
                }
            }
            if self.low[file] == self.index[file] {
                let mut component = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack.remove(member);
                    component.push(member.to_path_buf());
                    if member == file {
                        break;
                    }
                }
                if component.len() > self.largest.len() {
                    self.largest = component;
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        largest: Vec::new(),
    };
    for file in graph.keys() {
        if !walk.index.contains_key(file.as_path()) {
            walk.visit(file);
        }
    }
    walk.largest
}

#[test]
fn imports_only_point_down_and_never_in_a_circle() {
    let graph = import_graph();
    let allowed: BTreeMap<&str, &[&str]> = ALLOWED.iter().copied().collect();
    let mut upward = Vec::new();
    let mut imports = 0;
    for (file, targets) in &graph {
        let from = folder_of(file);
        let may = allowed
            .get(from.as_str())
            .unwrap_or_else(|| panic!("{} is in a folder the table does not name", file.display()));
        for target in targets {
            imports += 1;
            let to = folder_of(target);
            if to != from && !may.contains(&to.as_str()) || (to == "lib" && from != "lib") {
                upward.push(format!("{} -> {}", file.display(), target.display()));
            }
        }
    }
    let circle = largest_circle(&graph);
    // The counts the layout is judged by: printed for the record (`--nocapture`).
    println!(
        "{} files, {imports} imports between them, {} upward, largest circle {} file(s)",
        graph.len(),
        upward.len(),
        circle.len()
    );
    assert!(
        upward.is_empty(),
        "imports against the allowed arrows (see ALLOWED in tests/layers.rs): {upward:#?}"
    );
    assert_eq!(
        circle.len(),
        1,
        "files that import each other in a circle: {circle:?}"
    );
}

#[test]
fn the_reader_finds_cycles_and_upward_imports() {
    // The guard's own reader on a made-up crate: `plugin/a.rs` and `view/b.rs` import each
    // other (a circle, and view -> plugin runs upward); `lib.rs` is imported through the root.
    let files: BTreeSet<PathBuf> = ["plugin/a.rs", "view/b.rs", "lib.rs"]
        .into_iter()
        .map(PathBuf::from)
        .collect();
    let b_imports = imports_of(
        &code_of(
            "use crate::plugin::a::A;\nlet x = crate::Thing; // crate::view::b is a comment\n",
        ),
        &files,
    );
    assert_eq!(
        b_imports,
        [PathBuf::from("plugin/a.rs"), PathBuf::from("lib.rs")]
    );
    assert!(
        imports_of(&code_of("/// [`crate::plugin::a::A`]\n"), &files).is_empty(),
        "doc links are not imports"
    );
    let graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = [
        ("plugin/a.rs", "view/b.rs"),
        ("view/b.rs", "plugin/a.rs"),
        ("lib.rs", "plugin/a.rs"),
    ]
    .into_iter()
    .map(|(from, to)| (PathBuf::from(from), BTreeSet::from([PathBuf::from(to)])))
    .collect();
    assert_eq!(largest_circle(&graph).len(), 2);
}

/// The source files (relative to `src/`) outside `skip_folders` whose code contains `needle`.
fn files_naming(needle: &str, skip_folders: &[&str]) -> Vec<String> {
    let mut files = Vec::new();
    sources(&src(), &mut files);
    files
        .iter()
        .filter(|file| !skip_folders.contains(&folder_of(file).as_str()))
        .filter(|file| {
            let text = std::fs::read_to_string(src().join(file)).expect("a source file");
            code_of(&text).contains(needle)
        })
        .map(|file| file.display().to_string())
        .collect()
}

#[test]
fn only_api_and_plugin_name_the_frame_plugin() {
    let offenders = files_naming("FramePlugin", &["api", "plugin"]);
    assert!(
        offenders.is_empty(),
        "files outside api/ and plugin/ that name FramePlugin (parts receive what they need \
         and do not reach back into the owner): {offenders:?}"
    );
}

#[test]
fn no_grouped_imports_through_the_crate_root() {
    let offenders = files_naming("use crate::{", &[]);
    assert!(
        offenders.is_empty(),
        "name imports by module path, one `use` per module: {offenders:?}"
    );
}
