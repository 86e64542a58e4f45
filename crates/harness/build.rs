//! Generates the built-in course's file list: every chapter file
//! (`lessons/chapters/*.json`, in file-name order) and every lesson file
//! (`lessons/*.json`), each compiled in with `include_str!`, and the
//! lessons' order as the chapters name them. Adding a lesson is adding its
//! file and naming it in a chapter; nothing here lists them by hand.
//!
//! A chapter that is not JSON yet (someone is mid-edit) gives no lessons to
//! the order and a warning here; the course's loader then names the
//! chapter's problem, so the build never breaks over a lesson's text.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
}

fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The lesson ids a chapter file names, as far as it can be read.
fn named_lessons(path: &Path) -> Vec<String> {
    let text = fs::read_to_string(path).unwrap_or_default();
    match serde_json::from_str::<serde_json::Value>(&text) {
        Ok(value) => value
            .get("lessons")
            .and_then(|l| l.as_array())
            .map(|items| {
                items
                    .iter()
                    .filter_map(|i| i.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        Err(e) => {
            println!(
                "cargo:warning=chapter {} is not JSON yet ({e}); its lessons are left out until it is",
                path.display()
            );
            Vec::new()
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let lessons_dir = root.join("lessons");
    let chapters_dir = lessons_dir.join("chapters");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", lessons_dir.display());
    println!("cargo:rerun-if-changed={}", chapters_dir.display());

    let lessons = json_files(&lessons_dir);
    let chapters = json_files(&chapters_dir);
    let lesson_ids: Vec<String> = lessons.iter().map(|p| stem(p)).collect();

    let mut out = String::new();
    out.push_str("/// The chapter files, by name without `.json`, in file-name order.\n");
    out.push_str("pub const CHAPTER_FILES: &[(&str, &str)] = &[\n");
    for path in &chapters {
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            out,
            "    ({:?}, include_str!({:?})),",
            stem(path),
            path.display().to_string()
        );
    }
    out.push_str("];\n\n");

    out.push_str("/// Every lesson file's id (its name without `.json`), in file-name order.\n");
    out.push_str("pub const LESSON_FILES: &[&str] = &[\n");
    for id in &lesson_ids {
        let _ = writeln!(out, "    {id:?},");
    }
    out.push_str("];\n\n");

    // The chapters' order, each lesson once, only those with a file: the
    // loader names the rest (missing, unnamed, named twice).
    let mut order: Vec<String> = Vec::new();
    for path in &chapters {
        for id in named_lessons(path) {
            if lesson_ids.contains(&id) && !order.contains(&id) {
                order.push(id);
            }
        }
    }
    out.push_str("/// The built-in lessons' names, in the course's order (the chapters').\n");
    out.push_str("pub const BUILTIN_LESSONS: &[&str] = &[\n");
    for id in &order {
        let _ = writeln!(out, "    {id:?},");
    }
    out.push_str("];\n\n");

    out.push_str("/// The text of built-in lesson `id`'s file (any lesson file, named in a chapter or not).\n");
    out.push_str("pub fn builtin_text(id: &str) -> Option<&'static str> {\n    match id {\n");
    for (id, path) in lesson_ids.iter().zip(&lessons) {
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            out,
            "        {id:?} => Some(include_str!({:?})),",
            path.display().to_string()
        );
    }
    out.push_str("        _ => None,\n    }\n}\n");

    let dest =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets it")).join("builtin_course.rs");
    fs::write(&dest, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", dest.display()));
}
