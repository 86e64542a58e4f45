//! The scenario editor as a plain model: the text the next run loads, the
//! picker's value, where the text came from (`provenance`), the form's
//! field errors, the built-in on its way for a pick, the live check's
//! problems and notes, what arrived, the share bar's notice, and the text a
//! replacement took away (for Undo). It changes only by `update`; what the
//! world must do (fetch a built-in, check a text, save to this browser) is
//! returned as `EditorCmd`s. `editor::state` holds it and performs them.
//!
//! Rules the tests hold:
//! - Picking a built-in replaces the text with its JSON; editing the text
//!   moves the picker to "Custom", so the picker never names a built-in the
//!   text no longer is.
//! - A pick's text that arrives after a newer pick or an edit is dropped:
//!   every pick and edit takes a new number, and the answer brings its own.
//! - An answer about a text (its check, which built-in it is) that arrives
//!   after the text changed is dropped.
//! - The share bar's notice is about the text it was said over: it shows
//!   while that text is the text.
//! - A replacement keeps the person's own text for Undo (saved, so a reload
//!   keeps it too); a header value leaves a text before it is saved.

use harness::library::{OPENING_ID, OPENING_JSON};
use serde_json::Value;

use crate::editor::form::{self, Key};
use crate::editor::provenance::{self, Provenance, Source};
use crate::editor::share;
use crate::mcp::text as mcp_text;
use crate::run::view_model::{self, CUSTOM};
use crate::update::Update;

#[cfg(test)]
mod tests;

/// What the editor says after an Undo.
pub const UNDONE: &str =
    "Brought back the scenario that was replaced; Undo again returns to the one that replaced it.";

/// A text a replacement took away, with where it came from and the picker's
/// value then.
#[derive(Clone, Debug, PartialEq)]
pub struct Replaced {
    pub text: String,
    pub provenance: Provenance,
    pub selected: String,
}

/// What this browser kept from the last visit, and the address's fragment
/// the page opened with: what the editor opens on.
#[derive(Clone, Debug, Default)]
pub struct Opening {
    pub fragment: String,
    pub saved_text: Option<String>,
    pub saved_provenance: Option<String>,
    pub saved_selection: Option<String>,
    /// The Undo slot: text, provenance, picker value.
    pub saved_replaced: Option<(String, String, String)>,
}

/// What happens to the editor: a person's action, or a command's answer.
#[derive(Clone, Debug)]
pub enum EditorMsg {
    /// The picker changed to a built-in's id, or to "Custom".
    Picked(String),
    /// The built-in's text asked for by pick number `pick` (`None`: no
    /// built-in has that id).
    BuiltinArrived {
        pick: u64,
        id: String,
        json: Option<&'static str>,
    },
    /// The person typed or pasted into the JSON box (or a lesson set it).
    Typed(String),
    /// A form field changed: that one value of the JSON is rewritten.
    FieldEdited {
        key: String,
        path: Vec<Key>,
        value: Option<Value>,
    },
    /// Why form field `key` cannot go into the JSON, or `None` when it can.
    FieldError { key: String, error: Option<String> },
    /// A whole scenario arrived (a file, a link, a kept run, a lesson).
    Loaded { text: String, source: Source },
    /// A share link pasted into the address: its scenario, or why not.
    LinkOpened(Result<String, String>),
    /// `text` is the built-in `id`.
    Identified { text: String, id: String },
    /// The live check of `text`: its problems, or the notes on a text that runs.
    Checked {
        text: String,
        problems: Vec<String>,
        notes: Vec<String>,
    },
    /// "Undo" pressed: the replaced text comes back.
    UndoPressed,
    /// Says what arrived in the editor (or why nothing did).
    ArrivalSaid(Option<String>),
    /// The share bar's message about the text as it is now.
    NoticeSaid(Option<String>),
    /// An open lesson lets only these paths change (`None`: everything).
    Locked(Option<Vec<String>>),
    /// A lesson holds Run back for this reason (`None`: it lets Run go).
    Held(Option<String>),
}

/// What the world must do for the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum EditorCmd {
    /// Bring the text of built-in `id`; answer `BuiltinArrived` with `pick`.
    FetchBuiltin {
        pick: u64,
        id: String,
    },
    /// Find which built-in `text` is, if any; answer `Identified`.
    Identify(String),
    /// Check `text` with the engine's own load; answer `Checked`.
    Check(String),
    /// Keep the text in this browser for the next visit.
    SaveText(String),
    /// The text changed: an address that links the page's first text no
    /// longer says what the page shows, so its fragment goes.
    ForgetLink,
    SaveSelection(String),
    /// Keep the provenance (as `Provenance::to_saved` says it).
    SaveProvenance(String),
    /// Keep the Undo slot.
    SaveReplaced(Replaced),
    /// This text arrived with header values in it: the MCP servers' keeper
    /// takes them into memory (the editor keeps the text without them).
    HoldSecrets(String),
}

/// The editor's state (see the module's rules).
#[derive(Clone, Debug)]
pub struct EditorModel {
    text: String,
    selected: String,
    provenance: Provenance,
    /// Bumped when the whole text is replaced from outside the form, so the
    /// form rebuilds its fields; the form's own edits leave it, so a field
    /// keeps its focus.
    revision: u64,
    field_errors: Vec<(String, String)>,
    /// A picked built-in's text is on its way: Run waits for it.
    loading: bool,
    /// The newest pick or edit's number (see the rules).
    pick: u64,
    live_problems: Vec<String>,
    live_notes: Vec<String>,
    arrival: Option<String>,
    /// The share bar's notice, with the text it was said about.
    notice: Option<(String, String)>,
    replaced: Option<Replaced>,
    /// The picker made the last replacement that kept something for Undo.
    replaced_by_pick: bool,
    lock: Option<Vec<String>>,
    hold: Option<String>,
}

impl EditorModel {
    /// The editor as the page opens: on a share link's scenario, else the
    /// one saved in this browser, else the first built-in. A link replaces
    /// the saved draft, which stays one Undo away.
    pub fn open(opening: Opening) -> (Self, Vec<EditorCmd>) {
        let mut cmds = Vec::new();
        let saved_provenance = || {
            opening
                .saved_provenance
                .as_deref()
                .map(Provenance::from_saved)
                .unwrap_or(Provenance::fresh(Source::Own))
        };
        let draft = opening.saved_text.clone().map(|text| Replaced {
            provenance: saved_provenance(),
            selected: opening
                .saved_selection
                .clone()
                .unwrap_or_else(|| CUSTOM.to_string()),
            text,
        });
        let (initial, link_error) = share::initial_text(&opening.fragment, opening.saved_text);
        let (text, provenance) = match initial {
            Some((text, source)) => {
                let (text, had_secrets) = without_secrets(text, &mut cmds);
                let provenance = if source == share::Source::Link {
                    Provenance::fresh(Source::Link)
                } else {
                    saved_provenance()
                };
                // The link's scenario is now the current one, also after a
                // reload; a saved draft is saved again without its secrets.
                if source == share::Source::Link || had_secrets {
                    cmds.push(EditorCmd::SaveText(text.clone()));
                }
                (text, provenance)
            }
            None => (
                OPENING_JSON.to_string(),
                Provenance::fresh(Source::Builtin(OPENING_ID.to_string())),
            ),
        };
        let from_link = provenance.source == Source::Link;
        // Which built-in the text is, where that is known without the files.
        let known = if text == OPENING_JSON {
            Some(OPENING_ID.to_string())
        } else if !from_link {
            opening.saved_selection.filter(|id| id != CUSTOM)
        } else {
            None
        };
        let arrival = match link_error {
            Some(error) => Some(error),
            None if from_link => Some(share::LINK_LOADED.to_string()),
            None => None,
        };
        cmds.push(EditorCmd::SaveProvenance(provenance.to_saved()));
        let mut model = EditorModel {
            selected: known.clone().unwrap_or_else(|| CUSTOM.to_string()),
            text,
            provenance,
            revision: 0,
            field_errors: Vec::new(),
            loading: false,
            pick: 0,
            live_problems: Vec::new(),
            live_notes: Vec::new(),
            arrival,
            notice: None,
            replaced: None,
            replaced_by_pick: false,
            lock: None,
            hold: None,
        };
        if let (Some(draft), true) = (draft, from_link) {
            if !is_pristine(&draft.provenance) && draft.text != model.text {
                model.set_replaced(draft, &mut cmds);
            }
        } else if let Some((text, provenance, selected)) = opening.saved_replaced {
            // The Undo offered before the reload, still offered.
            model.replaced = Some(Replaced {
                text,
                provenance: Provenance::from_saved(&provenance),
                selected: if selected.is_empty() {
                    CUSTOM.to_string()
                } else {
                    selected
                },
            });
        }
        cmds.push(EditorCmd::SaveSelection(model.selected.clone()));
        if known.is_none() {
            cmds.push(EditorCmd::Identify(model.text.clone()));
        }
        cmds.push(EditorCmd::Check(model.text.clone()));
        (model, cmds)
    }

    /// The JSON text the next run loads.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The picker's value: a built-in's id, or "Custom".
    pub fn selected(&self) -> &str {
        &self.selected
    }

    pub fn provenance(&self) -> &Provenance {
        &self.provenance
    }

    pub fn revision(&self) -> u64 {
        self.revision
    }

    pub fn field_errors(&self) -> &[(String, String)] {
        &self.field_errors
    }

    pub fn loading(&self) -> bool {
        self.loading
    }

    /// The live check's problems with the text, as `path: message` lines.
    pub fn live_problems(&self) -> &[String] {
        &self.live_problems
    }

    /// The live check's notes on a text that runs, as "note: …" lines.
    pub fn live_notes(&self) -> &[String] {
        &self.live_notes
    }

    pub fn arrival(&self) -> Option<&String> {
        self.arrival.as_ref()
    }

    /// The share bar's notice, while the text it was said about is the text.
    pub fn notice(&self) -> Option<&String> {
        self.notice
            .as_ref()
            .filter(|(about, _)| *about == self.text)
            .map(|(_, said)| said)
    }

    /// A text the last replacement took away is there for Undo.
    pub fn can_undo_replacement(&self) -> bool {
        self.replaced.is_some()
    }

    /// Undo is offered beside the picker, for what a pick replaced.
    pub fn can_undo_pick(&self) -> bool {
        self.replaced_by_pick && self.replaced.is_some()
    }

    pub fn lock(&self) -> Option<&Vec<String>> {
        self.lock.as_ref()
    }

    pub fn hold(&self) -> Option<&String> {
        self.hold.as_ref()
    }

    /// Why Run cannot start, if it cannot: a lesson's hold, a built-in still
    /// on its way, a form field that cannot go into the JSON, a problem of
    /// `other_fields` (fields outside the scenario that block Run the same
    /// way), or the live check's problems.
    pub fn run_blocker(&self, other_fields: Vec<String>) -> Option<String> {
        if let Some(why) = &self.hold {
            return Some(why.clone());
        }
        if self.loading {
            return Some(view_model::LOADING_BLOCKER.to_string());
        }
        let mut field_errors: Vec<String> =
            self.field_errors.iter().map(|(_, e)| e.clone()).collect();
        field_errors.extend(other_fields);
        form::run_blocker(&self.live_problems, &field_errors)
    }

    fn picked(&mut self, id: String, cmds: &mut Vec<EditorCmd>) {
        let pick = self.next_pick();
        if id == CUSTOM {
            self.set_selected(CUSTOM, cmds);
            return;
        }
        self.loading = true;
        // What arrived before (a link, a file) is no longer what the editor holds.
        self.arrival = None;
        // The picker shows the choice at once; it is saved with its text.
        self.selected.clone_from(&id);
        cmds.push(EditorCmd::FetchBuiltin { pick, id });
    }

    fn builtin_arrived(&mut self, id: String, json: Option<&str>, cmds: &mut Vec<EditorCmd>) {
        self.loading = false;
        if let Some(json) = json {
            self.replaced_by_pick = self.remember(json, cmds);
            self.set_text(json.to_string(), cmds);
            self.rebuild_form();
            self.set_provenance(Provenance::fresh(Source::Builtin(id.clone())), cmds);
            self.set_selected(&id, cmds);
        }
    }

    /// A whole scenario pasted over the text arrives as a paste: the picker
    /// then says "Pasted", not "Edited from" what it replaced, and what it
    /// replaced is kept for Undo. An open lesson's own edits are never one.
    fn typed(&mut self, text: String, cmds: &mut Vec<EditorCmd>) {
        // An input that leaves the text as it is changes nothing: Chromium
        // sends one input event per line of a multi-line insertion, each
        // with the final text, and the ones after the first are no edit.
        if self.text == text {
            return;
        }
        if self.lock.is_none() && provenance::replaced_whole(&self.text, &text) {
            self.arrival = None;
            return self.load(text, Source::Pasted, cmds);
        }
        self.next_pick();
        self.set_text(text, cmds);
        self.rebuild_form();
        self.edited(cmds);
    }

    fn field_edited(
        &mut self,
        key: String,
        path: &[Key],
        value: Option<Value>,
        cmds: &mut Vec<EditorCmd>,
    ) {
        match form::set_path(&self.text, path, value) {
            Ok(text) => {
                self.next_pick();
                self.set_field_error(&key, None);
                self.set_text(text, cmds);
                self.edited(cmds);
            }
            Err(why) => self.set_field_error(&key, Some(why)),
        }
    }

    fn load(&mut self, text: String, source: Source, cmds: &mut Vec<EditorCmd>) {
        if self.remember(&text, cmds) {
            self.replaced_by_pick = false;
        }
        self.next_pick();
        self.set_selected(CUSTOM, cmds);
        self.set_provenance(Provenance::fresh(source), cmds);
        self.set_text(text, cmds);
        self.rebuild_form();
        cmds.push(EditorCmd::Identify(self.text.clone()));
    }

    /// Brings back the text the last replacement took away, and keeps the
    /// one it replaces in its place, so a second Undo undoes the first.
    fn undo(&mut self, cmds: &mut Vec<EditorCmd>) {
        let Some(back) = self.replaced.clone() else {
            return;
        };
        let now = self.current();
        // Undone: the offer beside the picker has done its job; "Undo
        // again" stays in the Scenario panel.
        self.replaced_by_pick = false;
        self.next_pick();
        self.set_text(back.text, cmds);
        self.rebuild_form();
        self.set_provenance(back.provenance, cmds);
        self.set_selected(&back.selected, cmds);
        self.set_replaced(now, cmds);
        self.arrival = Some(UNDONE.to_string());
    }

    fn current(&self) -> Replaced {
        Replaced {
            text: self.text.clone(),
            provenance: self.provenance.clone(),
            selected: self.selected.clone(),
        }
    }

    /// Before `incoming` replaces the text: keeps what the editor holds for
    /// Undo when it is work a pick cannot bring back (anything but an
    /// unedited built-in) and differs from what comes in. Such a text is no
    /// built-in, so Undo shows it as "Custom", whatever the picker says now
    /// (a pick still loading has already moved it). True when it kept it.
    fn remember(&mut self, incoming: &str, cmds: &mut Vec<EditorCmd>) -> bool {
        let kept = !is_pristine(&self.provenance) && self.text != incoming;
        if kept {
            let before = Replaced {
                selected: CUSTOM.to_string(),
                ..self.current()
            };
            self.set_replaced(before, cmds);
        }
        kept
    }

    /// The Undo slot, saved beside the text: a reload must not lose the
    /// person's work that a pick replaced.
    fn set_replaced(&mut self, replaced: Replaced, cmds: &mut Vec<EditorCmd>) {
        cmds.push(EditorCmd::SaveReplaced(replaced.clone()));
        self.replaced = Some(replaced);
    }

    /// The person changed the text: the picker says "Custom", and the
    /// provenance "edited".
    fn edited(&mut self, cmds: &mut Vec<EditorCmd>) {
        self.set_selected(CUSTOM, cmds);
        if !self.provenance.edited {
            let mut provenance = self.provenance.clone();
            provenance.edited = true;
            self.set_provenance(provenance, cmds);
        }
    }

    fn set_provenance(&mut self, provenance: Provenance, cmds: &mut Vec<EditorCmd>) {
        cmds.push(EditorCmd::SaveProvenance(provenance.to_saved()));
        self.provenance = provenance;
    }

    /// A new pick or edit: the text of any pick still loading is not wanted.
    fn next_pick(&mut self) -> u64 {
        self.loading = false;
        self.pick += 1;
        self.pick
    }

    /// The picker's value, saved with the text it names.
    fn set_selected(&mut self, id: &str, cmds: &mut Vec<EditorCmd>) {
        cmds.push(EditorCmd::SaveSelection(id.to_string()));
        if self.selected != id {
            self.selected = id.to_string();
        }
    }

    /// The text came from outside the form: rebuild the form, forget its errors.
    fn rebuild_form(&mut self) {
        self.field_errors.clear();
        self.revision += 1;
    }

    fn set_field_error(&mut self, key: &str, error: Option<String>) {
        let known = self.field_errors.iter().find(|(k, _)| k == key);
        if known.map(|(_, e)| e) == error.as_ref() {
            return; // Unchanged: the form keeps its order and does not redraw.
        }
        self.field_errors.retain(|(k, _)| k != key);
        self.field_errors
            .extend(error.map(|e| (key.to_string(), e)));
    }

    /// The new text, without header values, saved and checked.
    fn set_text(&mut self, text: String, cmds: &mut Vec<EditorCmd>) {
        let (text, _) = without_secrets(text, cmds);
        cmds.push(EditorCmd::SaveText(text.clone()));
        cmds.push(EditorCmd::ForgetLink);
        cmds.push(EditorCmd::Check(text.clone()));
        self.text = text;
    }
}

impl Update for EditorModel {
    type Msg = EditorMsg;
    type Cmd = EditorCmd;

    #[inline(never)]
    fn update(&mut self, msg: EditorMsg) -> Vec<EditorCmd> {
        let mut cmds = Vec::new();
        match msg {
            EditorMsg::Picked(id) => self.picked(id, &mut cmds),
            EditorMsg::BuiltinArrived { pick, id, json } => {
                if pick == self.pick {
                    self.builtin_arrived(id, json, &mut cmds);
                }
            }
            EditorMsg::Typed(text) => self.typed(text, &mut cmds),
            EditorMsg::FieldEdited { key, path, value } => {
                self.field_edited(key, &path, value, &mut cmds)
            }
            EditorMsg::FieldError { key, error } => self.set_field_error(&key, error),
            EditorMsg::Loaded { text, source } => self.load(text, source, &mut cmds),
            EditorMsg::LinkOpened(Ok(text)) => {
                self.load(text, Source::Link, &mut cmds);
                self.arrival = Some(share::LINK_LOADED.to_string());
            }
            EditorMsg::LinkOpened(Err(why)) => {
                self.arrival = Some(share::broken_link_notice(&why));
            }
            EditorMsg::Identified { text, id } => {
                if self.text == text {
                    self.set_provenance(Provenance::fresh(Source::Builtin(id.clone())), &mut cmds);
                    self.set_selected(&id, &mut cmds);
                }
            }
            EditorMsg::Checked {
                text,
                problems,
                notes,
            } => {
                if self.text == text {
                    self.live_problems = problems;
                    self.live_notes = notes;
                }
            }
            EditorMsg::UndoPressed => self.undo(&mut cmds),
            EditorMsg::ArrivalSaid(arrival) => self.arrival = arrival,
            EditorMsg::NoticeSaid(notice) => {
                self.notice = notice.map(|said| (self.text.clone(), said));
            }
            EditorMsg::Locked(lock) => self.lock = lock,
            EditorMsg::Held(hold) => self.hold = hold,
        }
        cmds
    }
}

/// An unedited built-in: a pick brings it back, so a replacement need not
/// keep it for Undo.
fn is_pristine(provenance: &Provenance) -> bool {
    matches!(provenance.source, Source::Builtin(_)) && !provenance.edited
}

/// `text` with its header values taken out, and whether it had any; the
/// MCP servers' keeper is asked to hold them.
fn without_secrets(text: String, cmds: &mut Vec<EditorCmd>) -> (String, bool) {
    match mcp_text::extract_secrets(&text) {
        Some((clean, _)) => {
            cmds.push(EditorCmd::HoldSecrets(text));
            (clean, true)
        }
        None => (text, false),
    }
}
