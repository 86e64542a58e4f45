//! `agent-loop lesson`: the built-in course listed, a lesson checked part by
//! part, lessons verified (each start fails its goal, each solution meets
//! it), a lesson written out as a self-contained file, and the schema.
//!
//! Lessons run on a paused tokio clock (`start_paused`): time jumps to the
//! next timer whenever nothing else can run, so a call that hangs for an
//! hour, a 1.5 s deadline and Stop pressed after a second are all checked
//! at once and the same on every machine.

use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

use harness::lesson::course::{self, Course, BUILTIN_COURSE, BUILTIN_LESSONS};
use harness::lesson::{Checked, Lesson, LESSON_SCHEMA};
use harness::runtime::{Runtime, TokioRuntime};
use harness::scenario::Problem;

use crate::args::{LessonArgs, LessonCommand};
use crate::source::{Builtins, Source, SourceError};

pub fn command(args: &LessonArgs) -> ExitCode {
    match &args.command {
        LessonCommand::List => list(),
        LessonCommand::Check(check) => check_command(&check.lesson, check.solution),
        LessonCommand::Verify(verify) => verify_command(&verify.lessons),
        LessonCommand::Show(show) => show_command(&show.lesson),
        LessonCommand::Schema => {
            println!("{LESSON_SCHEMA}");
            ExitCode::SUCCESS
        }
    }
}

fn list() -> ExitCode {
    let course = match course::builtin_course() {
        Ok(course) => course,
        Err(problems) => return report("the built-in course", &problems),
    };
    println!("{} ({} lessons)", course.title, course.lessons.len());
    for (i, entry) in course.lessons.iter().enumerate() {
        let lesson = &entry.lesson;
        println!(
            "{:>3}. {:<32} {} ({}; by {})",
            i + 1,
            entry.name.as_deref().unwrap_or(""),
            lesson.title,
            lesson.teaches,
            lesson.by.as_str()
        );
    }
    println!("\nagent-loop lesson show NAME writes one as a file to edit; agent-loop lesson check FILE checks it.");
    ExitCode::SUCCESS
}

fn report(source: &str, problems: &[Problem]) -> ExitCode {
    crate::report_problems(source, problems);
    ExitCode::from(2)
}

/// A lesson argument: a file, or a built-in lesson's name.
const LESSONS: Builtins = Builtins {
    kind: "lesson",
    listed_by: "agent-loop lesson list",
    names: || BUILTIN_LESSONS.to_vec(),
};

fn read(source: &str) -> Result<Source<'static>, SourceError> {
    crate::source::read(source, LESSONS, course::builtin_text)
}

fn load_lesson(source: &str) -> Result<Lesson, ExitCode> {
    let text = match read(source) {
        Ok(Source::File(text)) => text,
        Ok(Source::Builtin(text)) => text.to_string(),
        Err(message) => {
            eprintln!("agent-loop: {message}");
            return Err(ExitCode::from(2));
        }
    };
    if serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| course::is_course(&v)) {
        eprintln!("agent-loop: {source} is a course, not a lesson; `agent-loop lesson verify {source}` checks every lesson in it");
        return Err(ExitCode::from(2));
    }
    Lesson::load(&text).map_err(|problems| report(source, &problems))
}

/// The paused clock lessons run on.
fn paused_runtime() -> Result<tokio::runtime::Runtime, ExitCode> {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .start_paused(true)
        .build()
        .map_err(|err| {
            eprintln!("agent-loop: cannot start the async runtime: {err}");
            ExitCode::from(2)
        })
}

/// Checks the lesson as given, or its solution.
fn run_check(
    tokio: &tokio::runtime::Runtime,
    lesson: &Lesson,
    solution: bool,
) -> Result<Checked, Vec<Problem>> {
    tokio.block_on(async {
        // Made inside the runtime, so it reads the paused clock.
        let runtime: Rc<dyn Runtime> = Rc::new(TokioRuntime::default());
        if solution {
            lesson.check_solution(runtime).await
        } else {
            lesson.check(runtime).await
        }
    })
}

fn check_command(source: &str, solution: bool) -> ExitCode {
    let lesson = match load_lesson(source) {
        Ok(lesson) => lesson,
        Err(code) => return code,
    };
    if !solution && Path::new(source).exists() {
        warn_about_edits(source, &lesson);
    }
    let tokio = match paused_runtime() {
        Ok(tokio) => tokio,
        Err(code) => return code,
    };
    let checked = match run_check(&tokio, &lesson, solution) {
        Ok(checked) => checked,
        Err(problems) => return report(source, &problems),
    };
    println!(
        "{}{}",
        lesson.title,
        if solution {
            " (its solution applied)"
        } else {
            ""
        }
    );
    let outcome = &checked.played.outcome;
    println!("  the run ended {}: {}", outcome.status, outcome.reason);
    for part in &checked.parts {
        println!("  {} {}", if part.holds { "✓" } else { "✗" }, part.sentence);
    }
    if checked.holds() {
        println!("the goal holds");
        ExitCode::SUCCESS
    } else {
        let missed = checked.parts.iter().filter(|p| !p.holds).count();
        println!(
            "the goal does not hold ({missed} of {} part{} not met)",
            checked.parts.len(),
            if checked.parts.len() == 1 { "" } else { "s" }
        );
        if !lesson.hints.is_empty() {
            println!("hint: {}", lesson.hints[0]);
        }
        ExitCode::from(3)
    }
}

/// A student's file of a built-in lesson (same title) whose scenario was
/// changed outside the lesson's editable paths: said, not refused, since a
/// teacher's own variant is a file like any other.
fn warn_about_edits(source: &str, lesson: &Lesson) {
    let original = BUILTIN_LESSONS
        .iter()
        .filter_map(|id| course::builtin(id).ok())
        .find(|builtin| builtin.title == lesson.title);
    if let Some(original) = original {
        let outside = original.edit_problems(&lesson.start);
        if !outside.is_empty() {
            let paths: Vec<&str> = outside.iter().map(|p| p.path.as_str()).collect();
            eprintln!(
                "agent-loop: {source}: the lesson lets you change only {}; this file also changes {}",
                original.editable.join(", "),
                paths.join(", ")
            );
        }
    }
}

/// One lesson to verify, named as the report names it.
struct Named {
    name: String,
    lesson: Lesson,
}

/// The lessons to verify, the course's title (none for files), and whether
/// the course itself had problems.
fn gather(sources: &[String]) -> Result<(String, Vec<Named>, bool), ExitCode> {
    if sources.is_empty() {
        return Ok(builtin_lessons());
    }
    let mut all = Vec::new();
    let mut failed = false;
    for source in sources {
        let text = match read(source) {
            Ok(Source::File(text)) => text,
            Ok(Source::Builtin(text)) => text.to_string(),
            Err(message) => {
                eprintln!("agent-loop: {message}");
                failed = true;
                continue;
            }
        };
        let is_course =
            serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| course::is_course(&v));
        if is_course {
            match Course::load(&text) {
                Ok(course) => all.extend(named(course, Some(source))),
                Err(problems) => {
                    report(source, &problems);
                    failed = true;
                }
            }
        } else {
            match Lesson::load(&text) {
                Ok(lesson) => all.push(Named {
                    name: source.clone(),
                    lesson,
                }),
                Err(problems) => {
                    report(source, &problems);
                    failed = true;
                }
            }
        }
    }
    if failed {
        return Err(ExitCode::from(2));
    }
    Ok((String::new(), all, false))
}

/// The built-in course's lessons. When the course as a whole has problems
/// (a lesson named in no chapter, an undefined term) they are reported, and
/// each lesson that loads on its own is still verified, so a course being
/// written can be checked lesson by lesson; the exit code says it failed.
fn builtin_lessons() -> (String, Vec<Named>, bool) {
    match course::builtin_course() {
        Ok(course) => (BUILTIN_COURSE.to_string(), named(course, None), false),
        Err(problems) => {
            crate::report_problems("the built-in course", &problems);
            let lessons = BUILTIN_LESSONS
                .iter()
                .filter_map(|id| {
                    course::builtin(id).ok().map(|lesson| Named {
                        name: id.to_string(),
                        lesson,
                    })
                })
                .collect();
            (BUILTIN_COURSE.to_string(), lessons, true)
        }
    }
}

fn named(course: Course, file: Option<&str>) -> Vec<Named> {
    course
        .lessons
        .into_iter()
        .enumerate()
        .map(|(i, entry)| Named {
            name: match (file, entry.name) {
                (None, Some(name)) => name,
                (Some(file), Some(name)) => format!("{file}: {name}"),
                (Some(file), None) => format!("{file}: lessons[{i}] ({})", entry.lesson.title),
                (None, None) => entry.lesson.title.clone(),
            },
            lesson: entry.lesson,
        })
        .collect()
}

fn verify_command(sources: &[String]) -> ExitCode {
    let (title, lessons, course_failed) = match gather(sources) {
        Ok(found) => found,
        Err(code) => return code,
    };
    let tokio = match paused_runtime() {
        Ok(tokio) => tokio,
        Err(code) => return code,
    };
    if !title.is_empty() {
        println!("{title}");
    }
    let mut false_lessons = 0;
    for Named { name, lesson } in &lessons {
        match verify_one(&tokio, lesson) {
            None => println!("ok    {name}"),
            Some(why) => {
                false_lessons += 1;
                println!("FAIL  {name}: {why}");
            }
        }
    }
    let total = lessons.len();
    let noun = if total == 1 { "lesson" } else { "lessons" };
    if false_lessons == 0 && course_failed {
        println!("{total} {noun} true, but the course has problems (above)");
        ExitCode::from(3)
    } else if false_lessons == 0 {
        println!("{total} {noun}: every start misses its goal and every solution meets it");
        ExitCode::SUCCESS
    } else {
        println!("{total} {noun}: {false_lessons} not true");
        ExitCode::from(3)
    }
}

/// Why the lesson is not true, or `None` when it is.
fn verify_one(tokio: &tokio::runtime::Runtime, lesson: &Lesson) -> Option<String> {
    let problems = |p: Vec<Problem>| {
        p.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("; ")
    };
    match run_check(tokio, lesson, false) {
        Err(p) => return Some(format!("its start cannot run: {}", problems(p))),
        Ok(start) if start.holds() => {
            return Some(format!(
                "its start already meets its goal (the run ended {}), so there is nothing to do",
                start.played.outcome.status
            ))
        }
        Ok(_) => {}
    }
    match run_check(tokio, lesson, true) {
        Err(p) => Some(format!("its solution cannot run: {}", problems(p))),
        Ok(solved) if !solved.holds() => {
            let missed: Vec<&str> = solved
                .parts
                .iter()
                .filter(|p| !p.holds)
                .map(|p| p.sentence.as_str())
                .collect();
            Some(format!(
                "its solution does not meet its goal: {}",
                missed.join("; ")
            ))
        }
        Ok(_) => None,
    }
}

fn show_command(source: &str) -> ExitCode {
    let lesson = match load_lesson(source) {
        Ok(lesson) => lesson,
        Err(code) => return code,
    };
    match serde_json::to_string_pretty(&lesson.to_value()) {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("agent-loop: cannot write {source}: {err}");
            ExitCode::from(2)
        }
    }
}
