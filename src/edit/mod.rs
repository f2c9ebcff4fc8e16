//! What changes the document: the tools (one file each under `tools/`, one registry), the
//! symmetry every tool goes through, strokes, the editing session and its undo history, and
//! the procedural maps the editor ships with. Knows the document, not the GPU or the UI: the
//! GPU runs the tools' kernels through [`session::GpuLayers`], which `gpu::kernels` implements.

pub mod brush;
pub mod features;
pub mod generate;
pub mod history;
pub mod kernel;
pub mod layer;
pub mod new_map;
pub mod ops;
pub mod procedural;
pub mod rect;
pub mod session;
pub mod starts;
pub mod stroke;
pub mod symmetry;
pub mod tools;

pub use brush::{Brush, BrushShape, Falloff};
pub use history::{Change, History};
pub use layer::LayerId;
pub use rect::GridRect;
pub use session::{GpuLayers, Session, SpotEdit, StrokeReport};
pub use tools::{TOOLS, Tool, ToolSettings};
