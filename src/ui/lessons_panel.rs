//! The Lessons mode: the course in order with what this browser has solved,
//! and the open lesson beside the loop: its intro, its goal in words, Check,
//! hints one at a time, the solution after two failed checks, and once solved
//! its explanation and the next lesson.
//!
//! The lesson's judgement is the harness's (`harness::lesson`), the same the
//! command line's `agent-loop lesson check` gives:
//! - a lesson solved by editing: Check runs the scenario as edited, on the
//!   page like Run (so the run is on the loop), and judges the run with
//!   `goal::evaluate`;
//! - a lesson solved in the run (answering as the model or the tool,
//!   deciding approvals, pressing Stop): the learner runs it with Run or Step
//!   and the answer panel or approval bar, and Check judges the run in view.
//!
//! Only the lesson's `editable` paths may change: the form's other fields
//! and the JSON box are read-only (`Editor::set_lock`), each editable path
//! gets a JSON box of its own (`ui::lesson_parts`), and any other change to
//! the editor's text (an import, a link) is undone at once with a message
//! naming the path (`Lesson::edit_problems`, `patch::changed_outside`).
//!
//! A split module of its own (`lessons_panel`): fetched the first time the
//! mode opens, with the course's files, so the first paint carries neither.

use harness::event::RunEvent;
use harness::lesson::course::{self, Course, CourseLesson};
use harness::lesson::goal::{self, Goal, GoalPart};
use harness::lesson::{By, Lesson};
use harness::scenario::syntax::describe;
#[cfg(feature = "split")]
use leptos::prelude::lazy;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;

use crate::browser::{files, page};
use crate::lesson_words::{self, Linked};
use crate::provenance::Source;
use crate::state::controller::Controller;
use crate::state::editor::Editor;
use crate::state::lessons::Lessons;
use crate::view_model;

/// The `localStorage` key of the solved lessons' keys (a JSON list).
const SOLVED_KEY: &str = "agent-loop-playground.lessons-solved";

/// Failed checks before the solution is offered.
const FAILS_BEFORE_SOLUTION: u32 = 2;

/// The Lessons panel (see the module's doc).
#[cfg_attr(feature = "split", lazy)]
pub async fn lessons_panel(lessons: Lessons, editor: Editor, controller: Controller) -> AnyView {
    view! { <LessonsPanel lessons editor controller /> }.into_any()
}

/// The open lesson, with its place in the course.
#[derive(Clone, Debug, PartialEq)]
struct Open {
    key: String,
    /// Its index in the course; `None` for a lesson opened on its own.
    index: Option<usize>,
    lesson: Lesson,
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

fn load_solved() -> Vec<String> {
    lesson_words::solved_from(
        storage()
            .and_then(|s| s.get_item(SOLVED_KEY).ok().flatten())
            .as_deref(),
    )
}

fn save_solved(solved: &[String]) {
    if let (Some(storage), Ok(text)) = (storage(), serde_json::to_string(solved)) {
        let _ = storage.set_item(SOLVED_KEY, &text);
    }
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_default()
}

/// The course the panel lists: the built-in one until a course link or file
/// brings another.
fn builtin() -> Result<Course, String> {
    course::builtin_course().map_err(|problems| {
        format!(
            "The built-in course did not load: {}",
            view_model::problem_lines(&problems).join("; ")
        )
    })
}

/// What the learner must do besides editing, in words.
fn how_to_solve(lesson: &Lesson) -> String {
    match lesson.by {
        By::Editing => match lesson.editable.as_slice() {
            [] => "Nothing in the scenario may change.".to_string(),
            paths => format!(
                "You may change only: {}. Then press Check.",
                paths.join(", ")
            ),
        },
        By::AnswerAsModel => "Press Step: the run pauses before the model call, and you write the model's turn in “Answer as the model” under the trace. When the run has ended, press Check.".to_string(),
        By::AnswerAsTool => "Press Step, then Step again until the run pauses before the tool call, and type its result in “Answer as the tool” under the trace. When the run has ended, press Check.".to_string(),
        By::Deciding => "Press Run and decide in the approval bar when the agent asks. When the run has ended, press Check.".to_string(),
        By::PressingStop => "Press Run, then Stop while it runs. When the run has ended, press Check.".to_string(),
    }
}

/// The goal judged on the run in view: `None` while it has not ended.
fn judge(lesson: &Lesson, controller: Controller) -> Option<Vec<GoalPart>> {
    let events: Vec<RunEvent> = controller.events().get_untracked();
    let outcome = view_model::outcome_of(&events)?.clone();
    let shape = controller.wire_setup().get_untracked();
    Some(goal::evaluate(
        &lesson.goal,
        Some(&shape),
        &events,
        &outcome,
    ))
}

#[component]
fn LessonsPanel(lessons: Lessons, editor: Editor, controller: Controller) -> impl IntoView {
    let course = RwSignal::new(builtin());
    let solved = RwSignal::new(load_solved());
    let open: RwSignal<Option<Open>> = RwSignal::new(None);
    // What the panel has to say where the learner looks: a link that did
    // not open, an edit that was refused, a run that could not start.
    let note: RwSignal<Option<String>> = RwSignal::new(None);
    let verdict: RwSignal<Option<Vec<GoalPart>>> = RwSignal::new(None);
    let fails = RwSignal::new(0u32);
    let hints = RwSignal::new(0usize);
    let just_solved = RwSignal::new(false);
    let solution_note: RwSignal<Option<String>> = RwSignal::new(None);
    // The run Check started, awaited to its end.
    let awaiting: RwSignal<Option<u64>> = RwSignal::new(None);
    // The editor's last text the lesson allows, to go back to.
    let allowed = StoredValue::new(String::new());

    let start = move |key: String, index: Option<usize>, lesson: Lesson| {
        let text = pretty(&lesson.start);
        allowed.set_value(text.clone());
        controller.clear_for_another_scenario();
        editor.load(text, Source::File);
        editor.set_arrival(Some(format!("Opened the lesson “{}”.", lesson.title)));
        verdict.set(None);
        fails.set(0);
        hints.set(0);
        just_solved.set(false);
        solution_note.set(None);
        awaiting.set(None);
        note.set(None);
        open.set(Some(Open { key, index, lesson }));
        lessons.set_open(true);
    };
    let open_index = move |index: usize| {
        let Some(entry) =
            course.with_untracked(|c| c.as_ref().ok().and_then(|c| c.lessons.get(index).cloned()))
        else {
            return;
        };
        let CourseLesson { name, lesson } = entry;
        start(
            lesson_words::progress_key(name.as_deref(), &lesson.title),
            Some(index),
            lesson,
        );
    };
    let open_linked = move |linked: Result<Linked, String>| match linked {
        Ok(Linked::Lesson(name, lesson)) => {
            // A built-in opens at its place in the course.
            let index = name.as_ref().and_then(|name| {
                course.with_untracked(|c| {
                    c.as_ref().ok().and_then(|c| {
                        c.lessons
                            .iter()
                            .position(|l| l.name.as_deref() == Some(name.as_str()))
                    })
                })
            });
            start(
                lesson_words::progress_key(name.as_deref(), &lesson.title),
                index,
                *lesson,
            );
        }
        Ok(Linked::Course(loaded)) => {
            let title = loaded.title.clone();
            let count = loaded.lessons.len();
            course.set(Ok(loaded));
            open.set(None);
            note.set(Some(format!(
                "Opened the course “{title}”: {count} lessons."
            )));
        }
        Err(why) => note.set(Some(why)),
    };
    // A link that opened the page or was pasted into this tab.
    Effect::new(move |_| {
        if lessons.link().get().is_some() {
            if let Some(link) = lessons.take_link() {
                open_linked(lesson_words::open_link(&link));
            }
        }
    });

    // While a lesson is open in the open mode, the form's other fields and
    // the JSON box are read-only.
    Effect::new(move |_| {
        let editable = if lessons.open().get() {
            open.with(|o| o.as_ref().map(|o| o.lesson.editable.clone()))
        } else {
            None
        };
        editor.set_lock(editable);
    });

    // Only the editable paths may change: any other change (a file imported
    // or a link opened over the lesson) is undone.
    Effect::new(move |_| {
        let text = editor.text().get();
        if !lessons.open().get_untracked() {
            return;
        }
        let Some(lesson) = open.with_untracked(|o| o.as_ref().map(|o| o.lesson.clone())) else {
            return;
        };
        // Text that is not JSON yet is someone typing: judged when it is.
        let Ok(value) = serde_json::from_str::<Value>(&text) else {
            return;
        };
        let outside: Vec<String> = lesson
            .edit_problems(&value)
            .into_iter()
            .map(|p| p.path)
            .collect();
        if outside.is_empty() {
            allowed.set_value(text);
            return;
        }
        let may = match lesson.editable.as_slice() {
            [] => "this lesson lets you change nothing in the scenario".to_string(),
            paths => format!("this lesson lets you change only {}", paths.join(", ")),
        };
        note.set(Some(format!(
            "Your change to {} was undone: {may}. (Close Lessons to edit freely.)",
            outside.join(", ")
        )));
        editor.edit(allowed.get_value());
    });

    // A verdict: solved marks the lesson, a miss counts towards the solution.
    let record = move |parts: Vec<GoalPart>| {
        let holds = parts.iter().all(|p| p.holds);
        verdict.set(Some(parts));
        if holds {
            just_solved.set(true);
            if let Some(key) = open.with_untracked(|o| o.as_ref().map(|o| o.key.clone())) {
                solved.update(|s| {
                    if !s.contains(&key) {
                        s.push(key);
                    }
                });
                save_solved(&solved.get_untracked());
            }
        } else {
            fails.update(|f| *f += 1);
        }
    };

    // Check's run has ended: judge it.
    Effect::new(move |_| {
        let Some(id) = awaiting.get() else { return };
        let running = controller.running().get();
        let run = controller.run_id().get();
        if run != id {
            awaiting.set(None);
            return;
        }
        if running {
            return;
        }
        awaiting.set(None);
        let Some(lesson) = open.with_untracked(|o| o.as_ref().map(|o| o.lesson.clone())) else {
            return;
        };
        match judge(&lesson, controller) {
            Some(parts) => record(parts),
            None => {
                let problems = controller.problems().get_untracked();
                note.set(Some(format!(
                    "Check could not run the scenario: {}",
                    if problems.is_empty() {
                        "the run did not end".to_string()
                    } else {
                        problems.join("; ")
                    }
                )));
            }
        }
    });

    let check = move |_| {
        let Some(lesson) = open.with_untracked(|o| o.as_ref().map(|o| o.lesson.clone())) else {
            return;
        };
        note.set(None);
        verdict.set(None);
        if lesson.by == By::Editing {
            let text = editor.text().get_untracked();
            if let Err(error) = serde_json::from_str::<Value>(&text) {
                note.set(Some(format!(
                    "Check cannot run the scenario: its JSON is {}.",
                    describe(&error, &text)
                )));
                return;
            }
            // The lesson is judged on the scripted model, as the command line judges it.
            controller.set_model(None);
            controller.run(&text);
            awaiting.set(Some(controller.run_id().get_untracked()));
            return;
        }
        if controller.running().get_untracked() {
            note.set(Some(
                "The run has not ended yet: finish it, then press Check.".to_string(),
            ));
            return;
        }
        let same = controller
            .ran_scenario()
            .with_untracked(|s| s.as_ref().is_some_and(|s| s.name == lesson.scenario.name));
        match judge(&lesson, controller) {
            Some(parts) if same => record(parts),
            _ => note.set(Some(format!(
                "There is no ended run of this lesson to check. {}",
                how_to_solve(&lesson)
            ))),
        }
    };

    let show_solution = move |_| {
        let Some(lesson) = open.with_untracked(|o| o.as_ref().map(|o| o.lesson.clone())) else {
            return;
        };
        let patch = Value::Object(lesson.solution.clone());
        if lesson.by == By::Editing {
            let mut value = serde_json::from_str::<Value>(&editor.text().get_untracked())
                .unwrap_or_else(|_| lesson.start.clone());
            harness::lesson::patch::merge_patch(&mut value, &patch);
            let text = pretty(&value);
            allowed.set_value(text.clone());
            editor.edit(text);
            solution_note.set(Some(format!(
                "Applied the solution: it sets {}. Press Check to see the goal hold.",
                lesson_words::patch_paths(&patch).join(", ")
            )));
        } else {
            solution_note.set(Some(format!(
                "The solution, as the lesson file writes it (what to do in the run):\n{}",
                pretty(&patch)
            )));
        }
    };

    let make_lesson = move |_| {
        let events = controller.events().get_untracked();
        let Some(outcome) = view_model::outcome_of(&events).cloned() else {
            note.set(Some(
                "Make this a lesson needs a run that has ended: press Run first.".to_string(),
            ));
            return;
        };
        let goal: Goal = goal::Goal::from_run(&events, &outcome);
        let scenario = match serde_json::from_str::<Value>(&editor.text().get_untracked()) {
            Ok(value) => value,
            Err(error) => {
                note.set(Some(format!(
                    "The scenario cannot go into a lesson: its JSON is {}.",
                    describe(&error, &editor.text().get_untracked())
                )));
                return;
            }
        };
        let title = controller
            .ran_scenario()
            .with_untracked(|s| s.as_ref().map(|s| s.name.clone()))
            .unwrap_or_else(|| "My lesson".to_string());
        let draft = serde_json::json!({
            "lesson": title,
            "intro": "Say what the learner is to make the agent do.",
            "scenario": scenario,
            "editable": [],
            "goal": goal,
            "hints": [],
            "solution": {},
            "explain": "Say what the learner should take away.",
        });
        let text = pretty(&draft);
        let name = "lesson.json";
        let saved = match files::download(name, "application/json", &text) {
            Ok(()) => format!("Saved {name}"),
            Err(why) => why,
        };
        let linked = match page::set_fragment(&lesson_words::lesson_fragment(&text)) {
            Some(_) => ", and the address bar now holds its link",
            None => "",
        };
        note.set(Some(format!(
            "{saved}{linked}. Its goal is what this run did: {} Write its intro, editable paths, hints, solution and explanation, then check it with `agent-loop lesson verify lesson.json`.",
            lesson_words::goal_lines(&goal).join(" ")
        )));
    };

    let open_file = move |ev: leptos::ev::Event| {
        let Some(input) = files::picked_input(&ev) else {
            return;
        };
        spawn_local(async move {
            match files::take_picked(&input).await {
                Some((name, Ok(text))) => open_linked(lesson_file(&name, &text)),
                Some((_, Err(why))) => note.set(Some(why)),
                None => {}
            }
        });
    };

    let next = move |_| {
        let Some(index) = open.with_untracked(|o| o.as_ref().and_then(|o| o.index)) else {
            return;
        };
        open_index(index + 1);
    };
    let has_next = move || {
        open.with(|o| o.as_ref().and_then(|o| o.index))
            .is_some_and(|i| course.with(|c| c.as_ref().is_ok_and(|c| i + 1 < c.lessons.len())))
    };

    let list = move || {
        course.with(|c| match c {
            Err(why) => view! { <p class="lesson-note" role="alert">{why.clone()}</p> }.into_any(),
            Ok(c) => {
                let items = c.lessons.iter().enumerate().map(|(i, l)| {
                    let key = lesson_words::progress_key(l.name.as_deref(), &l.lesson.title);
                    let done = Signal::derive({
                        let key = key.clone();
                        move || solved.with(|s| s.contains(&key))
                    });
                    let title = l.lesson.title.clone();
                    let teaches = l.lesson.teaches.clone();
                    view! {
                        <li class="lesson-item" class:solved=done data-lesson=l.name.clone().unwrap_or_default()>
                            <span class="lesson-mark" aria-label=move || if done.get() { "solved" } else { "not solved yet" }>
                                {move || if done.get() { "✓" } else { "·" }}
                            </span>
                            <button type="button" class="lesson-open" on:click=move |_| open_index(i)>{title}</button>
                            " " <span class="lesson-teaches">{teaches}</span>
                        </li>
                    }
                }).collect_view();
                let total = c.lessons.len();
                let title = c.title.clone();
                view! {
                    <h3 class="course-title">{title}</h3>
                    <p class="course-progress">{move || {
                        let keys: Vec<String> = course.with(|c| c.as_ref().map(|c| c.lessons.iter().map(|l| lesson_words::progress_key(l.name.as_deref(), &l.lesson.title)).collect()).unwrap_or_default());
                        let n = solved.with(|s| keys.iter().filter(|k| s.contains(k)).count());
                        format!("{n} of {total} solved in this browser.")
                    }}</p>
                    <ol class="lesson-list">{items}</ol>
                }.into_any()
            }
        })
    };

    let lesson_view = move || {
        open.get().map(|o| {
            let lesson = o.lesson.clone();
            let goal_lines = lesson_words::goal_lines(&lesson.goal).into_iter().map(|line| view! { <li>{line}</li> }).collect_view();
            let hint_texts = lesson.hints.clone();
            let hint_count = hint_texts.len();
            let explain = lesson.explain.clone();
            let key = o.key.clone();
            let is_solved = Signal::derive(move || solved.with(|s| s.contains(&key)));
            view! {
                <div class="lesson-open-view">
                    <button type="button" class="lesson-back" on:click=move |_| open.set(None)>"← All lessons"</button>
                    <h3 class="lesson-title">
                        {move || is_solved.get().then_some("✓ ")}
                        {lesson.title.clone()}
                    </h3>
                    <p class="lesson-intro">{lesson.intro.clone()}</p>
                    <div id="lesson-goal" class="lesson-goal" tabindex="-1">
                        <h4>"Goal"</h4>
                        <ul class="goal-parts">{goal_lines}</ul>
                        <p class="lesson-how">{how_to_solve(&lesson)}</p>
                    </div>
                    <div class="lesson-actions">
                        <button type="button" class="lesson-check" on:click=check
                            prop:disabled=move || awaiting.with(Option::is_some)>"Check"</button>
                        <button type="button" class="lesson-hint"
                            prop:disabled=move || { hints.get() >= hint_count }
                            on:click=move |_| hints.update(|h| *h += 1)>
                            {move || if hints.get() >= hint_count { "No more hints".to_string() } else { format!("Hint ({} left)", hint_count - hints.get()) }}
                        </button>
                        {move || (fails.get() >= FAILS_BEFORE_SOLUTION && !just_solved.get()).then(|| view! {
                            <button type="button" class="lesson-solution" on:click=show_solution>"Show the solution"</button>
                        })}
                    </div>
                    {move || awaiting.with(Option::is_some).then(|| view! {
                        <p class="lesson-checking" role="status">"Checking: running the scenario as you edited it…"</p>
                    })}
                    {move || verdict.get().map(|parts| {
                        let holds = parts.iter().all(|p| p.holds);
                        let rows = parts.into_iter().map(|p| view! {
                            <li class=if p.holds { "part holds" } else { "part fails" } data-part=p.part.clone()>
                                <span aria-hidden="true">{if p.holds { "✓ " } else { "✗ " }}</span>
                                {p.sentence}
                            </li>
                        }).collect_view();
                        view! {
                            <div class="lesson-verdict" role="status">
                                <p class="verdict-head">{if holds { "Solved: every part of the goal holds." } else { "Not yet: some of the goal does not hold." }}</p>
                                <ul>{rows}</ul>
                            </div>
                        }
                    })}
                    <ol class="lesson-hints">
                        {move || hint_texts.iter().take(hints.get()).map(|h| view! { <li>{h.clone()}</li> }).collect_view()}
                    </ol>
                    {move || solution_note.get().map(|text| view! { <p class="lesson-solution-note" role="status">{text}</p> })}
                    {move || just_solved.get().then(|| view! {
                        <div class="lesson-explain">
                            <h4>"Why"</h4>
                            <p>{explain.clone()}</p>
                            {move || has_next().then(|| view! {
                                <button type="button" class="lesson-next" on:click=next>"Next lesson →"</button>
                            })}
                        </div>
                    })}
                </div>
            }
        })
    };

    view! {
        <section class="lessons-panel" aria-label="Lessons" hidden=move || !lessons.open().get()>
            <div class="lessons-head">
                <h2>"Lessons"</h2>
                <label class="lesson-file">
                    "Open a lesson or course file…"
                    <input type="file" accept=".json,application/json" on:change=open_file />
                </label>
                <button type="button" class="lesson-make" on:click=make_lesson
                    title="A lesson file whose goal is what the run in view did">"Make this a lesson"</button>
                <button type="button" class="lessons-close" on:click=move |_| lessons.set_open(false)>"Close Lessons"</button>
            </div>
            {move || note.get().map(|text| view! { <p class="lesson-note" role="alert">{text}</p> })}
            {move || if open.with(Option::is_some) { lesson_view().into_any() } else { list().into_any() }}
        </section>
    }
}

/// A lesson or course file's text, read as whichever it is.
fn lesson_file(name: &str, text: &str) -> Result<Linked, String> {
    let value: Value = serde_json::from_str(text)
        .map_err(|error| format!("{name} was not opened: it is {}.", describe(&error, text)))?;
    let problems = |p: Vec<harness::scenario::Problem>| {
        format!(
            "{name} was not opened: {}.",
            view_model::problem_lines(&p).join("; ")
        )
    };
    if course::is_course(&value) {
        return Course::from_value(value)
            .map(Linked::Course)
            .map_err(problems);
    }
    Lesson::from_value(value, "")
        .map(|lesson| Linked::Lesson(None, Box::new(lesson)))
        .map_err(problems)
}
