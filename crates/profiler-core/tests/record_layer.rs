//! The frame record (`src/record/`) sits above the sampler and the readouts: it imports them,
//! they never import it. A file outside `record/` that names `crate::record` would make the
//! numbers depend on the exports.
#![expect(clippy::expect_used, reason = "test helpers fail loudly")]

use std::path::Path;

fn walk(dir: &Path, offenders: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("a readable source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "record") {
                walk(&path, offenders);
            }
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("a source file");
        let code: String = text
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect();
        // `lib.rs` declares the module; nothing else below the record may name it.
        let declares = path.file_name().is_some_and(|name| name == "lib.rs");
        if code.contains("crate::record") || (!declares && code.contains("mod record")) {
            offenders.push(path.display().to_string());
        }
    }
}

#[test]
fn nothing_below_the_record_imports_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    assert!(src.join("record").is_dir(), "the record has its folder");
    let mut offenders = Vec::new();
    walk(&src, &mut offenders);
    assert!(
        offenders.is_empty(),
        "files outside src/record/ that import it: {offenders:?}"
    );
}
