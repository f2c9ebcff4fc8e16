//! Undo and redo: each step is a change with its before and after, applied to the document
//! in either direction. A brush stroke is one step: the rectangle it touched, before and after.

use super::GridRect;
use crate::map::{HeightGrid, Map};

/// The heights of one rectangle before and after a change.
#[derive(Clone, Debug, PartialEq)]
pub struct HeightPatch {
    pub x0: usize,
    pub z0: usize,
    pub before: HeightGrid,
    pub after: HeightGrid,
}

impl HeightPatch {
    pub fn rect(&self) -> GridRect {
        GridRect::new(self.x0, self.z0, self.before.width(), self.before.height())
    }

    fn bytes(&self) -> usize {
        (self.before.data().len() + self.after.data().len()) * std::mem::size_of::<f32>()
    }
}

/// One undoable step. Later tools add variants (metal, texture, features ...).
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Heights(HeightPatch),
}

/// What an undo or redo touched, so the caller can refresh the GPU copy of just that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Touched {
    Heights(GridRect),
}

impl Change {
    fn apply(&self, map: &mut Map, forward: bool) -> Touched {
        match self {
            Change::Heights(p) => {
                let grid = if forward { &p.after } else { &p.before };
                map.heights.paste_rect(p.x0, p.z0, grid);
                Touched::Heights(p.rect())
            }
        }
    }

    fn bytes(&self) -> usize {
        match self {
            Change::Heights(p) => p.bytes(),
        }
    }

    /// What this step is, in a few words, for the Edit menu.
    pub fn describe(&self) -> String {
        match self {
            Change::Heights(p) => format!(
                "height stroke ({}x{} vertices)",
                p.before.width(),
                p.before.height()
            ),
        }
    }
}

/// The undo and redo stacks, capped in memory: the oldest steps go first.
#[derive(Debug)]
pub struct History {
    undo: Vec<Change>,
    redo: Vec<Change>,
    budget_bytes: usize,
}

impl Default for History {
    fn default() -> History {
        History::with_budget(512 << 20)
    }
}

impl History {
    pub fn with_budget(budget_bytes: usize) -> History {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
            budget_bytes,
        }
    }

    /// Records a change that has already been applied to the document.
    pub fn push(&mut self, change: Change) {
        self.redo.clear();
        self.undo.push(change);
        let mut total: usize = self.undo.iter().map(Change::bytes).sum();
        while total > self.budget_bytes && self.undo.len() > 1 {
            total -= self.undo.remove(0).bytes();
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }
    pub fn next_undo(&self) -> Option<&Change> {
        self.undo.last()
    }
    pub fn next_redo(&self) -> Option<&Change> {
        self.redo.last()
    }

    /// Reverts the last step; returns what it touched.
    pub fn undo(&mut self, map: &mut Map) -> Option<Touched> {
        let c = self.undo.pop()?;
        let t = c.apply(map, false);
        self.redo.push(c);
        Some(t)
    }

    /// Re-applies the last undone step; returns what it touched.
    pub fn redo(&mut self, map: &mut Map) -> Option<Touched> {
        let c = self.redo.pop()?;
        let t = c.apply(map, true);
        self.undo.push(c);
        Some(t)
    }

    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::brush::{Dab, StrokeParams, apply_raise_lower};
    use crate::map::{MapSettings, MapSize};

    fn stroke(map: &mut Map) -> Change {
        let (w, h) = map.heights.dims();
        let dab = Dab {
            x_elmos: 300.0,
            z_elmos: 200.0,
            radius_elmos: 100.0,
            amount_elmos: 30.0,
            hardness: 0.2,
        };
        let p = StrokeParams::new(&[dab], w, h, -100.0, 400.0).unwrap();
        let r = p.rect();
        let before = map.heights.copy_rect(r.x0, r.z0, r.w, r.h);
        apply_raise_lower(&mut map.heights, &p);
        let after = map.heights.copy_rect(r.x0, r.z0, r.w, r.h);
        Change::Heights(HeightPatch {
            x0: r.x0,
            z0: r.z0,
            before,
            after,
        })
    }

    #[test]
    fn undo_and_redo_restore_exact_heights() {
        let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        let flat = map.heights.clone();
        let mut hist = History::default();
        let c = stroke(&mut map);
        hist.push(c);
        let raised = map.heights.clone();
        assert_ne!(raised, flat);
        assert!(matches!(hist.undo(&mut map), Some(Touched::Heights(_))));
        assert_eq!(map.heights, flat);
        hist.redo(&mut map);
        assert_eq!(map.heights, raised);
        assert!(hist.redo(&mut map).is_none());
    }

    #[test]
    fn a_new_change_clears_redo_and_the_budget_drops_oldest() {
        let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        let mut hist = History::with_budget(1);
        let c = stroke(&mut map);
        hist.push(c);
        let c = stroke(&mut map);
        hist.push(c);
        assert_eq!(hist.undo_len(), 1, "over budget, only the newest stays");
        hist.undo(&mut map);
        assert!(hist.can_redo());
        let c = stroke(&mut map);
        hist.push(c);
        assert!(!hist.can_redo());
    }
}
