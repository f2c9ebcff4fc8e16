//! Where units can go, as the engine computes it: the slope and highest-corner maps
//! (`ground`), BAR's move classes (`move_class`), each square's speed or block per class
//! (`passability`), connected regions and path distances (`reach`), and the per-team report
//! with its fairness checks (`report`). Pure: no GPU, no files beyond finding BAR's movedefs.

pub mod ground;
pub mod lobby_tags;
pub mod move_class;
pub mod passability;
pub mod reach;
pub mod report;

pub use ground::GroundMaps;
pub use move_class::{MoveClass, MoveClassTable, MoveKind};
pub use passability::{Passability, SquareState};
pub use report::{Analysis, analyze};
