//! The judge's units ([`crate::view::judge`]) in the input each judge
//! loads:
//!
//! - `ragas`: JSON lines of an `EvaluationDataset`
//!   (`EvaluationDataset.from_jsonl`): `user_input`, `response`,
//!   `retrieved_contexts`, `retrieved_context_ids`;
//! - `deepeval`: a JSON array of test cases
//!   (`EvaluationDataset.add_test_cases_from_json_file` with the keys
//!   `input`, `actual_output`, `retrieval_context`): `input`,
//!   `actual_output`, `retrieval_context`, `name`, `additional_metadata`;
//! - `promptfoo`: a config (JSON, which promptfoo reads as YAML) whose
//!   prompt is the sentence itself through the `echo` provider, one test
//!   per unit with `query`, `context` and `response` vars and a
//!   `context-faithfulness` assertion.
//!
//! Each record also names its turn and the sentence's place
//! (`grounding_audit` in Ragas lines, which Ragas does not read).

use crate::view::judge::JudgeUnit;
use anyhow::Result;
use serde_json::{Value, json};
use std::io::Write;

/// A judge's input format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Judge {
    Ragas,
    Deepeval,
    Promptfoo,
}

/// `context-faithfulness`'s threshold in the promptfoo tests: the share
/// of the sentence's claims the context must support.
pub const PROMPTFOO_THRESHOLD: f64 = 0.9;

impl crate::model::Named for Judge {
    const ALL: &'static [Judge] = &[Judge::Ragas, Judge::Deepeval, Judge::Promptfoo];
    fn name(self) -> &'static str {
        self.as_str()
    }
    fn about(self) -> Option<&'static str> {
        Some(match self {
            Judge::Ragas => {
                "Ragas: JSON lines of an EvaluationDataset (user_input, response, retrieved_contexts)"
            }
            Judge::Deepeval => {
                "DeepEval: a JSON array of test cases (input, actual_output, retrieval_context)"
            }
            Judge::Promptfoo => "promptfoo: a config with one context-faithfulness test per unit",
        })
    }
}

impl Judge {
    pub fn as_str(self) -> &'static str {
        match self {
            Judge::Ragas => "ragas",
            Judge::Deepeval => "deepeval",
            Judge::Promptfoo => "promptfoo",
        }
    }

    /// What comes before the first unit.
    pub fn begin(self, out: &mut dyn Write) -> Result<()> {
        match self {
            Judge::Ragas => {}
            Judge::Deepeval => out.write_all(b"[\n")?,
            Judge::Promptfoo => {
                let head = json!({
                    "description": "Cited sentences grounding-audit could not decide, for a judge",
                    "prompts": ["{{response}}"],
                    "providers": ["echo"],
                });
                let head = serde_json::to_string(&head)?;
                // The object left open for its tests.
                out.write_all(&head.as_bytes()[..head.len() - 1])?;
                out.write_all(b",\"tests\":[\n")?;
            }
        }
        Ok(())
    }

    /// One unit; `first` when none was written before it.
    pub fn unit(self, out: &mut dyn Write, u: &JudgeUnit, first: bool) -> Result<()> {
        let record = self.record(u);
        if !first && self != Judge::Ragas {
            out.write_all(b",\n")?;
        }
        serde_json::to_writer(&mut *out, &record)?;
        if self == Judge::Ragas {
            out.write_all(b"\n")?;
        }
        Ok(())
    }

    /// What comes after the last unit.
    pub fn end(self, out: &mut dyn Write) -> Result<()> {
        match self {
            Judge::Ragas => {}
            Judge::Deepeval => out.write_all(b"\n]\n")?,
            Judge::Promptfoo => out.write_all(b"\n]}\n")?,
        }
        Ok(())
    }

    fn record(self, u: &JudgeUnit) -> Value {
        let place = json!({
            "turn_id": u.turn_id,
            "sentence": [u.span.0, u.span.1],
            "hinted": u.hinted,
        });
        let question = u.question.clone().unwrap_or_default();
        match self {
            Judge::Ragas => json!({
                "user_input": question,
                "response": u.sentence,
                "retrieved_contexts": u.contexts,
                "retrieved_context_ids": u.context_ids,
                "grounding_audit": place,
            }),
            Judge::Deepeval => json!({
                "input": question,
                "actual_output": u.sentence,
                "retrieval_context": u.contexts,
                "name": format!("{} [{}..{}]", u.turn_id, u.span.0, u.span.1),
                "additional_metadata": place,
            }),
            Judge::Promptfoo => json!({
                "description": format!("{} [{}..{}]", u.turn_id, u.span.0, u.span.1),
                "vars": {
                    "query": question,
                    "context": u.contexts.join("\n\n"),
                    "response": u.sentence,
                },
                "assert": [{"type": "context-faithfulness", "threshold": PROMPTFOO_THRESHOLD}],
                "metadata": place,
            }),
        }
    }
}
