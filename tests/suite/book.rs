//! The book's code comes from `examples/` through `{{#include path:anchor}}`: every include
//! must name an existing file and an anchor that file defines, so the book never shows code
//! that `cargo test` does not compile.

use std::fs;
use std::path::{Path, PathBuf};

fn book_pages() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let mut pages: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("book/src exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages
}

/// `(path, anchor)` of every `{{#include path:anchor}}` (anchor optional) in `text`.
fn includes(text: &str) -> Vec<(String, Option<String>)> {
    text.match_indices("{{#include ")
        .map(|(start, _)| {
            let rest = &text[start + "{{#include ".len()..];
            let spec = &rest[..rest.find("}}").expect("include is closed")];
            match spec.split_once(':') {
                Some((path, anchor)) => (path.trim().to_owned(), Some(anchor.trim().to_owned())),
                None => (spec.trim().to_owned(), None),
            }
        })
        .collect()
}

#[test]
fn every_include_resolves_to_an_anchor() {
    let mut checked = 0;
    for page in book_pages() {
        let text = fs::read_to_string(&page).expect("page is readable");
        for (path, anchor) in includes(&text) {
            let target = page.parent().expect("page has a folder").join(&path);
            let source = fs::read_to_string(&target)
                .unwrap_or_else(|e| panic!("{}: include {path}: {e}", page.display()));
            if let Some(anchor) = anchor {
                assert!(
                    source.contains(&format!("ANCHOR: {anchor}\n"))
                        && source.contains(&format!("ANCHOR_END: {anchor}\n")),
                    "{}: {path} has no anchor {anchor}",
                    page.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "the book includes no code");
}

#[test]
fn every_page_is_in_the_summary() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("book/src");
    let summary = fs::read_to_string(dir.join("SUMMARY.md")).expect("SUMMARY.md exists");
    for page in book_pages() {
        let name = page
            .file_name()
            .and_then(|n| n.to_str())
            .expect("utf-8 name");
        if name != "SUMMARY.md" {
            assert!(
                summary.contains(&format!("({name})")),
                "{name} is not in SUMMARY.md"
            );
        }
    }
}
