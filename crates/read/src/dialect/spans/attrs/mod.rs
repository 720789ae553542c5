//! Attribute values and what the assembler keeps of them.
//!
//! Every format ends up here: OTLP `AnyValue`s, Phoenix's plain JSON
//! attribute values and the dataframe's nested columns are all decoded into
//! the small borrowed [`Val`] tree, flattened into dotted keys
//! (`retrieval.documents.0.document.metadata.chunk_id`, whatever shape they
//! arrived in) and fed to `Builder::leaf`, the one place that knows the
//! attribute names of OpenInference, OTel GenAI, OpenLLMetry and Langfuse.
//!
//! Values are decoded only for keys [`wanted`] lets through; a value that
//! does not decode (wrong type, too deep) is ignored, never an error: one odd
//! attribute must not cost the span.
//!
//! Files:
//! - `value.rs`: the [`Val`] tree, id and string decoding, flattening;
//! - `names.rs`: which keys are decoded ([`wanted`]) and the attribute-name
//!   table (`Builder::leaf`);
//! - `builder.rs`: the per-span accumulators and the finished [`Span`](super::Span)
//!   (id and score rules for documents);
//! - `output.rs`: reply text and documents inside an output value.

mod builder;
mod names;
mod output;
mod value;

pub(super) use builder::Builder;
pub(super) use names::{wanted, wanted_for};
pub(super) use output::{json_text, output_text};
pub(super) use value::{BStr, IdIn, Val};
