//! The scenario editor's state: which scenario the picker shows and the JSON
//! text the next run will load, kept in the browser across reloads.
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

use harness::library::{BUILTIN, OPENING_ID, OPENING_JSON};
use leptos::prelude::*;

use crate::browser::page;
use crate::browser::runner::{Generation, Ticket};
use crate::provenance::{self, Lesson, Provenance, Source};
use crate::share;
use crate::state::form_doc;
use crate::state::mcp::Mcp;
use crate::state::tied_notice::TiedNotice;
use crate::view_model::{self, CUSTOM};
use crate::{form, lazy};

/// What the editor says after an Undo.
pub const UNDONE: &str =
    "Brought back the scenario that was replaced; Undo again returns to the one that replaced it.";

#[derive(Clone, Copy)]
pub struct Editor {
    selected: RwSignal<String>,
    text: RwSignal<String>,
    /// A message about the share bar's actions (copied, exported): about
    /// the text it linked or saved, so it goes when the text changes.
    notice: TiedNotice,
    /// What arrived in the editor and from where: a share link (loaded or
    /// broken), an imported file. Shown under the lesson, where the person looks.
    arrival: RwSignal<Option<String>>,
    /// Where the text came from, and whether it was edited since.
    provenance: RwSignal<Provenance>,
    /// Bumped when the whole text is replaced from outside the form (picker,
    /// raw JSON box, import, link), so the form rebuilds its fields from it;
    /// the form's own edits do not bump it, so a field keeps its focus.
    revision: RwSignal<u64>,
    /// Form fields whose text cannot go into the JSON yet (a schema that is
    /// not JSON, a limit that is not a number), by field key.
    field_errors: RwSignal<Vec<(String, String)>>,
    /// A picked built-in's text is on its way: Run waits for it.
    loading: RwSignal<bool>,
    /// A new attempt at every pick and edit, so a pick's text that arrives after a
    /// newer pick or edit is dropped.
    picks: Generation,
    /// Why the text cannot run, as `path: message` lines (the live check).
    live_problems: RwSignal<Vec<String>>,
    /// What a text that runs does that its run will treat as the model's
    /// mistake, as "note: …" lines (the live check). They hold nothing up.
    live_notes: RwSignal<Vec<String>>,
    /// The scenario's lesson: its own `description`.
    lesson: Memo<String>,
    /// Takes header values out of the text as it arrives (see `state::mcp`).
    mcp: Mcp,
    /// The person's text that the last replacement (a pick, an import, an
    /// opened run, a link) took away, for "Undo". Undo swaps it back in and
    /// keeps what it replaced, so nothing is lost either way.
    replaced: RwSignal<Option<Replaced>>,
    /// The picker made the last replacement that kept something for Undo:
    /// the header then offers Undo beside the picker, where the person
    /// acted (the Scenario panel's may be far below, or scrolled away).
    replaced_by_pick: RwSignal<bool>,
    /// While a lesson is open, the paths it lets the learner change (see
    /// `harness::lesson::patch::covers`): every other field of the form and
    /// the JSON box are read-only. `None`: everything is editable.
    lock: RwSignal<Option<Vec<String>>>,
    /// Why a lesson holds Run and Step back for now (a prediction to make
    /// first): said where Run's other blockers are.
    hold: RwSignal<Option<String>>,
}

/// A text a replacement took away, with where it came from and the picker's
/// value then.
#[derive(Clone, Debug, PartialEq)]
pub struct Replaced {
    text: String,
    provenance: Provenance,
    selected: String,
}

impl Editor {
    pub fn new(mcp: Mcp) -> Self {
        let saved = page::saved_scenario();
        // A link replaces the saved draft: the draft stays one Undo away.
        let draft = saved.clone().map(|text| Replaced {
            provenance: page::saved_provenance()
                .map(|p| Provenance::from_saved(&p))
                .unwrap_or(Provenance::fresh(Source::Own)),
            selected: page::saved_selection().unwrap_or_else(|| CUSTOM.to_string()),
            text,
        });
        let (initial, link_error) = share::initial_text(&page::fragment(), saved);
        // A header value in a link or a saved draft leaves the text before
        // it is saved again (a draft from before the page held them).
        let initial = initial.map(|(text, source)| (mcp.take_secrets(text), source));
        let (text, provenance) = match initial {
            Some((text, share::Source::Link)) => {
                // The link's scenario is now the current one, also after a reload.
                page::save_scenario(&text);
                (text, Provenance::fresh(Source::Link))
            }
            Some((text, share::Source::Saved)) => {
                let provenance = page::saved_provenance()
                    .map(|saved| Provenance::from_saved(&saved))
                    .unwrap_or(Provenance::fresh(Source::Own));
                (text, provenance)
            }
            None => (
                OPENING_JSON.to_string(),
                Provenance::fresh(Source::Builtin(OPENING_ID.to_string())),
            ),
        };
        // Which built-in the text is, where that is known without the files.
        let known = if text == OPENING_JSON {
            Some(OPENING_ID.to_string())
        } else if provenance.source != Source::Link {
            page::saved_selection().filter(|id| id != CUSTOM)
        } else {
            None
        };
        let arrival = match link_error {
            Some(error) => Some(error),
            None if provenance.source == Source::Link => Some(share::LINK_LOADED.to_string()),
            None => None,
        };
        page::save_provenance(&provenance.to_saved());
        let text_signal = RwSignal::new(text.clone());
        let loading = RwSignal::new(false);
        let editor = Editor {
            selected: RwSignal::new(known.clone().unwrap_or_else(|| CUSTOM.to_string())),
            text: text_signal,
            notice: TiedNotice::about_text(text_signal.read_only()),
            arrival: RwSignal::new(arrival),
            provenance: RwSignal::new(provenance),
            revision: RwSignal::new(0),
            field_errors: RwSignal::new(Vec::new()),
            loading,
            picks: Generation::new(),
            live_problems: RwSignal::new(Vec::new()),
            live_notes: RwSignal::new(Vec::new()),
            lesson: lesson_of(text_signal.read_only(), loading.read_only()),
            mcp,
            replaced: RwSignal::new(None),
            replaced_by_pick: RwSignal::new(false),
            lock: RwSignal::new(None),
            hold: RwSignal::new(None),
        };
        let from_link = editor
            .provenance
            .with_untracked(|p| p.source == Source::Link);
        if let (Some(draft), true) = (draft, from_link) {
            let pristine =
                matches!(draft.provenance.source, Source::Builtin(_)) && !draft.provenance.edited;
            if !pristine && draft.text != editor.text.get_untracked() {
                editor.set_replaced(draft);
            }
        } else if let Some((text, provenance, selected)) = page::saved_replaced() {
            // The Undo offered before the reload, still offered.
            editor.replaced.set(Some(Replaced {
                text,
                provenance: Provenance::from_saved(&provenance),
                selected: if selected.is_empty() {
                    CUSTOM.to_string()
                } else {
                    selected
                },
            }));
        }
        if mcp.moved().get_untracked().is_some() {
            page::save_scenario(&editor.text.get_untracked());
        }
        mcp.watch(editor.text.read_only());
        page::save_selection(&editor.selected.get_untracked());
        if known.is_none() {
            editor.identify(text);
        }
        editor.check_as_edited();
        editor
    }

    /// Checks the text each time it changes. The check is the engine's (a
    /// split module): the first one fetches it, right after the first paint.
    /// An answer about text that has changed since is dropped; the newer
    /// text's check follows.
    fn check_as_edited(self) {
        Effect::new(move |_| {
            let text = self.text.get();
            crate::browser::runner::start(async move {
                let engine = lazy::engine().await;
                let (lines, notes) = match engine.load(&text).await {
                    Ok(scenario) => (Vec::new(), engine.notes(&scenario)),
                    Err(problems) => (view_model::problem_lines(&problems), Vec::new()),
                };
                if self.text.with_untracked(|now| *now == text) {
                    self.live_problems.set(lines);
                    self.live_notes.set(notes);
                }
            });
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

    /// Why Run cannot start, if it cannot (tracked): a lesson's hold (a
    /// prediction to make first), a built-in still on its
    /// way, a form field that cannot go into the JSON, a problem of
    /// `other_fields` (the Model settings' fields, which block Run the same
    /// way), or the live check's problems.
    pub fn run_blocker(&self, other_fields: impl FnOnce() -> Vec<String>) -> Option<String> {
        if let Some(why) = self.hold.get() {
            return Some(why);
        }
        if self.loading.get() {
            return Some(view_model::LOADING_BLOCKER.to_string());
        }
        let mut field_errors: Vec<String> = self
            .field_errors
            .with(|errors| errors.iter().map(|(_, e)| e.clone()).collect());
        field_errors.extend(other_fields());
        self.live_problems
            .with(|p| form::run_blocker(p, &field_errors))
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
        match share::scenario_from_fragment(fragment) {
            Some(Ok(text)) => {
                self.load(text, Source::Link);
                self.set_arrival(Some(share::LINK_LOADED.to_string()));
                true
            }
            Some(Err(why)) => {
                self.set_arrival(Some(share::broken_link_notice(&why)));
                false
            }
            None => false,
        }
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
    pub fn notice(&self) -> TiedNotice {
        self.notice
    }

    pub fn arrival(&self) -> ReadSignal<Option<String>> {
        self.arrival.read_only()
    }

    pub fn provenance(&self) -> ReadSignal<Provenance> {
        self.provenance.read_only()
    }

    /// Says what arrived in the editor (or why nothing did).
    pub fn set_arrival(self, arrival: Option<String>) {
        self.arrival.set(arrival);
    }

    pub fn revision(&self) -> ReadSignal<u64> {
        self.revision.read_only()
    }

    pub fn field_errors(&self) -> ReadSignal<Vec<(String, String)>> {
        self.field_errors.read_only()
    }

    /// Records (or clears, with `None`) why form field `key` cannot be applied.
    pub fn set_field_error(self, key: &str, error: Option<String>) {
        form_doc::set_field_error(self.field_errors, key, error)
    }

    /// A form field changed: rewrite that one value in the JSON text.
    pub fn edit_field(self, key: &str, path: &[form::Key], value: Option<serde_json::Value>) {
        match form::set_path(&self.text.get_untracked(), path, value) {
            Ok(text) => {
                self.next_pick();
                self.set_field_error(key, None);
                self.set_text(text);
                self.set_selected(CUSTOM);
                self.mark_edited();
            }
            Err(why) => self.set_field_error(key, Some(why)),
        }
    }

    pub fn set_notice(self, notice: Option<String>) {
        self.notice.set(notice);
    }

    /// The picker changed: a built-in brings its JSON; "Custom" keeps the text
    /// as a starting point.
    pub fn select(self, id: String) {
        let pick = self.next_pick();
        if id == CUSTOM {
            self.set_selected(CUSTOM);
            return;
        }
        self.loading.set(true);
        // What arrived before (a link, a file) is no longer what the editor holds.
        self.arrival.set(None);
        // The picker shows the choice at once; it is saved with its text.
        self.selected.set(id.clone());
        crate::browser::runner::start(async move {
            let json = lazy::builtin_json(id.clone()).await;
            if !pick.is_current() {
                return;
            }
            self.loading.set(false);
            if let Some(json) = json {
                let kept = self.remember(json);
                self.replaced_by_pick.set(kept);
                self.set_text(json.to_string());
                self.replaced();
                self.set_provenance(Provenance::fresh(Source::Builtin(id.clone())));
                self.set_selected(&id);
            }
        });
    }

    /// The paths a lesson lets the learner change, or `None` for no lesson.
    pub fn lock(&self) -> ReadSignal<Option<Vec<String>>> {
        self.lock.read_only()
    }

    /// A lesson holds Run and Step back, saying why; `None` lets them go.
    pub fn set_hold(self, why: Option<String>) {
        if self.hold.with_untracked(|h| *h != why) {
            self.hold.set(why);
        }
    }

    pub fn set_lock(self, editable: Option<Vec<String>>) {
        if self.lock.with_untracked(|l| *l != editable) {
            self.lock.set(editable);
        }
    }

    /// Whether a lesson keeps the field at `path` as it is (reactive).
    pub fn fixed(&self, path: &str) -> bool {
        self.lock.with(|lock| {
            lock.as_ref()
                .is_some_and(|editable| !harness::lesson::patch::covers(editable, path))
        })
    }

    /// The user typed or pasted into the JSON box. A whole scenario pasted
    /// over the text arrives as a paste (`provenance::replaced_whole`): the
    /// picker then says "Pasted", not "Edited from" what it replaced, and
    /// what it replaced is kept for Undo. An open lesson's own edits (its
    /// guard, its solution) are never a paste.
    pub fn edit(self, text: String) {
        // An input that leaves the text as it is changes nothing: Chromium
        // sends one input event per line of a multi-line insertion, each
        // with the final text, and the ones after the first are no edit.
        if self.text.with_untracked(|now| *now == text) {
            return;
        }
        let unlocked = self.lock.with_untracked(Option::is_none);
        if unlocked
            && self
                .text
                .with_untracked(|before| provenance::replaced_whole(before, &text))
        {
            // What arrived before (a link, a file) is not what the editor holds.
            self.arrival.set(None);
            self.load(text, Source::Pasted);
            return;
        }
        self.next_pick();
        self.set_text(text);
        self.replaced();
        self.set_selected(CUSTOM);
        self.mark_edited();
    }

    /// A whole scenario arrived (an imported file, a pasted link, an opened run).
    pub fn load(self, text: String, source: Source) {
        if self.remember(&text) {
            self.replaced_by_pick.set(false);
        }
        self.next_pick();
        self.set_selected(CUSTOM);
        self.set_provenance(Provenance::fresh(source));
        self.set_text(text.clone());
        self.replaced();
        self.identify(text);
    }

    /// A text the last replacement took away, if it was the person's (tracked).
    pub fn can_undo_replacement(&self) -> bool {
        self.replaced.with(Option::is_some)
    }

    /// Undo is offered, for what a pick replaced (tracked).
    pub fn can_undo_pick(&self) -> bool {
        self.replaced_by_pick.get() && self.can_undo_replacement()
    }

    /// "Undo": brings back the text the last replacement took away, and keeps
    /// the one it replaces in its place, so a second Undo undoes the first.
    pub fn undo_replacement(self) {
        let Some(back) = self.replaced.get_untracked() else {
            return;
        };
        let now = self.current();
        // Undone: the header's offer beside the picker has done its job;
        // "Undo again" stays in the Scenario panel.
        self.replaced_by_pick.set(false);
        self.next_pick();
        self.set_text(back.text);
        self.replaced();
        self.set_provenance(back.provenance);
        self.set_selected(&back.selected);
        self.set_replaced(now);
        self.arrival.set(Some(UNDONE.to_string()));
    }

    fn current(self) -> Replaced {
        Replaced {
            text: self.text.get_untracked(),
            provenance: self.provenance.get_untracked(),
            selected: self.selected.get_untracked(),
        }
    }

    /// Before `incoming` replaces the text: keeps what the editor holds for
    /// Undo when it is work a pick cannot bring back (anything but an
    /// unedited built-in) and differs from what comes in. Such a text is no
    /// built-in, so Undo shows it as "Custom", whatever the picker says now
    /// (a pick still loading has already moved it). True when it kept it.
    fn remember(self, incoming: &str) -> bool {
        let before = self.current();
        let pristine =
            matches!(before.provenance.source, Source::Builtin(_)) && !before.provenance.edited;
        let kept = !pristine && before.text != incoming;
        if kept {
            self.set_replaced(Replaced {
                selected: CUSTOM.to_string(),
                ..before
            });
        }
        kept
    }

    /// The Undo slot, saved beside the text: a reload must not lose the
    /// person's work that a pick replaced.
    fn set_replaced(self, replaced: Replaced) {
        page::save_replaced(
            &replaced.text,
            &replaced.provenance.to_saved(),
            &replaced.selected,
        );
        self.replaced.set(Some(replaced));
    }

    fn mark_edited(self) {
        if !self.provenance.with_untracked(|p| p.edited) {
            let mut provenance = self.provenance.get_untracked();
            provenance.edited = true;
            self.set_provenance(provenance);
        }
    }

    fn set_provenance(self, provenance: Provenance) {
        page::save_provenance(&provenance.to_saved());
        self.provenance.set(provenance);
    }

    /// A new pick or edit: the text of any pick still loading is not wanted.
    fn next_pick(self) -> Ticket {
        if self.loading.get_untracked() {
            self.loading.set(false);
        }
        self.picks.next()
    }

    /// Names in the picker the built-in `text` is, if it is one, once the
    /// built-ins' module answers (and `text` is still the text).
    fn identify(self, text: String) {
        crate::browser::runner::start(async move {
            let id = lazy::builtin_id_of(text.clone()).await;
            if let Some(id) = id {
                if self.text.with_untracked(|now| *now == text) {
                    self.set_provenance(Provenance::fresh(Source::Builtin(id.to_string())));
                    self.set_selected(id);
                }
            }
        });
    }

    /// The picker's value, saved with the text it names.
    fn set_selected(self, id: &str) {
        page::save_selection(id);
        if self.selected.with_untracked(|now| now != id) {
            self.selected.set(id.to_string());
        }
    }

    /// The text came from outside the form: rebuild the form, forget its errors.
    fn replaced(self) {
        self.field_errors.set(Vec::new());
        self.revision.update(|r| *r += 1);
    }

    fn set_text(self, text: String) {
        let text = self.mcp.take_secrets(text);
        page::save_scenario(&text);
        if page::fragment().starts_with(share::FRAGMENT_PREFIX) {
            page::set_fragment("");
        }
        self.text.set(text);
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
