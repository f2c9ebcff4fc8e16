//! Undo and redo. A step is the touched 64 x 64 tiles of each layer, before and after (so a
//! four-way mirrored stroke in four corners costs four small patches, not the whole map), a
//! change of the height range, or an edit of the settings, start positions and texture stack
//! (whose painted masks are kept only when the edit added, removed, moved or repainted them),
//! or a whole document before and after (a resize, which changes every layer's size). The stacks are capped in bytes; when a new step goes over the
//! budget the oldest steps are dropped first, each in O(1).

use std::collections::VecDeque;
use std::sync::Arc;

use super::GridRect;
use super::layer::{LayerId, to_byte};
use crate::map::ground_layers::TextureLayer;
use crate::map::recipe::Recipe;
use crate::map::{Feature, Grid, Map, MapSettings, Team};

/// The undo budget the editor uses: 512 MiB (a 32 x 32 map's whole heightmap, before and
/// after, is 128 MiB).
const DEFAULT_BUDGET_BYTES: usize = 512 << 20;

/// One tile's values, as the layer stores them.
#[derive(Clone, Debug, PartialEq)]
pub enum TileValues {
    Heights(Vec<f32>),
    Bytes(Vec<u8>),
}

impl TileValues {
    /// Takes float values as `layer` stores them.
    pub fn from_f32(layer: LayerId, values: Vec<f32>) -> TileValues {
        if layer.is_bytes() {
            TileValues::Bytes(values.into_iter().map(to_byte).collect())
        } else {
            TileValues::Heights(values)
        }
    }

    pub fn to_f32(&self) -> Vec<f32> {
        match self {
            TileValues::Heights(v) => v.clone(),
            TileValues::Bytes(v) => v.iter().map(|&b| b as f32).collect(),
        }
    }

    fn bytes(&self) -> usize {
        match self {
            TileValues::Heights(v) => v.len() * 4,
            TileValues::Bytes(v) => v.len(),
        }
    }
}

/// One tile of one layer before and after a step.
#[derive(Clone, Debug, PartialEq)]
pub struct TilePatch {
    pub layer: LayerId,
    pub rect: GridRect,
    pub before: TileValues,
    pub after: TileValues,
}

/// One undoable step.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// Tiles of layers, with what did it ("smooth stroke").
    Tiles {
        what: String,
        patches: Vec<TilePatch>,
    },
    /// The map's height range (min, max) in elmos; the heights stay, their words change.
    HeightRange {
        before: (f32, f32),
        after: (f32, f32),
    },
    /// An edit of the settings and start positions, with the byte-layer tiles it changed (a
    /// lint fix: "set maxMetal to 2", "erase the stray metal").
    Edit {
        what: String,
        before: Box<EditState>,
        after: Box<EditState>,
        patches: Vec<TilePatch>,
    },
    /// The whole document (a resize): the maps before and after, shared, and the heights the
    /// restore tool goes back to at each size.
    Document {
        what: String,
        before: WholeMap,
        after: WholeMap,
    },
}

/// A whole document an undo step keeps: the map and the restore tool's heights at its size.
/// Steps compare equal when they hold the same maps.
#[derive(Clone, Debug)]
pub struct WholeMap {
    pub map: Arc<Map>,
    pub original_heights: Arc<Grid<f32>>,
}

impl PartialEq for WholeMap {
    fn eq(&self, other: &WholeMap) -> bool {
        Arc::ptr_eq(&self.map, &other.map)
            && Arc::ptr_eq(&self.original_heights, &other.original_heights)
    }
}

impl WholeMap {
    /// Memory the map holds: its layers, masks and picture.
    fn bytes(&self) -> usize {
        let m = &self.map;
        let masks: usize = m
            .texture_layers
            .iter()
            .filter_map(|l| l.mask.as_ref())
            .map(|g| g.width() * g.height())
            .sum();
        m.heights.data().len() * 4
            + self.original_heights.data().len() * 4
            + m.metal.data().len()
            + m.types.data().len()
            + m.grass.data().len()
            + m.texture.rgba().len()
            + masks
    }
}

/// The texture stack as an edit step keeps it: the layers without their painted masks, and
/// the masks (by place in the stack) only when the step changed them, so a slider step holds
/// no pixels and undoing a delete brings the painted mask back.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureStack {
    pub layers: Vec<TextureLayer>,
    /// `None`: the masks stay as they are.
    pub masks: Option<Vec<Option<Grid<u8>>>>,
}

/// What an edit step puts back besides byte-layer tiles.
#[derive(Clone, Debug, PartialEq)]
pub struct EditState {
    pub settings: MapSettings,
    pub teams: Vec<Team>,
    pub start_boxes: Vec<crate::map::start_boxes::StartBoxSet>,
    pub texture: TextureStack,
    pub features: Vec<Feature>,
    pub generator: Option<Recipe>,
}

impl EditState {
    /// The map's settings, start positions and texture stack, masks included.
    pub fn of(map: &Map) -> EditState {
        let l = &map.texture_layers;
        EditState {
            settings: map.settings.clone(),
            teams: map.teams.clone(),
            start_boxes: map.start_boxes.clone(),
            features: map.features.clone(),
            generator: map.generator.clone(),
            texture: TextureStack {
                layers: l
                    .iter()
                    .map(|l| TextureLayer {
                        name: l.name.clone(),
                        material: l.material.clone(),
                        rules: l.rules,
                        mask: None,
                        opacity: l.opacity,
                        splat_channel: l.splat_channel,
                    })
                    .collect(),
                masks: Some(l.iter().map(|l| l.mask.clone()).collect()),
            },
        }
    }

    /// `before` and `after` as a step keeps them: the masks dropped from both when the edit
    /// left them as they were.
    pub fn step(mut before: EditState, mut after: EditState) -> (Box<EditState>, Box<EditState>) {
        if before.texture.masks == after.texture.masks {
            before.texture.masks = None;
            after.texture.masks = None;
        }
        (Box::new(before), Box::new(after))
    }

    /// Puts this state on `map`; masks the state does not hold stay by place.
    pub fn restore(&self, map: &mut Map) {
        map.settings = self.settings.clone();
        map.teams = self.teams.clone();
        map.start_boxes = self.start_boxes.clone();
        map.features = self.features.clone();
        map.generator = self.generator.clone();
        let mut kept: Vec<Option<Grid<u8>>> =
            map.texture_layers.drain(..).map(|l| l.mask).collect();
        map.texture_layers = self
            .texture
            .layers
            .iter()
            .enumerate()
            .map(|(i, l)| TextureLayer {
                mask: match &self.texture.masks {
                    Some(m) => m.get(i).cloned().flatten(),
                    None => kept.get_mut(i).and_then(Option::take),
                },
                ..l.clone()
            })
            .collect();
    }

    /// Memory it holds: the masks', and a few KiB for the rest.
    fn bytes(&self) -> usize {
        4096 + self.features.len() * std::mem::size_of::<Feature>()
            + self.texture.masks.as_ref().map_or(0, |m| {
                m.iter()
                    .flatten()
                    .map(|g| g.width() * g.height())
                    .sum::<usize>()
            })
    }
}

/// What an undo or redo touched, so the caller can refresh the GPU copy of just that.
#[derive(Clone, Debug, PartialEq)]
pub enum Touched {
    Tiles(Vec<(LayerId, GridRect)>),
    Settings,
    /// Everything, maybe at another size: the GPU copy is made again; the restore tool's
    /// heights are these.
    Document(Arc<Grid<f32>>),
}

impl Change {
    fn apply(&self, map: &mut Map, forward: bool) -> Touched {
        match self {
            Change::Tiles { patches, .. } => {
                for p in patches {
                    let v = if forward { &p.after } else { &p.before };
                    p.layer.write_rect(map, p.rect, &v.to_f32());
                }
                Touched::Tiles(patches.iter().map(|p| (p.layer, p.rect)).collect())
            }
            Change::HeightRange { before, after } => {
                let (lo, hi) = if forward { *after } else { *before };
                map.settings.min_height_elmos = lo;
                map.settings.max_height_elmos = hi;
                Touched::Settings
            }
            Change::Edit {
                before,
                after,
                patches,
                ..
            } => {
                let state = if forward { after } else { before };
                state.restore(map);
                for p in patches {
                    let v = if forward { &p.after } else { &p.before };
                    p.layer.write_rect(map, p.rect, &v.to_f32());
                }
                Touched::Tiles(patches.iter().map(|p| (p.layer, p.rect)).collect())
            }
            Change::Document { before, after, .. } => {
                let state = if forward { after } else { before };
                *map = (*state.map).clone();
                Touched::Document(state.original_heights.clone())
            }
        }
    }

    /// Memory the step holds.
    pub fn bytes(&self) -> usize {
        match self {
            Change::Tiles { patches, .. } => patches
                .iter()
                .map(|p| p.before.bytes() + p.after.bytes() + std::mem::size_of::<TilePatch>())
                .sum(),
            Change::HeightRange { .. } => std::mem::size_of::<Change>(),
            Change::Edit {
                before,
                after,
                patches,
                ..
            } => {
                before.bytes()
                    + after.bytes()
                    + patches
                        .iter()
                        .map(|p| {
                            p.before.bytes() + p.after.bytes() + std::mem::size_of::<TilePatch>()
                        })
                        .sum::<usize>()
            }
            Change::Document { before, after, .. } => before.bytes() + after.bytes(),
        }
    }

    /// What this step is, in a few words, for the Edit menu and the log.
    pub fn describe(&self) -> String {
        match self {
            Change::Tiles { what, patches } => {
                format!(
                    "{what} ({} tile{})",
                    patches.len(),
                    if patches.len() == 1 { "" } else { "s" }
                )
            }
            Change::HeightRange { after, .. } => {
                format!("height range {:.0} .. {:.0} elmos", after.0, after.1)
            }
            Change::Edit { what, .. } | Change::Document { what, .. } => what.clone(),
        }
    }
}

/// The undo and redo stacks, capped in bytes: the oldest steps go first.
#[derive(Debug)]
pub struct History {
    undo: VecDeque<Change>,
    redo: Vec<Change>,
    undo_bytes: usize,
    redo_bytes: usize,
    budget_bytes: usize,
}

impl Default for History {
    fn default() -> History {
        History::with_budget(DEFAULT_BUDGET_BYTES)
    }
}

impl History {
    fn with_budget(budget_bytes: usize) -> History {
        History {
            undo: VecDeque::new(),
            redo: Vec::new(),
            undo_bytes: 0,
            redo_bytes: 0,
            budget_bytes,
        }
    }

    /// Records a change that has already been applied to the document.
    pub fn push(&mut self, change: Change) {
        self.redo.clear();
        self.redo_bytes = 0;
        self.undo_bytes += change.bytes();
        self.undo.push_back(change);
        while self.undo_bytes > self.budget_bytes && self.undo.len() > 1 {
            if let Some(old) = self.undo.pop_front() {
                self.undo_bytes -= old.bytes();
            }
        }
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn undo_len(&self) -> usize {
        self.undo.len()
    }
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }
    pub fn next_undo(&self) -> Option<&Change> {
        self.undo.back()
    }
    pub fn next_redo(&self) -> Option<&Change> {
        self.redo.last()
    }
    /// Bytes held by both stacks.
    pub fn bytes(&self) -> usize {
        self.undo_bytes + self.redo_bytes
    }

    /// Reverts the last step; returns it and what it touched.
    pub fn undo(&mut self, map: &mut Map) -> Option<(String, Touched)> {
        let c = self.undo.pop_back()?;
        self.undo_bytes -= c.bytes();
        let t = c.apply(map, false);
        let what = c.describe();
        self.redo_bytes += c.bytes();
        self.redo.push(c);
        Some((what, t))
    }

    /// Re-applies the last undone step; returns it and what it touched.
    pub fn redo(&mut self, map: &mut Map) -> Option<(String, Touched)> {
        let c = self.redo.pop()?;
        self.redo_bytes -= c.bytes();
        let t = c.apply(map, true);
        let what = c.describe();
        self.undo_bytes += c.bytes();
        self.undo.push_back(c);
        Some((what, t))
    }

    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
        self.undo_bytes = 0;
        self.redo_bytes = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{MapSettings, MapSize};

    fn step(map: &mut Map, x0: usize, v: f32) -> Change {
        let rect = GridRect::new(x0, 0, 8, 8);
        let before = TileValues::Heights(LayerId::Heights.read_rect(map, rect));
        LayerId::Heights.write_rect(map, rect, &vec![v; 64]);
        let after = TileValues::Heights(LayerId::Heights.read_rect(map, rect));
        Change::Tiles {
            what: "test".into(),
            patches: vec![TilePatch {
                layer: LayerId::Heights,
                rect,
                before,
                after,
            }],
        }
    }

    #[test]
    fn undo_and_redo_restore_exact_values() {
        let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        let flat = map.heights.clone();
        let mut hist = History::default();
        let c = step(&mut map, 3, 30.0);
        hist.push(c);
        let raised = map.heights.clone();
        assert_ne!(raised, flat);
        assert!(matches!(hist.undo(&mut map), Some((_, Touched::Tiles(_)))));
        assert_eq!(map.heights, flat);
        hist.redo(&mut map);
        assert_eq!(map.heights, raised);
        assert!(hist.redo(&mut map).is_none());
        hist.push(Change::HeightRange {
            before: (-100.0, 400.0),
            after: (-200.0, 500.0),
        });
        map.settings.max_height_elmos = 500.0;
        hist.undo(&mut map);
        assert_eq!(map.settings.max_height_elmos, 400.0);
    }

    #[test]
    fn the_budget_drops_the_oldest_and_a_new_step_clears_redo() {
        let mut map = Map::new(MapSize::new(2, 2).unwrap(), MapSettings::default());
        let one = step(&mut map, 0, 1.0).bytes();
        let mut hist = History::with_budget(one * 3);
        for i in 0..10 {
            let c = step(&mut map, i, i as f32);
            hist.push(c);
        }
        assert_eq!(hist.undo_len(), 3, "over budget, only the newest stay");
        assert!(hist.bytes() <= one * 3);
        hist.undo(&mut map);
        assert_eq!(hist.redo_len(), 1);
        let c = step(&mut map, 0, 5.0);
        hist.push(c);
        assert_eq!(hist.redo_len(), 0, "a new step clears the redos");
        assert_eq!(hist.bytes(), hist.undo_len() * one);
    }
}
