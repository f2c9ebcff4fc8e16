//! The tools and their registry. A tool is one file here (its settings, how it strokes, the
//! layer it writes, its kernel's numbers and its CPU twin) plus its WGSL file, plus one line in
//! [`TOOLS`]. The tools panel, the viewport, `groundwork edit --ops` and the tests all list
//! tools from [`TOOLS`].

mod erosion_hydraulic;
mod erosion_thermal;
mod fill;
mod flatten;
mod grass;
mod metal_dome;
mod metal_paint;
pub(crate) mod noise;
mod raise;
mod ramp;
mod restore;
mod set;
mod smooth;
mod stamp;
mod terrain_type;
mod texture_paint;

use std::sync::Arc;

use super::brush::{Brush, BrushShape, Falloff, MaskImage};
use super::kernel::{KernelSpec, PassRun};
use super::layer::LayerId;
use crate::map::{Grid, Map, MapSettings};

/// Every tool, in the order the panel shows them. A new tool adds one line.
pub static TOOLS: &[&dyn Tool] = &[
    &raise::RAISE,
    &raise::LOWER,
    &smooth::SMOOTH,
    &flatten::FLATTEN,
    &set::SET,
    &noise::NOISE,
    &ramp::RAMP,
    &erosion_thermal::THERMAL_EROSION,
    &erosion_hydraulic::HYDRAULIC_EROSION,
    &stamp::STAMP,
    &restore::RESTORE,
    &metal_dome::METAL_DOME,
    &metal_paint::METAL_PAINT,
    &metal_paint::METAL_ERASE,
    &grass::GRASS,
    &grass::GRASS_ERASE,
    &terrain_type::TERRAIN_TYPE,
    &texture_paint::TEXTURE_PAINT,
    &texture_paint::TEXTURE_ERASE,
];

/// The tool registered under `name` (the ops file's `tool = "..."`).
pub fn find(name: &str) -> Option<&'static dyn Tool> {
    TOOLS.iter().copied().find(|t| t.name() == name)
}

/// The registered names, for messages.
pub fn names() -> String {
    TOOLS
        .iter()
        .map(|t| t.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// How the cursor's path becomes dabs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrokeStyle {
    /// Evenly spaced along the path while the button is down, and at a fixed rate when the
    /// cursor holds still.
    Spaced,
    /// One dab where the button goes down (a scripted path: one per point).
    Click,
    /// One shape from where the button went down to where it came up (`path[0] -> path[1]`).
    Segment,
}

/// What kind of value a tool setting holds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ParamKind {
    /// A number in `min..=max`; `integer` ones are whole numbers.
    Number {
        min: f32,
        max: f32,
        default: f32,
        integer: bool,
    },
    /// One of a few words; the ops file gives the word.
    Choice {
        options: &'static [&'static str],
        default: usize,
    },
    /// A greyscale PNG (16-bit for stamps); the ops file gives its path.
    Image,
    /// On or off; the ops file gives `true` or `false`.
    Toggle { default: bool },
    /// A band `[min, max]` within `lo..=hi`; the ops file gives two numbers.
    Range {
        lo: f32,
        hi: f32,
        default: (f32, f32),
    },
    /// One of the map's texture layers (its place in the stack); the ops file gives its name.
    TextureLayer,
}

/// One tool-specific setting. The key has its unit in it (`height_elmos`, `talus_deg`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    pub key: &'static str,
    pub label: &'static str,
    pub help: &'static str,
    pub kind: ParamKind,
    /// Set when the setting only has an effect for some values of one of the tool's choices.
    pub applies_when: Option<AppliesWhen>,
}

/// The values of another (choice) setting under which a setting has an effect: flatten's
/// `height_elmos` only with `target = "typed"`. Ops files refuse the setting under other values
/// (and, given alone, it selects its value when there is one); the panel greys it out.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AppliesWhen {
    /// The choice's key.
    pub key: &'static str,
    /// Its options under which the setting has an effect.
    pub options: &'static [&'static str],
}

impl ParamSpec {
    /// Whether the setting has an effect with `settings` (true unless its `applies_when` choice
    /// is set to another option).
    pub fn applies(&self, tool: &dyn Tool, settings: &ToolSettings) -> bool {
        let Some(when) = self.applies_when else {
            return true;
        };
        match choice_option(tool, settings, when.key) {
            Some(current) => when.options.contains(&current),
            None => true,
        }
    }
}

/// The word `settings` hold for the tool's choice `key`.
pub fn choice_option(tool: &dyn Tool, settings: &ToolSettings, key: &str) -> Option<&'static str> {
    let spec = tool.params().iter().find(|p| p.key == key)?;
    match spec.kind {
        ParamKind::Choice { options, .. } => options.get(settings.choice(key)).copied(),
        _ => None,
    }
}

/// A setting's value.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    Number(f32),
    /// A choice's index; a toggle's 0 or 1; a texture layer's place in the stack.
    Choice(usize),
    Image(Option<MaskImage>),
    Range(f32, f32),
}

/// A tool's settings as the user (or an ops file) set them: the brush and the tool's own.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSettings {
    pub brush: Brush,
    pub values: Vec<(&'static str, ParamValue)>,
}

impl ToolSettings {
    /// The tool's defaults.
    pub fn defaults(tool: &dyn Tool) -> ToolSettings {
        ToolSettings {
            brush: tool.default_brush(),
            values: tool
                .params()
                .iter()
                .map(|p| {
                    let v = match p.kind {
                        ParamKind::Number { default, .. } => ParamValue::Number(default),
                        ParamKind::Choice { default, .. } => ParamValue::Choice(default),
                        ParamKind::Image => ParamValue::Image(None),
                        ParamKind::Toggle { default } => ParamValue::Choice(default as usize),
                        ParamKind::Range { default, .. } => ParamValue::Range(default.0, default.1),
                        ParamKind::TextureLayer => ParamValue::Choice(0),
                    };
                    (p.key, v)
                })
                .collect(),
        }
    }

    fn value(&self, key: &str) -> Option<&ParamValue> {
        self.values.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
    }

    pub fn value_mut(&mut self, key: &str) -> Option<&mut ParamValue> {
        self.values
            .iter_mut()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }

    /// A number setting (0 when the tool has no such key).
    pub fn number(&self, key: &str) -> f32 {
        match self.value(key) {
            Some(ParamValue::Number(v)) => *v,
            _ => 0.0,
        }
    }

    /// A choice setting's index.
    pub fn choice(&self, key: &str) -> usize {
        match self.value(key) {
            Some(ParamValue::Choice(i)) => *i,
            _ => 0,
        }
    }

    /// A toggle setting.
    pub fn toggle(&self, key: &str) -> bool {
        self.choice(key) != 0
    }

    /// A range setting (`(0, 0)` when the tool has no such key).
    pub fn range(&self, key: &str) -> (f32, f32) {
        match self.value(key) {
            Some(ParamValue::Range(a, b)) => (*a, *b),
            _ => (0.0, 0.0),
        }
    }

    /// An image setting, when one is loaded.
    pub fn image(&self, key: &str) -> Option<&MaskImage> {
        match self.value(key) {
            Some(ParamValue::Image(m)) => m.as_ref(),
            _ => None,
        }
    }

    pub fn set_number(&mut self, key: &str, v: f32) {
        if let Some(ParamValue::Number(x)) = self.value_mut(key) {
            *x = v;
        }
    }
}

/// What a tool knows when its stroke starts (and, for segment tools, ends).
pub struct StrokeStart<'a> {
    pub settings: &'a ToolSettings,
    pub map: &'a Map,
    /// Shift held: the tool's inverse where it has one.
    pub inverted: bool,
    pub start_elmos: [f32; 2],
    /// The ground under the first point, as the user sees it.
    pub start_height_elmos: f32,
    /// Segment tools: where the stroke ended, and the ground there.
    pub end_elmos: [f32; 2],
    pub end_height_elmos: f32,
}

/// A dab in world units, before the symmetry copies it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WorldDab {
    pub center_elmos: [f32; 2],
    pub radius_elmos: f32,
    pub amount: f32,
    /// Unit vectors of the dab's local x and z.
    pub axis_x: [f32; 2],
    pub axis_z: [f32; 2],
}

impl WorldDab {
    /// A round dab with unturned axes.
    pub fn round(center_elmos: [f32; 2], radius_elmos: f32, amount: f32) -> WorldDab {
        WorldDab {
            center_elmos,
            radius_elmos,
            amount,
            axis_x: [1.0, 0.0],
            axis_z: [0.0, 1.0],
        }
    }

    /// Turned by `deg` degrees (from +x towards +z).
    pub fn turned(self, deg: f32) -> WorldDab {
        let (s, c) = deg.to_radians().sin_cos();
        WorldDab {
            axis_x: [c, s],
            axis_z: [-s, c],
            ..self
        }
    }
}

/// How far a tool reaches beyond its dabs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reach {
    /// Cells written: within `radius * scale + grow_cells` of a dab's centre.
    pub scale: f32,
    pub grow_cells: u32,
    /// Cells read beyond those written (the source copy's margin).
    pub halo_cells: u32,
}

/// The numbers a stroke hands its kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolSetup {
    /// Each dab's `amount`.
    pub amount: f32,
    /// The parameter block's `tool` numbers.
    pub tool: [f32; 16],
    pub passes: Vec<PassRun>,
    pub stamp: Option<Arc<Grid<f32>>>,
}

impl ToolSetup {
    /// A dab-loop kernel's setup: one `main` pass and a per-dab amount.
    pub fn dab_amount(amount: f32) -> ToolSetup {
        ToolSetup {
            amount,
            tool: [0.0; 16],
            passes: vec![PassRun::once("main")],
            stamp: None,
        }
    }

    pub fn with_tool(mut self, tool: [f32; 16]) -> ToolSetup {
        self.tool = tool;
        self
    }
}

/// A tool. Each lives in its own file under `edit/tools/` and is registered in [`TOOLS`].
pub trait Tool: Sync {
    /// The registry name (`raise`, `thermal-erosion`).
    fn name(&self) -> &'static str;
    /// The panel's label.
    fn label(&self) -> &'static str;
    /// One or two sentences: what it does and what strength means.
    fn help(&self) -> &'static str;
    /// The layer it writes.
    fn layer(&self) -> LayerId {
        LayerId::Heights
    }
    /// The layer it writes with these settings (the texture brush: the chosen layer's mask).
    fn layer_for(&self, _settings: &ToolSettings) -> LayerId {
        self.layer()
    }
    fn style(&self) -> StrokeStyle {
        StrokeStyle::Spaced
    }
    /// The tool's own settings.
    fn params(&self) -> &'static [ParamSpec] {
        &[]
    }
    /// What Shift does, when it does something ("lower").
    fn inverse(&self) -> Option<&'static str> {
        None
    }
    fn default_brush(&self) -> Brush {
        Brush::default()
    }
    /// Its result depends on where it runs (noise, erosion, stamps) or on the order in which
    /// overlapping copies land (ramps): with symmetry on, the fundamental sector's result is
    /// copied to the others.
    fn position_dependent(&self) -> bool {
        false
    }
    fn reach(&self, settings: &ToolSettings) -> Reach {
        Reach {
            scale: settings.brush.shape.reach_factor(),
            grow_cells: 0,
            halo_cells: 0,
        }
    }
    fn kernel(&self) -> &'static KernelSpec;
    /// The kernel's numbers for a stroke.
    fn setup(&self, start: &StrokeStart) -> Result<ToolSetup, String>;
    /// The dab at `at` (elmos); segment tools get the segment's midpoint.
    fn dab(&self, start: &StrokeStart, setup: &ToolSetup, at: [f32; 2]) -> WorldDab {
        WorldDab::round(at, start.settings.brush.radius_elmos, setup.amount)
    }
    /// A line for the panel about the stroke in progress (a ramp's slope).
    fn describe(&self, _start: &StrokeStart) -> Option<String> {
        None
    }
    /// Which of the brush's settings mean something to this tool (the panel shows those).
    fn brush_controls(&self) -> BrushControls {
        BrushControls::ALL
    }
    /// A line for the panel about the settings on this map (what a dome will yield).
    fn settings_note(&self, _settings: &ToolSettings, _map: &MapSettings) -> Option<String> {
        None
    }
    /// For tools that place metal spots: the (radius, peak) a spot gets. Such a tool also edits
    /// existing spots: pressing on one drags it, Ctrl reshapes it, Shift deletes it.
    fn spot_shape(&self, _settings: &ToolSettings, _map: &MapSettings) -> Option<(f32, f32)> {
        None
    }
    /// What the user should hear about a stroke, said once when it ends (an undefined terrain
    /// type).
    fn stroke_warnings(&self, _start: &StrokeStart) -> Vec<String> {
        Vec::new()
    }
    /// Settings (the tool's keys, or the brush's `strength`) that do nothing with these values
    /// though no choice says so, because another setting decides instead; each with why. Ops
    /// files refuse them and the panel greys them.
    fn overridden(&self, _settings: &ToolSettings) -> Vec<(&'static str, &'static str)> {
        Vec::new()
    }
}

/// The brush settings a tool uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BrushControls {
    pub radius: bool,
    pub strength: bool,
    pub falloff: bool,
    pub shape: bool,
}

impl BrushControls {
    pub const ALL: BrushControls = BrushControls {
        radius: true,
        strength: true,
        falloff: true,
        shape: true,
    };
}

impl std::fmt::Debug for dyn Tool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A brush preset tools start from: a falloff and strength other than the default.
pub fn brush_with(falloff: Falloff, strength: f32) -> Brush {
    Brush {
        falloff,
        strength,
        ..Brush::default()
    }
}

/// A square brush (stamps).
pub fn square_brush(strength: f32) -> Brush {
    Brush {
        shape: BrushShape::Square,
        falloff: Falloff::Flat,
        strength,
        ..Brush::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_found() {
        for (i, t) in TOOLS.iter().enumerate() {
            assert_eq!(find(t.name()).map(|f| f.name()), Some(t.name()));
            for u in &TOOLS[i + 1..] {
                assert_ne!(t.name(), u.name());
            }
            let s = ToolSettings::defaults(*t);
            assert_eq!(s.values.len(), t.params().len());
            // numbers carry their unit in the key, or are counts and ratios by name
            const UNITLESS: &[&str] = &[
                "seed",
                "octaves",
                "iterations",
                "capacity",
                "evaporation",
                // paint tools, keys as mapmakers name them: bytes, metal/s, an index
                "peak",
                "t1_income",
                "value",
                "index",
            ];
            for p in t.params() {
                if matches!(p.kind, ParamKind::Number { .. }) {
                    assert!(
                        p.key.ends_with("_elmos")
                            || p.key.ends_with("_deg")
                            || UNITLESS.contains(&p.key),
                        "{}: {} has no unit in its name",
                        t.name(),
                        p.key
                    );
                }
            }
        }
        assert!(find("nope").is_none());
    }

    #[test]
    fn conditions_name_a_choice_of_the_same_tool_and_its_options() {
        let mut conditional = 0;
        for t in TOOLS {
            for p in t.params() {
                let Some(when) = p.applies_when else {
                    continue;
                };
                conditional += 1;
                let choice = t.params().iter().find(|c| c.key == when.key);
                let Some(ParamSpec {
                    kind: ParamKind::Choice { options, default },
                    ..
                }) = choice
                else {
                    panic!(
                        "{}: {} depends on {}, not a choice",
                        t.name(),
                        p.key,
                        when.key
                    );
                };
                assert!(!when.options.is_empty(), "{}: {}", t.name(), p.key);
                for o in when.options {
                    assert!(options.contains(o), "{}: {} = {o}", t.name(), when.key);
                }
                // under each option of the choice, the setting applies exactly when listed
                let mut s = ToolSettings::defaults(*t);
                assert_eq!(choice_option(*t, &s, when.key), Some(options[*default]));
                for (i, o) in options.iter().enumerate() {
                    *s.value_mut(when.key).unwrap() = ParamValue::Choice(i);
                    assert_eq!(p.applies(*t, &s), when.options.contains(o));
                }
            }
        }
        // flatten's typed height, at least
        assert!(conditional >= 1);
    }

    /// Every whole-dispatch twin writes the bits its per-pass twin writes: strokes in the
    /// middle, at an edge and in a corner (where the halo is clipped), mirrored copies in one
    /// dispatch, a square brush with a falloff, and a dab over the whole map as the generator
    /// runs it.
    #[test]
    fn whole_dispatch_twins_write_the_bits_of_their_per_pass_twins() {
        use crate::edit::brush::{BrushShape, Falloff};
        use crate::edit::kernel::{CpuScratch, run_cpu, run_cpu_per_pass};
        use crate::edit::stroke::Stroke;
        use crate::map::{MapSize, SymmetryMode};

        let mut map = crate::edit::procedural::relief_map(MapSize::new(2, 2).unwrap(), 11, "twins");
        let fast: Vec<&'static dyn Tool> = TOOLS
            .iter()
            .copied()
            .filter(|t| t.kernel().cpu_dispatch.is_some())
            .collect();
        assert!(fast.len() >= 2, "both erosions have a whole-dispatch twin");
        for tool in fast {
            let mut s = ToolSettings::defaults(tool);
            s.set_number("iterations", 12.0);
            /// The map's symmetry, the brush's shape, falloff and radius (elmos), the path.
            type Case = (SymmetryMode, BrushShape, Falloff, f32, [[f32; 2]; 2]);
            let cases: [Case; 4] = [
                (
                    SymmetryMode::None,
                    BrushShape::Circle,
                    Falloff::Smooth,
                    200.0,
                    [[500.0, 520.0], [620.0, 560.0]],
                ),
                (
                    SymmetryMode::MirrorX,
                    BrushShape::Square,
                    Falloff::Linear,
                    150.0,
                    [[30.0, 700.0], [90.0, 760.0]],
                ),
                (
                    SymmetryMode::None,
                    BrushShape::Circle,
                    Falloff::Sharp,
                    260.0,
                    [[1010.0, 1015.0], [980.0, 1000.0]],
                ),
                (
                    SymmetryMode::None,
                    BrushShape::Square,
                    Falloff::Flat,
                    1100.0,
                    [[512.0, 512.0], [512.0, 512.0]],
                ),
            ];
            for (mode, shape, falloff, radius, path) in cases {
                map.symmetry = mode;
                s.brush.shape = shape.clone();
                s.brush.falloff = falloff;
                s.brush.radius_elmos = radius;
                s.brush.strength = 0.8;
                let mut stroke = Stroke::begin(tool, s.clone(), false, &map, path[0]).unwrap();
                stroke.move_to(&map, path[1], 0.0);
                let dispatches = stroke.take(&map, None);
                assert!(!dispatches.is_empty());
                let (mut a, mut b) = (map.heights.clone(), map.heights.clone());
                let mut scratch = CpuScratch::default();
                for d in &dispatches {
                    run_cpu_per_pass(d, &mut a, &mut scratch);
                    run_cpu(d, &mut b, &mut scratch);
                }
                assert!(dispatches.iter().any(|d| d.kernel.cpu_dispatch.is_some()));
                assert_ne!(
                    a,
                    map.heights,
                    "{}: the stroke changes the ground",
                    tool.name()
                );
                let differ = a
                    .data()
                    .iter()
                    .zip(b.data())
                    .filter(|(x, y)| x.to_bits() != y.to_bits())
                    .count();
                assert_eq!(
                    differ,
                    0,
                    "{} {mode:?} {shape:?}: cells differ",
                    tool.name()
                );
            }
        }
    }
}
