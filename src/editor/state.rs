//! The scenario editor's state: which scenario the picker shows and the JSON
//! text the next run will load, kept in the browser across reloads. Its
//! rules live in the plain model `editor::model`; this adapter sends it what
//! the person and the page do, performs its commands (fetch, check, save)
//! and shows it in the signals the components read.
//!
//! Picking a built-in replaces the text with its JSON; editing the text moves
//! the picker to "Custom", so the picker never names a built-in the text no
//! longer is (picking that built-in again restores it).
//!
//! The page opens on a share link's scenario (`#s=`), else the autosaved
//! one, else the first built-in. Every change is saved at once; the first
//! change after opening a link removes the fragment, so a reload shows the
//! latest edit rather than the link's original.
//!
//! The editor also knows where its text came from (`provenance`): a built-in,
//! a share link, a file, a kept run, and whether it was edited since, so the
//! picker can say "Edited from Turn limit" instead of a bare "Custom".
//!
//! The built-ins' files are a split module (`lazy::builtin_json`), fetched
//! after the first paint: picking one shows it in the picker at once and
//! brings its text when the module answers, with Run held meanwhile
//! (`loading`). Which built-in a text is comes from the saved picker value,
//! or, for a link, an import or an opened run, from the module.
//!
//! The text is checked as it is edited (`live_problems`, the engine's own
//! load), so the form shows each problem under its field and Run says why it
//! cannot start (`run_blocker`).

use harness::library::BUILTIN;
use leptos::prelude::*;

use crate::browser::{page, runner};
use crate::editor::model::{EditorCmd, EditorModel, EditorMsg, Opening};
use crate::editor::provenance::{self, Lesson, Provenance, Source};
use crate::editor::share;
use crate::mcp::state::Mcp;
use crate::run::view_model;
use crate::state::form_doc;
use crate::state::mirror::{set_if_changed, set_option_if_changed};
use crate::update::Update;
use crate::{editor::form, lazy};

#[derive(Clone, Copy)]
pub struct Editor {
    /// The editor as plain data (see `editor::model`); changed only by `send`.
    model: StoredValue<EditorModel>,
    // What the model holds, as the components read it (kept by `show`).
    selected: RwSignal<String>,
    text: RwSignal<String>,
    /// The share bar's message (copied, exported), while the text it was
    /// about is the text.
    notice: RwSignal<Option<String>>,
    /// What arrived in the editor and from where: a share link (loaded or
    /// broken), an imported file. Shown under the lesson, where the person looks.
    arrival: RwSignal<Option<String>>,
    provenance: RwSignal<Provenance>,
    /// Bumped when the whole text is replaced from outside the form, so the
    /// form rebuilds its fields from it.
    revision: RwSignal<u64>,
    /// Form fields whose text cannot go into the JSON yet, by field key.
    field_errors: RwSignal<Vec<(String, String)>>,
    /// A picked built-in's text is on its way: Run waits for it.
    loading: RwSignal<bool>,
    live_problems: RwSignal<Vec<String>>,
    live_notes: RwSignal<Vec<String>>,
    /// The scenario's lesson: its own `description`.
    lesson: Memo<String>,
    /// Takes header values out of the text as it arrives (see `mcp::state`).
    mcp: Mcp,
    /// Undo is there, and whether the picker made the replacement it undoes
    /// (the header then offers it beside the picker, where the person acted).
    can_undo: RwSignal<bool>,
    can_undo_pick: RwSignal<bool>,
    /// While a lesson is open, the paths it lets the learner change.
    lock: RwSignal<Option<Vec<String>>>,
    /// Why a lesson holds Run and Step back for now.
    hold: RwSignal<Option<String>>,
}

impl Editor {
    pub fn new(mcp: Mcp) -> Self {
        let (model, commands) = EditorModel::open(Opening {
            fragment: page::fragment(),
            saved_text: page::saved_scenario(),
            saved_provenance: page::saved_provenance(),
            saved_selection: page::saved_selection(),
            saved_replaced: page::saved_replaced(),
        });
        let text = RwSignal::new(String::new());
        let loading = RwSignal::new(false);
        let editor = Editor {
            model: StoredValue::new(model),
            selected: RwSignal::new(String::new()),
            text,
            notice: RwSignal::new(None),
            arrival: RwSignal::new(None),
            provenance: RwSignal::new(Provenance::fresh(Source::Own)),
            revision: RwSignal::new(0),
            field_errors: RwSignal::new(Vec::new()),
            loading,
            live_problems: RwSignal::new(Vec::new()),
            live_notes: RwSignal::new(Vec::new()),
            lesson: lesson_of(text.read_only(), loading.read_only()),
            mcp,
            can_undo: RwSignal::new(false),
            can_undo_pick: RwSignal::new(false),
            lock: RwSignal::new(None),
            hold: RwSignal::new(None),
        };
        editor.show();
        for command in commands {
            editor.perform(command);
        }
        mcp.watch(text.read_only());
        editor
    }

    /// The one way the editor changes: the model takes `msg`, the page shows
    /// the model, and the commands it answered with are performed.
    fn send(self, msg: EditorMsg) {
        let Some(commands) = self.model.try_update_value(|model| model.update(msg)) else {
            return; // The page is gone.
        };
        self.show();
        for command in commands {
            self.perform(command);
        }
    }

    /// Does what the model asked; what it awaits answers through `send`.
    fn perform(self, command: EditorCmd) {
        match command {
            EditorCmd::FetchBuiltin { pick, id } => {
                runner::answer(lazy::builtin_json(id.clone()), move |json| {
                    self.send(EditorMsg::BuiltinArrived { pick, id, json })
                })
            }
            EditorCmd::Identify(text) => {
                runner::answer(lazy::builtin_id_of(text.clone()), move |id| {
                    if let Some(id) = id {
                        let id = id.to_string();
                        self.send(EditorMsg::Identified { text, id });
                    }
                })
            }
            // The check is the engine's (a split module): the first one
            // fetches it, right after the first paint.
            EditorCmd::Check(text) => runner::answer(
                async move {
                    let engine = lazy::engine().await;
                    let (problems, notes) = match engine.load(&text).await {
                        Ok(scenario) => (Vec::new(), engine.notes(&scenario)),
                        Err(problems) => (view_model::problem_lines(&problems), Vec::new()),
                    };
                    EditorMsg::Checked {
                        text,
                        problems,
                        notes,
                    }
                },
                move |checked| self.send(checked),
            ),
            EditorCmd::SaveText(text) => page::save_scenario(&text),
            EditorCmd::ForgetLink => {
                if page::fragment().starts_with(share::FRAGMENT_PREFIX) {
                    page::set_fragment("");
                }
            }
            EditorCmd::SaveSelection(id) => page::save_selection(&id),
            EditorCmd::SaveProvenance(saved) => page::save_provenance(&saved),
            EditorCmd::SaveReplaced(replaced) => page::save_replaced(
                &replaced.text,
                &replaced.provenance.to_saved(),
                &replaced.selected,
            ),
            EditorCmd::HoldSecrets(text) => {
                self.mcp.take_secrets(text);
            }
        }
    }

    /// Shows the model in the signals the components read, each set only
    /// when what it shows changed.
    fn show(self) {
        self.model.with_value(|model| {
            set_if_changed(self.text, model.text());
            set_if_changed(self.selected, model.selected());
            set_if_changed(self.provenance, model.provenance());
            set_if_changed(self.field_errors, model.field_errors());
            set_if_changed(self.revision, &model.revision());
            set_if_changed(self.loading, &model.loading());
            set_if_changed(self.live_problems, model.live_problems());
            set_if_changed(self.live_notes, model.live_notes());
            set_option_if_changed(self.arrival, model.arrival());
            set_option_if_changed(self.notice, model.notice());
            set_if_changed(self.can_undo, &model.can_undo_replacement());
            set_if_changed(self.can_undo_pick, &model.can_undo_pick());
            set_option_if_changed(self.lock, model.lock());
            set_option_if_changed(self.hold, model.hold());
        });
    }

    /// The live check's problems with the text, as `path: message` lines.
    pub fn live_problems(&self) -> ReadSignal<Vec<String>> {
        self.live_problems.read_only()
    }

    /// The live check's notes on a text that runs, as "note: …" lines.
    pub fn live_notes(&self) -> ReadSignal<Vec<String>> {
        self.live_notes.read_only()
    }

    /// Why Run cannot start, if it cannot (tracked; see
    /// `EditorModel::run_blocker`). `other_fields`: the Model settings'
    /// fields' problems, which block Run the same way.
    pub fn run_blocker(&self, other_fields: impl FnOnce() -> Vec<String>) -> Option<String> {
        self.hold.track();
        self.loading.track();
        self.field_errors.track();
        self.live_problems.track();
        let other_fields = other_fields();
        self.model
            .with_value(|model| model.run_blocker(other_fields))
    }

    /// The lesson the page shows above the form (see `lesson_of`).
    pub fn lesson(&self) -> Memo<String> {
        self.lesson
    }

    /// The picker's label for a text that is no built-in: where it came
    /// from ("Edited from Turn limit", "From a shared link").
    pub fn custom_label(&self) -> String {
        self.provenance.with(|p| {
            p.label(|id| view_model::find_builtin(BUILTIN, id).map(|b| b.name().to_string()))
        })
    }

    /// A share link pasted into this tab changed only the fragment: loads
    /// its scenario (true), or says why the link is broken.
    pub fn open_link(self, fragment: &str) -> bool {
        let Some(link) = share::scenario_from_fragment(fragment) else {
            return false;
        };
        let loaded = link.is_ok();
        self.send(EditorMsg::LinkOpened(link));
        loaded
    }

    pub fn loading(&self) -> ReadSignal<bool> {
        self.loading.read_only()
    }

    pub fn selected(&self) -> ReadSignal<String> {
        self.selected.read_only()
    }

    pub fn text(&self) -> ReadSignal<String> {
        self.text.read_only()
    }

    /// The share bar's message, while the text it was about is the text.
    pub fn notice(&self) -> ReadSignal<Option<String>> {
        self.notice.read_only()
    }

    pub fn arrival(&self) -> ReadSignal<Option<String>> {
        self.arrival.read_only()
    }

    pub fn provenance(&self) -> ReadSignal<Provenance> {
        self.provenance.read_only()
    }

    /// Says what arrived in the editor (or why nothing did).
    pub fn set_arrival(self, arrival: Option<String>) {
        self.send(EditorMsg::ArrivalSaid(arrival));
    }

    pub fn revision(&self) -> ReadSignal<u64> {
        self.revision.read_only()
    }

    pub fn field_errors(&self) -> ReadSignal<Vec<(String, String)>> {
        self.field_errors.read_only()
    }

    /// Records (or clears, with `None`) why form field `key` cannot be applied.
    pub fn set_field_error(self, key: &str, error: Option<String>) {
        let key = key.to_string();
        self.send(EditorMsg::FieldError { key, error });
    }

    /// A form field changed: rewrite that one value in the JSON text.
    pub fn edit_field(self, key: &str, path: &[form::Key], value: Option<serde_json::Value>) {
        self.send(EditorMsg::FieldEdited {
            key: key.to_string(),
            path: path.to_vec(),
            value,
        });
    }

    /// The share bar says `notice` about the text as it is now.
    pub fn set_notice(self, notice: Option<String>) {
        self.send(EditorMsg::NoticeSaid(notice));
    }

    /// The picker changed: a built-in brings its JSON; "Custom" keeps the text
    /// as a starting point.
    pub fn select(self, id: String) {
        self.send(EditorMsg::Picked(id));
    }

    /// The paths a lesson lets the learner change, or `None` for no lesson.
    pub fn lock(&self) -> ReadSignal<Option<Vec<String>>> {
        self.lock.read_only()
    }

    /// A lesson holds Run and Step back, saying why; `None` lets them go.
    pub fn set_hold(self, why: Option<String>) {
        self.send(EditorMsg::Held(why));
    }

    pub fn set_lock(self, editable: Option<Vec<String>>) {
        self.send(EditorMsg::Locked(editable));
    }

    /// Whether a lesson keeps the field at `path` as it is (reactive).
    pub fn fixed(&self, path: &str) -> bool {
        self.lock.with(|lock| {
            lock.as_ref()
                .is_some_and(|editable| !harness::lesson::patch::covers(editable, path))
        })
    }

    /// The user typed or pasted into the JSON box (or a lesson set it).
    pub fn edit(self, text: String) {
        self.send(EditorMsg::Typed(text));
    }

    /// A whole scenario arrived (an imported file, a pasted link, an opened run).
    pub fn load(self, text: String, source: Source) {
        self.send(EditorMsg::Loaded { text, source });
    }

    /// A text the last replacement took away, if it was the person's (tracked).
    pub fn can_undo_replacement(&self) -> bool {
        self.can_undo.get()
    }

    /// Undo is offered, for what a pick replaced (tracked).
    pub fn can_undo_pick(&self) -> bool {
        self.can_undo_pick.get()
    }

    /// "Undo": brings back the text the last replacement took away, and keeps
    /// the one it replaces in its place, so a second Undo undoes the first.
    pub fn undo_replacement(self) {
        self.send(EditorMsg::UndoPressed);
    }
}

/// The structured form edits the editor's text (A) in place.
impl form_doc::FormDoc for Editor {
    fn text(&self) -> ReadSignal<String> {
        Editor::text(self)
    }
    fn revision(&self) -> ReadSignal<u64> {
        Editor::revision(self)
    }
    fn field_errors(&self) -> ReadSignal<Vec<(String, String)>> {
        Editor::field_errors(self)
    }
    fn set_field_error(self, key: &str, error: Option<String>) {
        Editor::set_field_error(self, key, error)
    }
    fn edit_field(self, key: &str, path: &[form::Key], value: Option<serde_json::Value>) {
        Editor::edit_field(self, key, path, value)
    }
    fn id_prefix(&self) -> &'static str {
        ""
    }
    fn fixed(&self, path: &str) -> bool {
        Editor::fixed(self, path)
    }
    fn lock(&self) -> Option<ReadSignal<Option<Vec<String>>>> {
        Some(Editor::lock(self))
    }
}

/// The lesson is the scenario's own `description`, whichever way it arrived
/// (a built-in, a link, a file, an edit). While the text is not JSON the
/// last lesson stays, rather than flickering to the generic one.
fn lesson_of(text: ReadSignal<String>, loading: ReadSignal<bool>) -> Memo<String> {
    Memo::new(move |previous: Option<&String>| {
        if loading.get() {
            return view_model::LOADING_LESSON.to_string();
        }
        match text.with(|text| provenance::lesson_of(text)) {
            Lesson::Described(description) => description,
            Lesson::Undescribed => view_model::CUSTOM_LESSON.to_string(),
            Lesson::NotJson => previous
                .filter(|p| p.as_str() != view_model::LOADING_LESSON)
                .cloned()
                .unwrap_or_else(|| view_model::CUSTOM_LESSON.to_string()),
        }
    })
}
