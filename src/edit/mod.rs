//! What changes the document: brushes (each the CPU twin of a GPU kernel), the undo history,
//! and the procedural maps the editor ships with. Knows the document, not the GPU or the UI.

pub mod brush;
pub mod history;
pub mod procedural;
pub mod rect;

pub use brush::{Dab, RaiseLowerBrush, StrokeParams};
pub use history::{Change, HeightPatch, History};
pub use rect::GridRect;
