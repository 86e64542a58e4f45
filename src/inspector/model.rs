//! The inspector as a plain model: whether it is open, the turn it shows,
//! which view (request, response, both side by side, conversation, MCP
//! calls) and wire format, and the block a verdict or a tool's card asked
//! it to mark. The turn cards and the inspector's own buttons send it
//! messages; it asks nothing of the world, so it has no commands.
//!
//! Invariants:
//! - Opening on a turn (from a card, or stepping to the turn before or
//!   after) shows its request; only a verdict or a tool's card leaves a
//!   block marked.
//! - A verdict's place is in one wire format: picking another format
//!   clears it, while a tool block (found by its id in any format) stays.
//! - What is marked belongs to the run it was asked about: once another
//!   run is in view, nothing is marked.

use harness::wire::Provider;

pub use crate::inspector::marked_json::ToolBlock;
use crate::update::Update;

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

/// What happens to the inspector.
#[derive(Clone, Debug, PartialEq)]
pub enum InspectorMsg {
    /// "Request to the model" on a turn's card: that turn's request.
    OpenedAt(u32),
    /// A verdict's "Show in the request": the turn's request in the
    /// verdict's format, its place marked.
    PointedAt {
        turn: u32,
        provider: Provider,
        path: String,
    },
    /// "See it on the wire" on a call's or a result's card: the turn's
    /// request in the format chosen, the tool's block marked.
    PointedAtTool {
        turn: u32,
        id: String,
        block: ToolBlock,
    },
    /// "Open at the latest turn".
    OpenedLatest,
    /// "Turn before" or "Turn after" went to this turn.
    SteppedTo(u32),
    ViewPicked(InspectorView),
    FormatPicked(Provider),
    /// A verdict's "Mark it in the body", in the format shown.
    Marked {
        provider: Provider,
        path: String,
    },
    Closed,
    /// The run in view is now this one.
    RunInView(u64),
}

/// The inspector as the page shows it (see the module's invariants).
#[derive(Clone, Debug, PartialEq)]
pub struct InspectorModel {
    open: bool,
    /// `None`: the latest turn that sent a request.
    turn: Option<u32>,
    view: InspectorView,
    /// `None`: the format of the model the run used (Anthropic for the
    /// scripted model, which speaks none).
    provider: Option<Provider>,
    pointed: Option<Pointed>,
    /// The run in view, once the inspector has heard of one.
    run: Option<u64>,
}

impl Default for InspectorModel {
    fn default() -> Self {
        InspectorModel {
            open: false,
            turn: None,
            view: InspectorView::Request,
            provider: None,
            pointed: None,
            run: None,
        }
    }
}

impl InspectorModel {
    pub fn open(&self) -> bool {
        self.open
    }

    /// The turn picked; `None` for the latest.
    pub fn turn(&self) -> Option<u32> {
        self.turn
    }

    pub fn view(&self) -> InspectorView {
        self.view
    }

    /// The format picked; `None` for the run's own.
    pub fn provider(&self) -> Option<Provider> {
        self.provider
    }

    pub fn pointed(&self) -> Option<&Pointed> {
        self.pointed.as_ref()
    }

    /// Opens on `turn`'s request with `pointed` marked.
    fn open_on(&mut self, turn: Option<u32>, pointed: Option<Pointed>) {
        self.turn = turn;
        self.view = InspectorView::Request;
        self.pointed = pointed;
        self.open = true;
    }
}

impl Update for InspectorModel {
    type Msg = InspectorMsg;
    /// The inspector asks nothing of the world.
    type Cmd = std::convert::Infallible;

    fn update(&mut self, msg: InspectorMsg) -> Vec<Self::Cmd> {
        match msg {
            InspectorMsg::OpenedAt(turn) => self.open_on(Some(turn), None),
            InspectorMsg::PointedAt {
                turn,
                provider,
                path,
            } => {
                self.provider = Some(provider);
                self.open_on(Some(turn), Some(Pointed::Path { provider, path }));
            }
            // The format stays the one chosen: a tool's block is in each.
            InspectorMsg::PointedAtTool { turn, id, block } => {
                self.open_on(Some(turn), Some(Pointed::Tool { id, block }))
            }
            // The view and what is marked stay as they were.
            InspectorMsg::OpenedLatest => {
                self.turn = None;
                self.open = true;
            }
            InspectorMsg::SteppedTo(turn) => {
                self.turn = Some(turn);
                self.pointed = None;
            }
            InspectorMsg::ViewPicked(view) => self.view = view,
            InspectorMsg::FormatPicked(provider) => {
                self.provider = Some(provider);
                if matches!(self.pointed, Some(Pointed::Path { .. })) {
                    self.pointed = None;
                }
            }
            InspectorMsg::Marked { provider, path } => {
                self.pointed = Some(Pointed::Path { provider, path })
            }
            InspectorMsg::Closed => {
                self.open = false;
                self.pointed = None;
            }
            InspectorMsg::RunInView(run) => {
                if self.run.is_some_and(|was| was != run) {
                    self.pointed = None;
                }
                self.run = Some(run);
            }
        }
        Vec::new()
    }
}

#[cfg(test)]
mod tests;
