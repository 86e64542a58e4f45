//! The course folds the loop diagram's parts it has not taught yet: a
//! chapter `reveals` parts by the keys of `harness::lesson::course::
//! DIAGRAM_PARTS`, the page marks them folded by those keys, and the
//! diagram names its nodes by `NodeId::key()`. So every node's key must be
//! a part a chapter can reveal, and every part must have its folding rule
//! in the Lessons stylesheet, or a part would stay drawn (or folded) for
//! ever.

#![cfg(not(target_arch = "wasm32"))]

use agent_loop_playground::loop_diagram::{NodeId, GATES};
use harness::event::Status;
use harness::lesson::course::DIAGRAM_PARTS;

/// Every node the diagram can draw. The match lists each variant, so a new
/// kind of node fails to compile here until it is added.
fn every_node() -> Vec<NodeId> {
    let listed = |id: NodeId| match id {
        NodeId::Start
        | NodeId::GateDeadline
        | NodeId::GateTurns
        | NodeId::GateTokens
        | NodeId::GateCost
        | NodeId::GateContext
        | NodeId::ModelCall
        | NodeId::Backoff
        | NodeId::Response
        | NodeId::Verifier
        | NodeId::GateToolCalls
        | NodeId::GateRepeat
        | NodeId::Validate
        | NodeId::Approval
        | NodeId::RunTool
        | NodeId::Results
        | NodeId::StopButton
        | NodeId::Exit(_) => id,
    };
    let mut nodes: Vec<NodeId> = [
        NodeId::Start,
        NodeId::ModelCall,
        NodeId::Backoff,
        NodeId::Response,
        NodeId::Verifier,
        NodeId::Validate,
        NodeId::Approval,
        NodeId::RunTool,
        NodeId::Results,
        NodeId::StopButton,
    ]
    .into_iter()
    .map(listed)
    .collect();
    nodes.extend(GATES.iter().map(|gate| gate.node));
    nodes.extend(Status::ALL.into_iter().map(NodeId::Exit));
    nodes
}

#[test]
fn every_node_of_the_loop_is_a_part_a_chapter_can_reveal() {
    for node in every_node() {
        let key = node.key();
        assert!(
            DIAGRAM_PARTS.contains(&key.as_str()),
            "the diagram's {key:?} is not in DIAGRAM_PARTS: no chapter could reveal it"
        );
    }
}

#[test]
fn every_part_has_its_folding_rule_in_the_lessons_stylesheet() {
    let css = include_str!("../static/lessons.css");
    for part in DIAGRAM_PARTS {
        let rule = format!("[data-fold~=\"{part}\"] [data-mode=\"run\"] .loop-wide");
        assert!(
            css.contains(&rule),
            "static/lessons.css does not fold {part:?} on the drawn loop"
        );
        let narrow = format!(
            "[data-fold~=\"{part}\"] [data-mode=\"run\"] .loop-narrow [data-node=\"{part}\"]"
        );
        assert!(
            css.contains(&narrow),
            "static/lessons.css does not fold {part:?} in the narrow list"
        );
    }
}
