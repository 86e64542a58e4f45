//! The inspector's state: whether it is open, the turn it shows, which view
//! (request, response, both side by side, conversation) and wire format,
//! and the block a checker verdict asked it to point at. The turn cards
//! open it; the inspector panel draws it. The decisions are the plain
//! model's (`inspector::model`); this adapter holds it and shows it in a
//! signal a part, so a part changed redraws only what reads it.

use harness::wire::Provider;
use leptos::prelude::*;

use crate::inspector::model::{InspectorModel, InspectorMsg};
use crate::state::mirror::mirror;
use crate::update::Update;

pub use crate::inspector::model::{InspectorView, Pointed, ToolBlock};

#[derive(Clone, Copy)]
pub struct InspectorState {
    model: StoredValue<InspectorModel>,
    open: RwSignal<bool>,
    turn: RwSignal<Option<u32>>,
    view: RwSignal<InspectorView>,
    provider: RwSignal<Option<Provider>>,
    pointed: RwSignal<Option<Pointed>>,
}

impl InspectorState {
    /// Made once by the root component, and handed to every card through
    /// the context.
    pub fn new() -> Self {
        let state = InspectorState {
            model: StoredValue::new(InspectorModel::default()),
            open: RwSignal::new(false),
            turn: RwSignal::new(None),
            view: RwSignal::new(InspectorView::Request),
            provider: RwSignal::new(None),
            pointed: RwSignal::new(None),
        };
        provide_context(state);
        state
    }

    pub fn open(self) -> ReadSignal<bool> {
        self.open.read_only()
    }

    /// `None`: the latest turn that sent a request.
    pub fn turn(self) -> ReadSignal<Option<u32>> {
        self.turn.read_only()
    }

    pub fn view(self) -> ReadSignal<InspectorView> {
        self.view.read_only()
    }

    /// `None`: the format of the model the run used (Anthropic for the
    /// scripted model, which speaks none).
    pub fn provider(self) -> ReadSignal<Option<Provider>> {
        self.provider.read_only()
    }

    pub fn pointed(self) -> ReadSignal<Option<Pointed>> {
        self.pointed.read_only()
    }

    /// Opens on `turn`'s request, as a "Request to the model" card asks.
    pub fn open_at(self, turn: u32) {
        self.send(InspectorMsg::OpenedAt(turn));
    }

    /// Opens on `turn`'s request in `provider`'s format with the block a
    /// verdict is about marked, as a verdict's "Show in the request" asks.
    pub fn point_at(self, turn: u32, provider: Provider, path: String) {
        self.send(InspectorMsg::PointedAt {
            turn,
            provider,
            path,
        });
    }

    /// Opens on `turn`'s request (the first to carry it) with the block of
    /// tool call `id`, or of its result, marked, as "See it on the wire" on
    /// a call's or a result's card asks. The format stays the one chosen.
    pub fn point_at_tool(self, turn: u32, id: String, block: ToolBlock) {
        self.send(InspectorMsg::PointedAtTool { turn, id, block });
    }

    pub fn close(self) {
        self.send(InspectorMsg::Closed);
    }

    /// What the inspector's own buttons do (see `InspectorMsg`).
    pub fn send(self, msg: InspectorMsg) {
        let Some(model) = self.model.try_update_value(|model| {
            model.update(msg);
            model.clone()
        }) else {
            return; // The page is gone.
        };
        mirror(self.open, model.open());
        mirror(self.turn, model.turn());
        mirror(self.view, model.view());
        mirror(self.provider, model.provider());
        mirror(self.pointed, model.pointed().cloned());
    }
}

impl Default for InspectorState {
    fn default() -> Self {
        Self::new()
    }
}
