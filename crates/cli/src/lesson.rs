//! `agent-loop lesson`: the built-in course listed by chapter, a lesson
//! checked part by part (and, solved, its explanation filled from the run),
//! lessons verified (`harness::lesson::verify`: each start fails its goal,
//! each solution meets it, no miss does, walks match their pauses), a
//! lesson written out as a self-contained file, and the schema.
//!
//! Lessons run on a paused tokio clock (`start_paused`): time jumps to the
//! next timer whenever nothing else can run, so a call that hangs for an
//! hour, a 1.5 s deadline and Stop pressed after a second are all checked
//! at once and the same on every machine.

use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;

use harness::lesson::course::{self, Course, BUILTIN_COURSE, BUILTIN_LESSONS};
use harness::lesson::verify::{verify, Strictness};
use harness::lesson::{terms, Checked, Lesson, LESSON_SCHEMA};
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
    println!(
        "{} ({} lessons in {} chapters)",
        course.title,
        course.lessons.len(),
        course.chapters.len()
    );
    for (c, chapter) in course.chapters.iter().enumerate() {
        println!("\n{}. {}", c + 1, chapter.title);
        for i in chapter.lessons.clone() {
            let entry = &course.lessons[i];
            let lesson = &entry.lesson;
            let teaches = match lesson.teaches.as_str() {
                "" => String::new(),
                teaches => format!("{teaches}; "),
            };
            println!(
                "{:>5}. {:<32} {} ({teaches}by {})",
                i + 1,
                entry.name.as_deref().unwrap_or(""),
                terms::plain(&lesson.title),
                lesson.by.as_str()
            );
        }
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
    if let Some(predict) = &lesson.predict {
        match &checked.work.prediction {
            Some(prediction) => {
                let actual = predict.actual(&checked.played.events, outcome);
                println!("  you predicted {prediction}; the run: {actual}");
            }
            // On the command line the file is where a prediction is made.
            None => println!(
                "  the question: {} ({}); write \"prediction\": \"<your choice>\" in the file",
                terms::plain(&predict.question),
                predict.choices.join(" / ")
            ),
        }
    }
    for part in &checked.parts {
        println!("  {} {}", if part.holds { "✓" } else { "✗" }, part.sentence);
    }
    if checked.holds() {
        println!("the goal holds");
        let edited = if solution {
            lesson
                .setup(&lesson.solution)
                .map(|setup| setup.edited)
                .unwrap_or_else(|_| lesson.start.clone())
        } else {
            lesson.start.clone()
        };
        println!(
            "why: {}",
            terms::plain(&lesson.explain_for(&checked, &edited))
        );
        ExitCode::SUCCESS
    } else {
        let missed = checked.parts.iter().filter(|p| !p.holds).count();
        println!(
            "the goal does not hold ({missed} of {} part{} not met)",
            checked.parts.len(),
            if checked.parts.len() == 1 { "" } else { "s" }
        );
        if !lesson.hints.is_empty() {
            println!("hint: {}", terms::plain(&lesson.hints[0]));
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
    /// A built-in lesson must also have misses and a takeaway.
    strictness: Strictness,
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
        let (text, strictness) = match read(source) {
            Ok(Source::File(text)) => (text, Strictness::Format),
            Ok(Source::Builtin(text)) => (text.to_string(), Strictness::BuiltIn),
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
                Ok(course) => all.extend(named(course, Some(source), Strictness::Format)),
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
                    strictness,
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
        Ok(course) => (
            BUILTIN_COURSE.to_string(),
            named(course, None, Strictness::BuiltIn),
            false,
        ),
        Err(problems) => {
            crate::report_problems("the built-in course", &problems);
            let lessons = BUILTIN_LESSONS
                .iter()
                .filter_map(|id| {
                    course::builtin(id).ok().map(|lesson| Named {
                        name: id.to_string(),
                        lesson,
                        strictness: Strictness::BuiltIn,
                    })
                })
                .collect();
            (BUILTIN_COURSE.to_string(), lessons, true)
        }
    }
}

fn named(course: Course, file: Option<&str>, strictness: Strictness) -> Vec<Named> {
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
            strictness,
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
    for Named {
        name,
        lesson,
        strictness,
    } in &lessons
    {
        let wrong = tokio.block_on(async {
            // Made inside the runtime, so it reads the paused clock.
            let runtime: Rc<dyn Runtime> = Rc::new(TokioRuntime::default());
            verify(lesson, *strictness, runtime).await
        });
        if wrong.is_empty() {
            println!("ok    {name}");
        } else {
            false_lessons += 1;
            println!("FAIL  {name}: {}", wrong.join("; "));
        }
    }
    let total = lessons.len();
    let noun = if total == 1 { "lesson" } else { "lessons" };
    if false_lessons == 0 && course_failed {
        println!("{total} {noun} true, but the course has problems (above)");
        ExitCode::from(3)
    } else if false_lessons == 0 {
        println!("{total} {noun}: every start misses its goal, every solution meets it, and no miss does");
        ExitCode::SUCCESS
    } else {
        println!("{total} {noun}: {false_lessons} not true");
        ExitCode::from(3)
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
