//! The inspector's state: whether it is open, the turn it shows, which view
//! (request, response, both side by side, conversation) and wire format, and the block a
//! checker verdict asked it to point at. The turn cards open it; the
//! inspector panel draws it.

use harness::wire::Provider;

pub use crate::marked_json::ToolBlock;
use leptos::prelude::*;

/// What the inspector shows of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InspectorView {
    /// The request body the model received.
    Request,
    /// What the provider answered (or its error), whole and as SSE events.
    Response,
    /// The request and its response in two columns, read across as the
    /// providers' own playgrounds show them (one above the other where the
    /// inspector is narrow).
    Both,
    /// The messages array as the provider sees it, with its id links.
    Conversation,
    /// The turn's calls to MCP tools as JSON-RPC: request and answer.
    Mcp,
}

impl InspectorView {
    pub const ALL: [InspectorView; 5] = [
        InspectorView::Request,
        InspectorView::Response,
        InspectorView::Both,
        InspectorView::Conversation,
        InspectorView::Mcp,
    ];

    pub fn label(self) -> &'static str {
        match self {
            InspectorView::Request => "Request",
            InspectorView::Response => "Response",
            InspectorView::Both => "Side by side",
            InspectorView::Conversation => "Conversation",
            InspectorView::Mcp => "MCP calls",
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            InspectorView::Request => "request",
            InspectorView::Response => "response",
            InspectorView::Both => "both",
            InspectorView::Conversation => "conversation",
            InspectorView::Mcp => "mcp",
        }
    }
}

/// What the inspector marks in the request body it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pointed {
    /// The place a verdict is about: in its provider's format, by the
    /// provider's own wire path (`messages.1.content.1`, `input[4]`).
    Path { provider: Provider, path: String },
    /// A tool call or its result, by its id: marked in whichever format is
    /// shown, as a call's or a result's card asks.
    Tool { id: String, block: ToolBlock },
}

#[derive(Clone, Copy)]
pub struct InspectorState {
    pub open: RwSignal<bool>,
    /// `None`: the latest turn that sent a request.
    pub turn: RwSignal<Option<u32>>,
    pub view: RwSignal<InspectorView>,
    /// `None`: the format of the model the run used (Anthropic for the
    /// scripted model, which speaks none).
    pub provider: RwSignal<Option<Provider>>,
    pub pointed: RwSignal<Option<Pointed>>,
}

impl InspectorState {
    /// Made once by the root component, and handed to every card through
    /// the context.
    pub fn new() -> Self {
        let state = InspectorState {
            open: RwSignal::new(false),
            turn: RwSignal::new(None),
            view: RwSignal::new(InspectorView::Request),
            provider: RwSignal::new(None),
            pointed: RwSignal::new(None),
        };
        provide_context(state);
        state
    }

    /// Opens on `turn`'s request, as a "Request to the model" card asks.
    pub fn open_at(self, turn: u32) {
        self.turn.set(Some(turn));
        self.view.set(InspectorView::Request);
        self.pointed.set(None);
        self.open.set(true);
    }

    /// Opens on `turn`'s request in `provider`'s format with the block a
    /// verdict is about marked, as a verdict's "Show in the request" asks.
    pub fn point_at(self, turn: u32, provider: Provider, path: String) {
        self.turn.set(Some(turn));
        self.view.set(InspectorView::Request);
        self.provider.set(Some(provider));
        self.pointed.set(Some(Pointed::Path { provider, path }));
        self.open.set(true);
    }

    /// Opens on `turn`'s request (the first to carry it) with the block of
    /// tool call `id`, or of its result, marked, as "See it on the wire" on
    /// a call's or a result's card asks. The format stays the one chosen.
    pub fn point_at_tool(self, turn: u32, id: String, block: ToolBlock) {
        self.turn.set(Some(turn));
        self.view.set(InspectorView::Request);
        self.pointed.set(Some(Pointed::Tool { id, block }));
        self.open.set(true);
    }

    pub fn close(self) {
        self.open.set(false);
        self.pointed.set(None);
    }
}

impl Default for InspectorState {
    fn default() -> Self {
        Self::new()
    }
}
